#!/bin/sh
# RabbitMQ and Queuekeeper side by side: the same workloads (W1–W6, 200-byte bodies, loopback only), runs
# alternating A B A B …, then the tables of bench/side-by-side/summarize.mjs. See bench/README.md,
# "Side by side with RabbitMQ". Run from the repository's root after `npm run build:node`.
#
#   sh bench/side-by-side/run.sh setup    once, as root: Debian's rabbitmq-server, its loopback-only config,
#                                         and amqplib in a folder outside the repository ($AMQP_CLIENT_DIR)
#   sh bench/side-by-side/run.sh          a series: starts the broker (unless running) and a Queuekeeper
#                                         service on a fresh data folder, both kept for the whole series;
#                                         stops what it started, by PID, at the end
#
# Environment: ROUNDS (3), ARGS ("50000 8 200": messages and seconds per publish phase, body bytes),
# WARMUP (1: one small discarded run of each first), RESULTS_DIR (bench/side-by-side/runs/<stamp>),
# AMQP_CLIENT_DIR (/tmp/qk-rabbit-client), QK_DATA (a fresh temp folder), QK_SERVICE_NODE_ARGS (node options
# for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
set -eu

ROOT=$(pwd)
HERE="$ROOT/bench/side-by-side"
AMQP_CLIENT_DIR=${AMQP_CLIENT_DIR:-/tmp/qk-rabbit-client}
AMQPLIB_VERSION=0.10.9

say() { echo "side-by-side: $*" >&2; }
die() {
  say "$*"
  exit 1
}

[ -f "$HERE/rabbit-bench.cjs" ] || die "run this from the repository's root (bench/side-by-side/rabbit-bench.cjs not found)"

setup() {
  [ "$(id -u)" = 0 ] || die "setup installs a Debian package and writes /etc/rabbitmq: run it as root"
  if ! command -v rabbitmq-server > /dev/null 2>&1; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y rabbitmq-server
  fi
  mkdir -p /etc/rabbitmq
  cp "$HERE/rabbitmq/rabbitmq.conf" "$HERE/rabbitmq/rabbitmq-env.conf" /etc/rabbitmq/
  if [ ! -f "$AMQP_CLIENT_DIR/node_modules/amqplib/package.json" ]; then
    mkdir -p "$AMQP_CLIENT_DIR"
    [ -f "$AMQP_CLIENT_DIR/package.json" ] || echo '{"name":"qk-rabbit-client","private":true}' > "$AMQP_CLIENT_DIR/package.json"
    (cd "$AMQP_CLIENT_DIR" && npm install --no-audit --no-fund "amqplib@$AMQPLIB_VERSION")
  fi
  say "ready: broker config in /etc/rabbitmq, amqplib $AMQPLIB_VERSION in $AMQP_CLIENT_DIR"
}

broker_pid() { pgrep -u rabbitmq beam.smp 2> /dev/null | head -n 1 || true; }

STARTED_BROKER=0
SERVICE_PID=
start_broker() {
  if [ -n "$(broker_pid)" ]; then
    say "using the running broker (pid $(broker_pid))"
    return
  fi
  command -v rabbitmq-server > /dev/null 2>&1 || die "no rabbitmq-server: run 'sh bench/side-by-side/run.sh setup' as root first"
  rabbitmq-server -detached
  STARTED_BROKER=1
  i=0
  until rabbitmqctl -q status > /dev/null 2>&1; do
    i=$((i + 1))
    [ "$i" -le 60 ] || die "the broker did not start within 60 s"
    sleep 1
  done
  say "broker started (pid $(broker_pid))"
}

check_loopback() {
  # Nothing of the broker may listen beyond loopback (rabbitmq/rabbitmq.conf and rabbitmq-env.conf).
  if ss -ltnp 2> /dev/null | grep -E 'beam|epmd' | awk '{print $4}' | grep -vE '^(127\.0\.0\.1|\[::1\]):' | grep -q .; then
    die "the broker listens beyond loopback: check /etc/rabbitmq (copy bench/side-by-side/rabbitmq/*.conf there)"
  fi
}

