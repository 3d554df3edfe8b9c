/**
 * Runs the real Queuekeeper service as a child process on a temporary data folder and drives it only
 * through `qk --json`, as CLI.md promises scripts may. One harness per test file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessSlots } from './process-slots.js';
import type { QkReady } from './qk-types.js';

/** The repository root (test/helpers/ is two levels down). */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The `qk` entry script: bin/qk.mjs, or QK_CLI (e.g. a snapshot of dist/cli while others rebuild dist/). */
export const qkBin = process.env['QK_CLI'] ?? join(repoRoot, 'bin', 'qk.mjs');

const READY_TIMEOUT_MS = 30_000;

/**
 * `qk` processes of this test worker that may run at once (QK_PARALLEL_QK, default 3). Commands that wait
 * on purpose (`--timeout`) do not take a slot, so a waiting receive never holds up the send it waits for.
 */
const slots = new ProcessSlots(Number(process.env['QK_PARALLEL_QK'] ?? 3));
const STOP_TIMEOUT_MS = 15_000;

/** What one `qk` invocation left behind: exit code, parsed JSON (stdout on success, stderr on failure). */
export interface QkResult<T = unknown> {
  exitCode: number;
  /** stdout JSON when exitCode is 0, the stderr `{"error":…}` document otherwise; null when unparsable. */
  json: T;
  stdout: string;
  stderr: string;
  /** The command line, for failure messages. */
  command: string;
  elapsedMs: number;
}

interface RawRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/**
 * The command line that runs node with `args`: inside a network namespace (`ip netns exec NS …`) when one is
 * given, so a computer of a network-namespace test and the `qk` that talks to it share its loopback.
 */
export function nodeCommand(args: string[], netns?: string): [string, string[]] {
  return netns ? ['ip', ['netns', 'exec', netns, process.execPath, ...args]] : [process.execPath, args];
}

function runNode(args: string[], timeoutMs: number, netns?: string): Promise<RawRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = nodeCommand([qkBin, ...args], netns);
    const child = spawn(command, commandArgs, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? (signal ? 128 : -1), stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.length === 0) return null;
  try {
    return JSON.parse(trimmed);
  } catch {
    // Some output may precede the document (warnings); the contract's document is the last line.
    const last = trimmed.split('\n').pop() ?? '';
    try {
      return JSON.parse(last);
    } catch {
      return null;
    }
  }
}

