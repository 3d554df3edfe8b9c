// The RabbitMQ side of the side-by-side comparison (bench/README.md, "Side by side with RabbitMQ"): the workloads
// that bench/lib/workloads runs against Queuekeeper, against RabbitMQ through amqplib. Kept as it was when the
// targets of the performance issue were set, so that figures compare across runs; amqplib is installed outside the
// repository (run.sh puts it on NODE_PATH).
// RabbitMQ anchor via amqplib, loopback only.
// Every publish phase stops at MAX_MSGS or MAX_SECS (whichever first); every
// consume phase drains what its publish phase left, bounded by MAX_SECS * 3.
//
// Usage: node rabbit-bench.js [maxMsgs] [maxSecsPerPhase] [bodyBytes]
// Env:   AMQP_PORT (default 5672; the host is always 127.0.0.1)
//        BROKER_PID (optional: broker OS pid, to report its RSS and CPU time)
'use strict';
const os = require('os');
const { execFileSync } = require('child_process');
const amqp = require('amqplib');

const MAX_MSGS = Number(process.argv[2] || 50000);
const MAX_SECS = Number(process.argv[3] || 8);
const BODY = Number(process.argv[4] || 200);
const PORT = Number(process.env.AMQP_PORT || 5672);
const BROKER_URL = `amqp://guest:guest@127.0.0.1:${PORT}`; // loopback only, by design
const BROKER_PID = process.env.BROKER_PID ? Number(process.env.BROKER_PID) : null;

const now = () => process.hrtime.bigint();
const us = (a, b) => Number(b - a) / 1000;
function pct(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
function latSummary(lat) {
  lat.sort((a, b) => a - b);
  return {
    p50_us: Math.round(pct(lat, 50)),
    p99_us: Math.round(pct(lat, 99)),
    max_us: Math.round(lat[lat.length - 1] || 0),
  };
}

// Broker RSS and CPU time, sampled with the standard `ps` and `top` tools
// (procps). RSS in MB; CPU as the TIME+ column (hundredths of a second).
function brokerStats() {
  if (!BROKER_PID) return null;
  try {
    const rssKb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(BROKER_PID)], { encoding: 'utf8' }).trim());
    const top = execFileSync('top', ['-b', '-n', '1', '-p', String(BROKER_PID)], { encoding: 'utf8' });
    const line = top.split('\n').find((l) => l.trim().startsWith(String(BROKER_PID) + ' '));
    const m = line && line.match(/(\d+):(\d+)\.(\d+)\s+\S+\s*$/); // TIME+ mm:ss.hh before COMMAND
    const cpuS = m ? Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 100 : NaN;
    return { rss_mb: Math.round(rssKb / 1024), cpu_s: cpuS };
  } catch {
    return null;
  }
}

function makeBody(i, size) {
  const b = Buffer.alloc(size, 0x63);
  b.writeBigUInt64LE(now(), 0); // send timestamp for end-to-end latency
  b.writeUInt32LE(i, 8);
  return b;
}

// Publish with publisher confirms keeping at most `window` unconfirmed.
// window = 1 means "wait for each confirm before the next publish".
function publishConfirmed(ch, queue, window, persistent) {
  return new Promise((resolve, reject) => {
    const lat = [];
    const t0 = now();
    const deadline = t0 + BigInt(Math.round(MAX_SECS * 1e9));
    let sent = 0,
      confirmed = 0,
      inflight = 0,
      done = false,
      waitingDrain = false;
    const finish = () => {
      if (done) return;
      done = true;
      const secs = us(t0, now()) / 1e6;
      resolve({
        msgs: confirmed,
        seconds: +secs.toFixed(3),
        msgs_per_s: Math.round(confirmed / secs),
        confirm_latency: latSummary(lat),
      });
    };
    const pump = () => {
      while (!done && inflight < window && sent < MAX_MSGS && now() < deadline) {
        const t = now();
        inflight++;
        sent++;
        const ok = ch.sendToQueue(queue, makeBody(sent, BODY), { persistent }, (err) => {
          if (err) {
            done = true;
            reject(err);
            return;
          }
          lat.push(us(t, now()));
          inflight--;
          confirmed++;
          if (confirmed === sent && (sent >= MAX_MSGS || now() >= deadline)) finish();
          else if (!waitingDrain) pump();
        });
        if (!ok) {
          waitingDrain = true;
          ch.once('drain', () => {
            waitingDrain = false;
            pump();
          });
          return;
        }
      }
      if (inflight === 0 && confirmed === sent) finish();
    };
    pump();
  });
}