start_service() {
  QK_DATA=${QK_DATA:-$(mktemp -d "${TMPDIR:-/tmp}/qk-side-XXXXXX")}
  mkdir -p "$QK_DATA"
  LOGS="$QK_DATA/side-by-side-logs"
  mkdir -p "$LOGS"
  # shellcheck disable=SC2086
  node ${QK_SERVICE_NODE_ARGS:-} "$ROOT/bin/qk.mjs" service start --data "$QK_DATA" --name BENCH --listen 127.0.0.1:0 --json \
    > "$LOGS/service.log" 2>&1 &
  SERVICE_PID=$!
  i=0
  until grep -q '"ready"' "$LOGS/service.log" 2> /dev/null; do
    i=$((i + 1))
    [ "$i" -le 120 ] || die "the service did not start within 60 s (see $LOGS/service.log)"
    kill -0 "$SERVICE_PID" 2> /dev/null || die "the service exited (see $LOGS/service.log)"
    sleep 0.5
  done
  say "service started (pid $SERVICE_PID, data $QK_DATA)"
}

stop_all() {
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2> /dev/null; then
    kill -TERM "$SERVICE_PID"
    wait "$SERVICE_PID" 2> /dev/null || true
  fi
  if [ "$STARTED_BROKER" = 1 ]; then
    # By PID: the broker's Erlang VM and its port mapper, nothing else.
    for pid in $(broker_pid) $(pgrep -u rabbitmq epmd 2> /dev/null || true); do kill -TERM "$pid" 2> /dev/null || true; done
  fi
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

series() {
  [ -f "$ROOT/dist/bench/run.mjs" ] && [ -f "$ROOT/dist/cli/qk.mjs" ] || die "build first: npm run build:node"
  [ -f "$AMQP_CLIENT_DIR/node_modules/amqplib/package.json" ] || die "no amqplib in $AMQP_CLIENT_DIR: run 'sh bench/side-by-side/run.sh setup'"
  ROUNDS=${ROUNDS:-3}
  ARGS=${ARGS:-"50000 8 200"}
  STAMP=$(date -u +%Y%m%dT%H%M%SZ)
  RESULTS_DIR=${RESULTS_DIR:-$HERE/runs/$STAMP}
  mkdir -p "$RESULTS_DIR"
  LOAD="$RESULTS_DIR/loadavg-$STAMP.txt"
  trap stop_all EXIT INT TERM
  start_broker
  check_loopback
  start_service
  export BROKER_PID
  BROKER_PID=$(broker_pid)
  export NODE_PATH="$AMQP_CLIENT_DIR/node_modules"
  QK_RUN="node $ROOT/dist/bench/run.mjs --only workloads --attach $QK_DATA --out /dev/null"
  if [ "${WARMUP:-1}" = 1 ]; then
    say "warm-up (discarded)"
    timeout 300 node "$HERE/rabbit-bench.cjs" 2000 1 200 > /dev/null
    timeout 300 $QK_RUN --warm-up --workloads "2000 1 200" --workloads-out "$LOGS/warm-up.json" > "$LOGS/warm-up.log"
  fi
  i=1
  while [ "$i" -le "$ROUNDS" ]; do
    echo "$(date -u +%FT%TZ) rabbit run $i loadavg $(load)" | tee -a "$LOAD" >&2
    # shellcheck disable=SC2086
    timeout 900 node "$HERE/rabbit-bench.cjs" $ARGS > "$RESULTS_DIR/rabbit-$STAMP-$i.json"
    echo "$(date -u +%FT%TZ) qk run $i loadavg $(load)" | tee -a "$LOAD" >&2
    timeout 900 $QK_RUN --no-warm-up --workloads "$ARGS" --workloads-out "$RESULTS_DIR/qk-$STAMP-$i.json" > "$LOGS/qk-$STAMP-$i.log" || die "the Queuekeeper run failed: see $LOGS/qk-$STAMP-$i.log"
    i=$((i + 1))
  done
  echo "$(date -u +%FT%TZ) done loadavg $(load)" | tee -a "$LOAD" >&2
  node "$HERE/summarize.mjs" "$RESULTS_DIR"/rabbit-"$STAMP"-*.json "$RESULTS_DIR"/qk-"$STAMP"-*.json "$LOAD" > "$RESULTS_DIR/summary-$STAMP.md"
  say "tables in $RESULTS_DIR/summary-$STAMP.md"
  cat "$RESULTS_DIR/summary-$STAMP.md"
}

case "${1:-series}" in
  setup) setup ;;
  series) series ;;
  *) die "usage: sh bench/side-by-side/run.sh [setup|series]" ;;
esac
