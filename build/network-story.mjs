// `node build/network-story.mjs`: the ALPHA/BETA/RELAY story of docs/network.md, run for real. Three services on
// loopback (three data folders under a temp folder), each step printed with the `qk` command it runs, so an
// administrator can repeat it by hand. Run `npm run build` first. `--keep` leaves the folders for a look.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const qkBin = join(root, 'bin', 'qk.mjs');
const keep = process.argv.includes('--keep');
const base = mkdtempSync(join(tmpdir(), 'qk-network-story-'));
const services = new Map();

const say = (text) => process.stdout.write(`\n\x1b[1m${text}\x1b[0m\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs `qk --data <computer> …`, prints the command and its output, returns the --json value when asked. */
function qk(computer, args, { json = false, quiet = false } = {}) {
  const full = ['--data', join(base, computer), ...(json ? ['--json'] : []), ...args];
  if (!quiet)
    process.stdout.write(`$ qk --data ${computer} ${args.map((a) => (/[\\\s$*]/.test(a) ? `'${a}'` : a)).join(' ')}\n`);
  const run = spawnSync(process.execPath, [qkBin, ...full], { cwd: root, encoding: 'utf8' });
  if (!quiet) process.stdout.write(run.stdout.replace(/^/gm, '  '));
  if (run.status !== 0 && !json) process.stdout.write(run.stderr.replace(/^/gm, '  '));
  return json && run.status === 0 ? JSON.parse(run.stdout) : run.status;
}

async function start(name, extra = [], peerListen = '127.0.0.1:0') {
  const args = [
    'service',
    'start',
    '--data',
    join(base, name),
    '--name',
    name,
    '--peer-listen',
    peerListen,
    '--json',
    ...extra,
  ];
  process.stdout.write(
    `$ qk service start --data ${name} --name ${name} --peer-listen ${peerListen} ${extra.join(' ')} &\n`,
  );
  const child = spawn(process.execPath, [qkBin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = await new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.includes('"ready"'));
      if (line) resolve(JSON.parse(line));
    });
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  process.stdout.write(`  ready: peerAddress ${ready.peerAddress}, peerFingerprint ${ready.peerFingerprint}\n`);
  services.set(name, { child, ready });
  return ready;
}

async function stop(name) {
  const service = services.get(name);
  if (!service) return;
  qk(name, ['service', 'stop']);
  await new Promise((r) => (service.child.exitCode === null ? service.child.on('exit', r) : r()));
  services.delete(name);
}

function trust(a, b) {
  const rb = services.get(b).ready;
  qk(a, ['peer', 'add', b, rb.peerAddress, '--fingerprint', rb.peerFingerprint]);
}

async function until(what, probe, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (probe()) return true;
    await sleep(300);
  }
  process.stdout.write(`  (gave up waiting for ${what})\n`);
  return false;
}

try {
  say('1. Three computers, each with a peer listener; RELAY is a routing server');
  await start('ALPHA');
  await start('BETA');
  await start('RELAY', ['--routing']);

  say('2. Trust, both ways, by certificate fingerprint');
  for (const [a, b] of [
    ['ALPHA', 'BETA'],
    ['BETA', 'ALPHA'],
    ['ALPHA', 'RELAY'],
    ['RELAY', 'ALPHA'],
    ['BETA', 'RELAY'],
    ['RELAY', 'BETA'],
  ])
    trust(a, b);

  say('3. ALPHA sends to BETA\\private$\\orders (recoverable, source journal, full reach-queue acknowledgments)');
  qk('BETA', ['queue', 'create', '.\\private$\\orders']);
  qk('ALPHA', ['queue', 'create', '.\\private$\\admin']);
  qk('ALPHA', [
    'send',
    'BETA\\private$\\orders',
    '--body',
    'order 1',
    '--recoverable',
    '--journal',
    'journal',
    '--ack',
    'full-reach-queue',
    '--admin-queue',
    '.\\private$\\admin',
  ]);
  await until(
    'the order at BETA',
    () => qk('BETA', ['queue', 'show', '.\\private$\\orders'], { json: true, quiet: true })?.messageCount === 1,
  );
  qk('ALPHA', ['outgoing', 'list']);
  qk('BETA', ['messages', '.\\private$\\orders']);
  await until(
    'the ACK at ALPHA',
    () => qk('ALPHA', ['queue', 'show', '.\\private$\\admin'], { json: true, quiet: true })?.messageCount === 1,
  );
  qk('ALPHA', ['messages', '.\\private$\\admin']);
  qk('ALPHA', ['messages', '.\\JOURNAL$']);

  say('4. Through the routing server: ALPHA routes BETA via RELAY, BETA routes ALPHA via RELAY');
  qk('ALPHA', ['route', 'set', 'BETA', 'RELAY']);
  qk('BETA', ['route', 'set', 'ALPHA', 'RELAY']);
  qk('ALPHA', ['send', 'BETA\\private$\\orders', '--body', 'order 2 (via RELAY)', '--recoverable']);
  await until(
    'order 2 at BETA',
    () => qk('BETA', ['queue', 'show', '.\\private$\\orders'], { json: true, quiet: true })?.messageCount === 2,
  );
  qk('ALPHA', ['outgoing', 'list']);
  qk('RELAY', ['outgoing', 'list']);
  qk('BETA', ['messages', '.\\private$\\orders']);

  say("5. BETA stops: messages wait in ALPHA's outgoing queue; their time-to-reach-queue runs out there");
  const betaAddress = services.get('BETA').ready.peerAddress;
  await stop('BETA');
  qk('ALPHA', ['route', 'remove', 'BETA']);
  qk('ALPHA', [
    'send',
    'BETA\\private$\\orders',
    '--body',
    'order 3',
    '--recoverable',
    '--ttrq',
    '4',
    '--journal',
    'deadletter',
    '--ack',
    'nack-reach-queue',
    '--admin-queue',
    '.\\private$\\admin',
  ]);
  await sleep(1_500);
  qk('ALPHA', ['outgoing', 'list']);
  qk('ALPHA', ['peer', 'list']);
  await until(
    'the dead letter at ALPHA',
    () => qk('ALPHA', ['queue', 'show', '.\\DEADLETTER$'], { json: true, quiet: true })?.messageCount >= 1,
  );
  qk('ALPHA', ['messages', '.\\DEADLETTER$']);
  qk('ALPHA', ['messages', '.\\private$\\admin']);

  say('6. BETA comes back; Pause and Resume of an outgoing queue; offline mode');
  // The same peer address as before: its peers know BETA by it.
  await start('BETA', [], betaAddress);
  qk('ALPHA', ['outgoing', 'pause', 'DIRECT=OS:BETA\\private$\\orders']);
  qk('ALPHA', ['send', 'BETA\\private$\\orders', '--body', 'order 4 (held)', '--recoverable']);
  await sleep(1_500);
  qk('ALPHA', ['outgoing', 'list']);
  qk('ALPHA', ['outgoing', 'resume', 'DIRECT=OS:BETA\\private$\\orders']);
  await until(
    'order 4 at BETA',
    () => qk('BETA', ['queue', 'show', '.\\private$\\orders'], { json: true, quiet: true })?.messageCount === 3,
  );
  qk('ALPHA', ['service', 'disconnect']);
  qk('ALPHA', ['service', 'connect']);
  qk('BETA', ['messages', '.\\private$\\orders']);
  say(`Done. ${keep ? `The data folders are in ${base}.` : 'Stopping the three services.'}`);
} catch (error) {
  process.stderr.write(`network story failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  for (const name of [...services.keys()]) await stop(name);
  if (!keep) rmSync(base, { recursive: true, force: true });
}