// Publish without confirms (fire and forget), honouring socket back-pressure.
async function publishUnconfirmed(ch, queue, persistent) {
  const t0 = now();
  const deadline = t0 + BigInt(Math.round(MAX_SECS * 1e9));
  let sent = 0;
  while (sent < MAX_MSGS && now() < deadline) {
    sent++;
    if (!ch.sendToQueue(queue, makeBody(sent, BODY), { persistent })) {
      await new Promise((r) => ch.once('drain', r));
    }
  }
  const handoffSecs = us(t0, now()) / 1e6;
  // No acknowledgement exists, so count a message as enqueued once the queue
  // depth shows it: poll the depth (bounded) until every sent message is there.
  const pollDeadline = now() + BigInt(Math.round(MAX_SECS * 1e9));
  let depth = 0;
  while (now() < pollDeadline) {
    depth = (await ch.checkQueue(queue)).messageCount;
    if (depth >= sent) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const secs = us(t0, now()) / 1e6;
  return {
    msgs: sent,
    seconds: +secs.toFixed(3),
    msgs_per_s: Math.round(sent / secs),
    socket_handoff_msgs_per_s: Math.round(sent / handoffSecs),
    depth_seen: depth,
    note: 'msgs_per_s = sent / time until queue depth reached sent (5 ms polling)',
  };
}

// Consume `expected` messages with manual ack (one basic.ack per message).
async function consume(conn, queue, expected, prefetch) {
  const ch = await conn.createChannel();
  await ch.prefetch(prefetch);
  const e2e = [];
  let n = 0;
  const t0 = now();
  const result = await new Promise((resolve, reject) => {
    let done = false;
    const finish = (why) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const secs = us(t0, now()) / 1e6;
      resolve({ msgs: n, seconds: +secs.toFixed(3), msgs_per_s: Math.round(n / secs), stopped_by: why, e2e });
    };
    const timer = setTimeout(() => finish('time-cap'), MAX_SECS * 3 * 1000);
    if (expected === 0) {
      finish('nothing-to-consume');
      return;
    }
    ch.consume(
      queue,
      (msg) => {
        if (!msg || done) return;
        const sentAt = msg.content.readBigUInt64LE(0);
        e2e.push(us(sentAt, now()));
        ch.ack(msg);
        n++;
        if (n >= expected) finish('drained');
      },
      { noAck: false },
    ).then(() => undefined, reject);
  });
  await ch.close();
  return result;
}

// Producer (window 100, confirms) and consumer (prefetch 100, manual ack) at
// the same time on separate connections; e2e latency = send -> consumer callback.
async function concurrent(queueName, declare, persistent, window, prefetch) {
  const pconn = await amqp.connect(BROKER_URL);
  const cconn = await amqp.connect(BROKER_URL);
  const pch = await pconn.createConfirmChannel();
  await declare(pch, queueName);
  await pch.purgeQueue(queueName);
  const cch = await cconn.createChannel();
  await cch.prefetch(prefetch);
  const e2e = [];
  let got = 0;
  let resolveDrain;
  const drained = new Promise((r) => {
    resolveDrain = r;
  });
  let target = Infinity;
  await cch.consume(
    queueName,
    (msg) => {
      if (!msg) return;
      e2e.push(us(msg.content.readBigUInt64LE(0), now()));
      cch.ack(msg);
      got++;
      if (got >= target) resolveDrain();
    },
    { noAck: false },
  );
  const t0 = now();
  const pub = await publishConfirmed(pch, queueName, window, persistent);
  target = pub.msgs;
  if (got >= target) resolveDrain();
  let capTimer;
  await Promise.race([
    drained,
    new Promise((r) => {
      capTimer = setTimeout(r, MAX_SECS * 3 * 1000);
    }),
  ]);
  clearTimeout(capTimer);
  const secs = us(t0, now()) / 1e6;
  await cch.close();
  await pch.deleteQueue(queueName);
  await pch.close();
  await pconn.close();
  await cconn.close();
  return {
    published: pub,
    consumed: got,
    seconds: +secs.toFixed(3),
    end_to_end_msgs_per_s: Math.round(got / secs),
    e2e_latency: latSummary(e2e),
  };
}

