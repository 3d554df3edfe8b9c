// Side-by-side tables of RabbitMQ (rabbit-bench.cjs) and Queuekeeper (`node dist/bench/run.mjs --only workloads`)
// runs: medians (min–max) of each measure, the ratio Queuekeeper ÷ RabbitMQ, the targets of the performance
// issue with whether each is met, and the per-round ratios. Reads the JSON files named on the command line.
//
// Usage: node bench/side-by-side/summarize.mjs DIR/rabbit-*.json DIR/qk-*.json [DIR/loadavg-*.txt]
import { readFileSync } from 'node:fs';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node bench/side-by-side/summarize.mjs rabbit-*.json qk-*.json [loadavg-*.txt]');
  process.exit(2);
}
const docs = files.filter((f) => f.endsWith('.json')).map((f) => ({ file: f, ...JSON.parse(readFileSync(f, 'utf8')) }));
const loadFiles = files.filter((f) => f.endsWith('.txt'));
const rmq = docs.filter((d) => d.bench === 'rabbitmq-amqplib');
const qk = docs.filter((d) => d.bench === 'queuekeeper-ws');
const byRun = (a, b) => a.file.localeCompare(b.file, 'en', { numeric: true });
rmq.sort(byRun);
qk.sort(byRun);

const median = (xs) => {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : NaN;
};
const fmt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const fmtRatio = (r) =>
  Number.isFinite(r) ? `${r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(2) : r.toPrecision(2)}×` : '–';
const cell = (vs) => (vs.length ? `${fmt(median(vs))} (${fmt(Math.min(...vs))}–${fmt(Math.max(...vs))})` : '–');

/** Values of `fn` over the entries labelled `label` in `section` of each document. */
function values(ds, section, label, fn) {
  return ds
    .flatMap((d) => (d[section] || []).filter((x) => x.label === label))
    .map((x) => {
      try {
        return fn(x);
      } catch {
        return NaN;
      }
    })
    .filter(Number.isFinite);
}

// Measures, by where they are in a document.
const pubRate = (x) => x.publish.msgs_per_s;
const p50 = (x) => (x.publish.confirm_latency || x.publish.batch_latency).p50_us;
const p99 = (x) => (x.publish.confirm_latency || x.publish.batch_latency).p99_us;
const drain = (x) => x.consume.msgs_per_s;
const e2eRate = (x) => x.end_to_end_msgs_per_s;
const e2eP50 = (x) => x.e2e_latency.p50_us;
const e2eP99 = (x) => x.e2e_latency.p99_us;
const missing = (x) => x.sent - x.consumed;
const rssPublish = (x) => x.broker.rss_mb_after_publish;
const rssDrain = (x) => x.broker.rss_mb_after_consume;

const R1 = 'classic-durable-persistent-confirm-each';
const R100 = 'classic-durable-persistent-confirm-window-100';
const RNC = 'classic-transient-nonpersistent-no-confirm';
const RT100 = 'classic-transient-nonpersistent-confirm-window-100';
const RT1 = 'classic-transient-nonpersistent-confirm-each';
const CC = 'concurrent-classic-durable-persistent-w100-p100';
const fixedR = (r) => `fixed-rate-${r}-classic-durable-persistent`;

function table(title, rows) {
  const lines = rows
    .map(([what, section, rLabel, qLabel, fn]) => {
      const a = values(rmq, section, rLabel, fn);
      const b = values(qk, section, qLabel, fn);
      if (!b.length) return null;
      return `| ${what} | ${cell(a)} | ${cell(b)} | ${a.length && b.length ? fmtRatio(median(b) / median(a)) : '–'} |`;
    })
    .filter(Boolean);
  if (!lines.length) return;
  console.log(`#### ${title}\n`);
  console.log('| measure | RabbitMQ median (min–max) | Queuekeeper median (min–max) | QK/RMQ |');
  console.log('|---|---:|---:|---:|');
  for (const line of lines) console.log(line);
  console.log('');
}

const QK_CONSUMERS = [
  ['receive100', 'single receive, 100 in flight'],
  ['receiveBatch100', 'receiveBatch max 100, one call at a time'],
  ['stream100', 'streaming receive, credit 100'],
];