function quote(arg: string): string {
  return /^[\w.:=\-/@]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Options for starting a harness. */
export interface HarnessOptions {
  /** Computer name given with --name; unique per file by default. */
  name?: string;
  /** `--peer-listen HOST:PORT` (docs/network.md); port 0 = any free port. Kept across restarts of the process. */
  peerListen?: string;
  /** `--routing`: a routing server. */
  routing?: boolean;
  /** Environment of the service process (e.g. QK_* test knobs); added to the harness's own. */
  env?: Record<string, string>;
  /** Run the service, and every `qk` that talks to it, inside this network namespace (test/helpers/netns.ts). */
  netns?: string;
}

/** A running service on its own temp data folder. */
export class ServiceHarness {
  readonly dataDir: string;
  readonly name: string;
  /** From the latest ready line. */
  id = '';
  url = '';
  /** The latest ready line, peer fields included. */
  ready: QkReady | null = null;
  private child: ChildProcess | null = null;
  private exited: Promise<number | null> | null = null;
  private serviceStderr = '';
  /** How many `qk` commands this harness ran, and their total wall time (QK_HARNESS_STATS=1 prints them). */
  readonly stats = { calls: 0, totalMs: 0 };

  private constructor(
    dataDir: string,
    name: string,
    private readonly options: HarnessOptions = {},
  ) {
    this.dataDir = dataDir;
    this.name = name;
  }

  /** Makes a temp data folder and starts the service on it. */
  static async create(options: HarnessOptions = {}): Promise<ServiceHarness> {
    const dataDir = await mkdtemp(join(tmpdir(), 'qk-conformance-'));
    const name = options.name ?? `QKTEST${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    const harness = new ServiceHarness(dataDir, name, options);
    await harness.start();
    return harness;
  }

  /** True while the service process is alive. */
  get running(): boolean {
    return this.child !== null;
  }

  /** Starts the service process (again) on the same data folder and waits for its ready line. */
  async start(): Promise<QkReady> {
    if (this.child) throw new Error('service already running in this harness');
    const args = [
      qkBin,
      'service',
      'start',
      '--data',
      this.dataDir,
      '--name',
      this.name,
      '--listen',
      '127.0.0.1:0',
      '--json',
      // A restarted computer keeps its peer address, as a real one does: its peers know it by that address.
      ...(this.options.peerListen !== undefined
        ? ['--peer-listen', this.ready?.peerAddress ?? this.options.peerListen]
        : []),
      ...(this.options.routing ? ['--routing'] : []),
    ];
    const [command, commandArgs] = nodeCommand(args, this.options.netns);
    const child = spawn(command, commandArgs, {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...this.options.env },
    });
    this.child = child;
    this.serviceStderr = '';
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.serviceStderr = (this.serviceStderr + chunk).slice(-8000);
    });
    const ready = await new Promise<QkReady>((resolve, reject) => {
      let buffer = '';
      const timer = setTimeout(() => {
        reject(
          new Error(
            `service did not print its ready line within ${READY_TIMEOUT_MS} ms; stderr: ${this.serviceStderr}`,
          ),
        );
      }, READY_TIMEOUT_MS);
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).trim();
          buffer = buffer.slice(newline + 1);
          const parsed = parseJson(line) as Partial<QkReady> | null;
          if (parsed && parsed.ready === true) {
            clearTimeout(timer);
            resolve(parsed as QkReady);
          }
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`service exited with ${code} before it was ready; stderr: ${this.serviceStderr}`));
      });
    });
    child.on('exit', () => {
      if (this.child === child) this.child = null;
    });
    this.id = ready.id;
    this.url = ready.url;
    this.ready = ready;
    return ready;
  }

  /** Runs `qk --data DIR --json …args` and returns its exit code and JSON. */
  async qk<T = unknown>(...args: string[]): Promise<QkResult<T>> {
    return this.qkWithTimeout<T>(60_000, ...args);
  }

  /** Same as qk() with a hard limit after which the `qk` process is killed. */
  async qkWithTimeout<T = unknown>(timeoutMs: number, ...args: string[]): Promise<QkResult<T>> {
    const full = ['--data', this.dataDir, '--json', ...args];
    const waits = args.includes('--timeout');
    const netns = this.options.netns;
    const raw = await (waits ? runNode(full, timeoutMs, netns) : slots.run(() => runNode(full, timeoutMs, netns)));
    this.stats.calls += 1;
    this.stats.totalMs += raw.elapsedMs;
    if (process.env['QK_HARNESS_TRACE']) {
      process.stderr.write(
        `[qk ${new Date().toISOString()} ${raw.elapsedMs}ms exit ${raw.exitCode}] ${args.join(' ').slice(0, 120)}\n`,
      );
    }
    const json = (raw.exitCode === 0 ? parseJson(raw.stdout) : parseJson(raw.stderr)) as T;
    return { ...raw, json, command: `qk ${full.map(quote).join(' ')}` };
  }

  /** `qk service restart`: restarts the queue manager in place (pending settings apply, express messages go). */
  async restart(): Promise<void> {
    const result = await this.qk('service', 'restart');
    if (result.exitCode !== 0) throw new Error(`service restart failed (${result.exitCode}): ${result.stderr}`);
  }

  /** `qk service stop`, then waits for the process to exit (kills it if it does not). */
  async stop(): Promise<void> {
    if (!this.child) return;
    const exited = this.exited;
    const result = await this.qkWithTimeout(STOP_TIMEOUT_MS, 'service', 'stop');
    const code = await Promise.race([exited, delay(STOP_TIMEOUT_MS).then(() => 'timeout' as const)]);
    if (code === 'timeout') {
      await this.kill9();
      throw new Error(
        `service did not exit within ${STOP_TIMEOUT_MS} ms after 'qk service stop' (${result.exitCode}: ${result.stderr})`,
      );
    }
    this.child = null;
  }

  /** SIGKILL, as a crash or power loss would: nothing gets a chance to flush. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = this.exited;
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  /** The service's recent stderr, for failure messages. */
  get stderr(): string {
    return this.serviceStderr;
  }

  /** Stops the service (gracefully, else by force) and deletes the data folder. */
  async dispose(): Promise<void> {
    if (process.env['QK_HARNESS_STATS']) {
      process.stderr.write(
        `[harness ${this.name}] ${this.stats.calls} qk calls, ${Math.round(this.stats.totalMs / Math.max(1, this.stats.calls))} ms each on average\n`,
      );
    }
    try {
      if (this.child) await this.stop();
    } catch {
      await this.kill9();
    } finally {
      await rm(this.dataDir, { recursive: true, force: true });
    }
  }
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