// Open-loop latency: publish at a fixed rate (1 ms timer ticks) with confirms,
// consumer on its own connection (prefetch 100, manual ack). Latencies are
// measured from the actual send; send_lag reports how far sends fell behind
// the open-loop schedule (large lag = generator or broker could not keep the
// rate, i.e. the latency figures would understate). Bounded by MAX_SECS and MAX_MSGS.
async function fixedRate(queueName, declare, persistent, ratePerSec) {
  const pconn = await amqp.connect(BROKER_URL);
  const cconn = await amqp.connect(BROKER_URL);
  const pch = await pconn.createConfirmChannel();
  await declare(pch, queueName);
  await pch.purgeQueue(queueName);
  const cch = await cconn.createChannel();
  await cch.prefetch(100);
  const e2e = [];
  const confirmLat = [];
  const lag = []; // how late each send was against its open-loop schedule
  let got = 0;
  await cch.consume(
    queueName,
    (msg) => {
      if (!msg) return;
      e2e.push(us(msg.content.readBigUInt64LE(0), now()));
      cch.ack(msg);
      got++;
    },
    { noAck: false },
  );
  const total = Math.min(MAX_MSGS, Math.round(ratePerSec * MAX_SECS));
  const tickMs = 1;
  const t0 = now();
  let sent = 0,
    confirmed = 0,
    due = 0;
  await new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const elapsedMs = us(t0, now()) / 1000;
      due = Math.min(total, Math.floor((elapsedMs / 1000) * ratePerSec) + 1); // messages whose scheduled time has come
      while (sent < due) {
        // scheduled send time for message #sent (open-loop schedule)
        const sched = t0 + BigInt(Math.round((sent / ratePerSec) * 1e9));
        const b = Buffer.alloc(BODY, 0x63);
        const sentAt = now();
        lag.push(us(sched, sentAt));
        b.writeBigUInt64LE(sentAt, 0);
        sent++;
        pch.sendToQueue(queueName, b, { persistent }, (err) => {
          if (err) {
            clearInterval(timer);
            reject(err);
            return;
          }
          confirmLat.push(us(sentAt, now()));
          confirmed++;
        });
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, tickMs);
  });
  const drainDeadline = now() + BigInt(Math.round(MAX_SECS * 1e9));
  while ((got < sent || confirmed < sent) && now() < drainDeadline) await new Promise((r) => setTimeout(r, 10));
  const secs = us(t0, now()) / 1e6;
  await cch.close();
  await pch.deleteQueue(queueName);
  await pch.close();
  await pconn.close();
  await cconn.close();
  return {
    target_rate: ratePerSec,
    sent,
    confirmed,
    consumed: got,
    seconds: +secs.toFixed(3),
    confirm_latency: latSummary(confirmLat),
    e2e_latency: latSummary(e2e),
    send_lag: latSummary(lag),
  };
}

const declareClassicDurable = (ch, q) => ch.assertQueue(q, { durable: true, arguments: { 'x-queue-type': 'classic' } });
const declareClassicTransient = (ch, q) =>
  ch.assertQueue(q, { durable: false, arguments: { 'x-queue-type': 'classic' } });
const declareQuorum = (ch, q) => ch.assertQueue(q, { durable: true, arguments: { 'x-queue-type': 'quorum' } });