function sideBySide() {
  console.log(`### Side by side: RabbitMQ ${rmq.length} run(s), Queuekeeper ${qk.length} run(s)\n`);
  console.log(
    'Ratio = Queuekeeper median ÷ RabbitMQ median. msg/s: above 1× Queuekeeper is faster. Latency (µs) and RSS: above 1× Queuekeeper is slower / uses more.\n',
  );
  table(
    'W1 durable, one message at a time (RabbitMQ: wait for each confirm; Queuekeeper: recoverable send, wait for each reply)',
    [
      ['publish msg/s', 'results', R1, 'recoverable-send-each', pubRate],
      ['confirm / reply latency p50 µs', 'results', R1, 'recoverable-send-each', p50],
      ['confirm / reply latency p99 µs', 'results', R1, 'recoverable-send-each', p99],
    ],
  );
  table(
    'W2 durable, 100 in flight (RabbitMQ: 100 unconfirmed; Queuekeeper: 100 sends unanswered, and sendBatch of 100 one call at a time)',
    [
      ['publish msg/s, 100 single sends in flight', 'results', R100, 'recoverable-send-window-100', pubRate],
      ['confirm / reply latency p50 µs', 'results', R100, 'recoverable-send-window-100', p50],
      ['confirm / reply latency p99 µs', 'results', R100, 'recoverable-send-window-100', p99],
      ['publish msg/s, QK sendBatch of 100 (vs RMQ window 100)', 'results', R100, 'recoverable-sendBatch-100', pubRate],
      ['QK batch reply latency p50 µs (vs RMQ per-message confirm)', 'results', R100, 'recoverable-sendBatch-100', p50],
      ['QK batch reply latency p99 µs (vs RMQ per-message confirm)', 'results', R100, 'recoverable-sendBatch-100', p99],
    ],
  );
  table(
    'W3 durable drain (RabbitMQ: consumer, prefetch 100, manual ack per message; Queuekeeper: method named per row)',
    [
      ['drain msg/s after W2 — QK streaming receive, credit 100', 'results', R100, 'recoverable-stream-drain', drain],
      [
        'drain msg/s after W2 — QK single receive, 100 in flight',
        'results',
        R100,
        'recoverable-send-window-100',
        drain,
      ],
      [
        'drain msg/s after W2 — QK receiveBatch max 100, one call at a time',
        'results',
        R100,
        'recoverable-sendBatch-100',
        drain,
      ],
      [
        'drain msg/s after W1 (fewer messages) — QK single receive, 100 in flight',
        'results',
        R1,
        'recoverable-send-each',
        drain,
      ],
    ],
  );
  table(
    'W4 durable producer (100 in flight) + consumer at once',
    QK_CONSUMERS.flatMap(([suffix, what]) => [
      [`end-to-end msg/s — QK consumer: ${what}`, 'concurrent', CC, `concurrent-recoverable-w100-${suffix}`, e2eRate],
      [`e2e latency p50 µs — QK consumer: ${what}`, 'concurrent', CC, `concurrent-recoverable-w100-${suffix}`, e2eP50],
      [`e2e latency p99 µs — QK consumer: ${what}`, 'concurrent', CC, `concurrent-recoverable-w100-${suffix}`, e2eP99],
    ]),
  );
  table('W5 non-durable (RabbitMQ: non-persistent → transient classic; Queuekeeper: express)', [
    [
      'publish msg/s, no confirms (QK: replies not awaited); counted by queue depth',
      'results',
      RNC,
      'express-send-no-wait',
      pubRate,
    ],
    ['publish msg/s, 100 in flight', 'results', RT100, 'express-send-window-100', pubRate],
    ['confirm / reply latency p50 µs, 100 in flight', 'results', RT100, 'express-send-window-100', p50],
    ['confirm / reply latency p99 µs, 100 in flight', 'results', RT100, 'express-send-window-100', p99],
    ['publish msg/s, one at a time', 'results', RT1, 'express-send-each', pubRate],
    ['confirm / reply latency p50 µs, one at a time', 'results', RT1, 'express-send-each', p50],
    ['confirm / reply latency p99 µs, one at a time', 'results', RT1, 'express-send-each', p99],
    ['drain msg/s after no-confirm (QK single receive, 100 in flight)', 'results', RNC, 'express-send-no-wait', drain],
    [
      'drain msg/s after window 100 (QK single receive, 100 in flight)',
      'results',
      RT100,
      'express-send-window-100',
      drain,
    ],
    ['drain msg/s after no-confirm — QK streaming receive, credit 100', 'results', RNC, 'express-stream-drain', drain],
  ]);
  table(
    'W6 open loop, durable, fixed rate (consumer as named)',
    [1000, 5000].flatMap((r) =>
      QK_CONSUMERS.flatMap(([suffix, what]) => {
        const q = `fixed-rate-${r}-recoverable-${suffix}`;
        const at = r.toLocaleString('en-US');
        return [
          [`${at}/s confirm / reply p50 µs — QK ${what}`, 'fixed_rate', fixedR(r), q, (x) => x.confirm_latency.p50_us],
          [`${at}/s confirm / reply p99 µs — QK ${what}`, 'fixed_rate', fixedR(r), q, (x) => x.confirm_latency.p99_us],
          [`${at}/s e2e p50 µs — QK ${what}`, 'fixed_rate', fixedR(r), q, e2eP50],
          [`${at}/s e2e p99 µs — QK ${what}`, 'fixed_rate', fixedR(r), q, e2eP99],
        ];
      }),
    ),
  );
  table(
    'Memory: broker / service RSS MB after each case (RabbitMQ: beam.smp; Queuekeeper: the service process)',
    [
      [R1, 'recoverable-send-each'],
      [R100, 'recoverable-send-window-100'],
      [R100, 'recoverable-sendBatch-100'],
      [RT1, 'express-send-each'],
      [RT100, 'express-send-window-100'],
      [RNC, 'express-send-no-wait'],
    ].flatMap(([rl, ql]) => [
      [`after publish: ${ql}`, 'results', rl, ql, rssPublish],
      [`after drain: ${ql}`, 'results', rl, ql, rssDrain],
    ]),
  );
}

// ── the targets of the performance issue ─────────────────────────────────────────────────────────────────
/** A ratio target: QK/RMQ of the medians must be ≥ (throughput) or ≤ (latency, memory) `bound`. */
function ratioCheck(section, rLabel, qLabel, fn, op, bound) {
  const a = values(rmq, section, rLabel, fn);
  const b = values(qk, section, qLabel, fn);
  const ratio = a.length && b.length ? median(b) / median(a) : NaN;
  const met = Number.isFinite(ratio) && (op === '>=' ? ratio >= bound : ratio <= bound);
  return { ratio, met, text: `${fmtRatio(ratio)} (${op === '>=' ? '≥' : '≤'} ${bound}×)` };
}

function targets() {
  const rows = [];
  const add = (workload, target, checks) => {
    if (checks.some((c) => !Number.isFinite(c.ratio))) return;
    rows.push(
      `| ${workload} | ${target} | ${checks.map((c) => c.text).join('; ')} | ${checks.every((c) => c.met) ? 'yes' : '**no**'} |`,
    );
  };
  const stream = (s) => `concurrent-recoverable-w100-${s}`;
  add('W3 drain, streaming receive', '≥ 2× RabbitMQ consumer (prefetch 100, manual ack)', [
    ratioCheck('results', R100, 'recoverable-stream-drain', drain, '>=', 2),
  ]);
  add('W3 drain, 100 single receives in flight', '≥ 1×', [
    ratioCheck('results', R100, 'recoverable-send-window-100', drain, '>=', 1),
  ]);
  for (const [suffix, what] of QK_CONSUMERS) {
    add(`W4 producer + consumer, end-to-end msg/s (${what})`, '≥ 2×, e2e p99 ≤ RabbitMQ’s', [
      ratioCheck('concurrent', CC, stream(suffix), e2eRate, '>=', 2),
      ratioCheck('concurrent', CC, stream(suffix), e2eP99, '<=', 1),
    ]);
  }
  for (const r of [1000, 5000]) {
    for (const [suffix, what] of QK_CONSUMERS) {
      const q = `fixed-rate-${r}-recoverable-${suffix}`;
      const left = values(qk, 'fixed_rate', q, missing);
      if (!left.length) continue;
      const all = { ratio: 0, met: left.every((n) => n === 0), text: `unconsumed ${left.join(', ')}` };
      add(`W6 ${r.toLocaleString('en-US')} msg/s, e2e p99 (${what})`, '≤ RabbitMQ’s; every message consumed', [
        ratioCheck('fixed_rate', fixedR(r), q, e2eP99, '<=', 1),
        all,
      ]);
    }
  }
  add('W5 express, no waiting', '≥ 2× RabbitMQ transient without confirms', [
    ratioCheck('results', RNC, 'express-send-no-wait', pubRate, '>=', 2),
  ]);
  add('W1 durable, one at a time', '≥ 2×', [ratioCheck('results', R1, 'recoverable-send-each', pubRate, '>=', 2)]);
  add('W2 durable, 100 in flight', '≥ 2×', [
    ratioCheck('results', R100, 'recoverable-send-window-100', pubRate, '>=', 2),
  ]);
  add('W2 sendBatch of 100', '≥ 2×', [ratioCheck('results', R100, 'recoverable-sendBatch-100', pubRate, '>=', 2)]);
  const memory = [
    [R1, 'recoverable-send-each'],
    [R100, 'recoverable-send-window-100'],
    [RNC, 'express-send-no-wait'],
  ].flatMap(([rl, ql]) => [
    ratioCheck('results', rl, ql, rssPublish, '<=', 1),
    ratioCheck('results', rl, ql, rssDrain, '<=', 1),
  ]);
  add('memory after each case (publish and drain of W1, W2, W5)', '≤ RabbitMQ’s', memory);
  if (!rows.length) return;
  console.log('### Targets (ratios of medians, Queuekeeper ÷ RabbitMQ)\n');
  console.log('| workload | target | ratio | met? |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log('');
}

/** QK/RMQ of the same round (A then B, minutes apart), to show how stable each ratio is. */
function perRound() {
  const rounds = Math.min(rmq.length, qk.length);
  if (rounds < 2) return;
  const ratioIn = (i, section, rLabel, qLabel, fn) => {
    const a = values([rmq[i]], section, rLabel, fn);
    const b = values([qk[i]], section, qLabel, fn);
    return a.length && b.length ? (b[0] / a[0]).toFixed(2) : '–';
  };
  const rows = [
    ['W1 publish msg/s', 'results', R1, 'recoverable-send-each', pubRate],
    ['W2 publish, 100 in flight', 'results', R100, 'recoverable-send-window-100', pubRate],
    ['W2 sendBatch 100 (vs window 100)', 'results', R100, 'recoverable-sendBatch-100', pubRate],
    ['W3 drain, streaming receive', 'results', R100, 'recoverable-stream-drain', drain],
    ['W3 drain, single receive ×100', 'results', R100, 'recoverable-send-window-100', drain],
    ['W3 drain, receiveBatch 100', 'results', R100, 'recoverable-sendBatch-100', drain],
    ...QK_CONSUMERS.map(([s, what]) => [
      `W4 end-to-end msg/s, ${what}`,
      'concurrent',
      CC,
      `concurrent-recoverable-w100-${s}`,
      e2eRate,
    ]),
    ['W5 no confirms / replies not awaited', 'results', RNC, 'express-send-no-wait', pubRate],
    ['W5 100 in flight', 'results', RT100, 'express-send-window-100', pubRate],
    ['W5 one at a time', 'results', RT1, 'express-send-each', pubRate],
  ].filter(([, section, , qLabel, fn]) => values(qk, section, qLabel, fn).length > 0);
  console.log('### QK/RMQ per round\n');
  console.log(`| workload | ${Array.from({ length: rounds }, (_, i) => `round ${i + 1}`).join(' | ')} |`);
  console.log(`|---|${Array.from({ length: rounds }, () => '---:').join('|')}|`);
  for (const [what, ...rest] of rows) {
    console.log(`| ${what} | ${Array.from({ length: rounds }, (_, i) => ratioIn(i, ...rest)).join(' | ')} |`);
  }
  console.log('');
}

function machine() {
  const first = qk[0] || rmq[0];
  if (!first) return;
  console.log(
    `Node ${first.node}, ${first.nproc} cores; Queuekeeper commit ${qk[0]?.qk_commit ?? '?'}${qk[0]?.qk_core_dirty ? ' (core/ dirty)' : ''}; amqplib ${rmq[0]?.amqplib ?? '?'}.\n`,
  );
  for (const file of loadFiles) {
    console.log(`Load average (1/5/15 min) before each run, from ${file.split('/').pop()}:\n`);
    console.log('```');
    console.log(readFileSync(file, 'utf8').trim());
    console.log('```\n');
  }
}

machine();
targets();
sideBySide();
perRound();