async function runCase(label, queueName, declare, mode, persistent) {
  const conn = await amqp.connect(BROKER_URL);
  const ch = mode === 'no-confirm' ? await conn.createChannel() : await conn.createConfirmChannel();
  await declare(ch, queueName);
  await ch.purgeQueue(queueName);
  const b0 = brokerStats();
  const c0 = process.cpuUsage();
  let publish;
  if (mode === 'confirm-each') publish = await publishConfirmed(ch, queueName, 1, persistent);
  else if (mode === 'confirm-window-100') publish = await publishConfirmed(ch, queueName, 100, persistent);
  else publish = await publishUnconfirmed(ch, queueName, persistent);
  const b1 = brokerStats();
  const depth = (await ch.checkQueue(queueName)).messageCount;
  const cons = await consume(conn, queueName, publish.msgs, 100);
  const b2 = brokerStats();
  const c1 = process.cpuUsage(c0);
  await ch.deleteQueue(queueName);
  await ch.close();
  await conn.close();
  const consumeOut = {
    msgs: cons.msgs,
    seconds: cons.seconds,
    msgs_per_s: cons.msgs_per_s,
    stopped_by: cons.stopped_by,
    queue_depth_before: depth,
  };
  return {
    label,
    mode,
    persistent,
    publish,
    consume: consumeOut,
    broker:
      b0 && b1 && b2
        ? {
            rss_mb_after_publish: b1.rss_mb,
            rss_mb_after_consume: b2.rss_mb,
            cpu_s_publish: +(b1.cpu_s - b0.cpu_s).toFixed(2),
            cpu_s_consume: +(b2.cpu_s - b1.cpu_s).toFixed(2),
          }
        : null,
    client_cpu_s: +((c1.user + c1.system) / 1e6).toFixed(2),
    client_rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  };
}

async function main() {
  const loadavgAtStart = os.loadavg().map((x) => +x.toFixed(2));
  const results = [];
  const Q = 'bench.q';
  results.push(
    await runCase('classic-durable-persistent-confirm-each', Q + '.cd1', declareClassicDurable, 'confirm-each', true),
  );
  results.push(
    await runCase(
      'classic-durable-persistent-confirm-window-100',
      Q + '.cd100',
      declareClassicDurable,
      'confirm-window-100',
      true,
    ),
  );
  results.push(
    await runCase(
      'classic-transient-nonpersistent-confirm-each',
      Q + '.ct1',
      declareClassicTransient,
      'confirm-each',
      false,
    ),
  );
  results.push(
    await runCase(
      'classic-transient-nonpersistent-confirm-window-100',
      Q + '.ct100',
      declareClassicTransient,
      'confirm-window-100',
      false,
    ),
  );
  results.push(
    await runCase(
      'classic-transient-nonpersistent-no-confirm',
      Q + '.ctnc',
      declareClassicTransient,
      'no-confirm',
      false,
    ),
  );
  results.push(await runCase('quorum-persistent-confirm-each', Q + '.qq1', declareQuorum, 'confirm-each', true));
  results.push(
    await runCase('quorum-persistent-confirm-window-100', Q + '.qq100', declareQuorum, 'confirm-window-100', true),
  );
  const conc = [];
  conc.push({
    label: 'concurrent-classic-durable-persistent-w100-p100',
    ...(await concurrent(Q + '.cc', declareClassicDurable, true, 100, 100)),
  });
  conc.push({
    label: 'concurrent-quorum-persistent-w100-p100',
    ...(await concurrent(Q + '.cq', declareQuorum, true, 100, 100)),
  });
  const rate = [];
  for (const r of [1000, 5000]) {
    rate.push({
      label: `fixed-rate-${r}-classic-durable-persistent`,
      ...(await fixedRate(Q + '.fc', declareClassicDurable, true, r)),
    });
    rate.push({ label: `fixed-rate-${r}-quorum-persistent`, ...(await fixedRate(Q + '.fq', declareQuorum, true, r)) });
  }
  console.log(
    JSON.stringify(
      {
        bench: 'rabbitmq-amqplib',
        loadavg_at_start: loadavgAtStart,
        loadavg_at_end: os.loadavg().map((x) => +x.toFixed(2)),
        body_bytes: BODY,
        max_msgs_per_phase: MAX_MSGS,
        max_seconds_per_phase: MAX_SECS,
        amqplib: require('amqplib/package.json').version,
        node: process.version,
        nproc: os.cpus().length,
        date: new Date().toISOString(),
        consumer: 'manual ack per message, prefetch 100',
        results,
        concurrent: conc,
        fixed_rate: rate,
      },
      null,
      2,
    ),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
