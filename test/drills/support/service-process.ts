/**
 * Real service processes for the drills: `bin/qk.mjs service start --data DIR --listen 127.0.0.1:0`, started,
 * killed with SIGKILL (a crash or a power cut: nothing gets to flush), started again on the same folder, and
 * measured (resident memory from /proc). The bin launcher imports the bundle into its own process, so the pid
 * we spawn is the service itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { delay, qkBin, repoRoot } from '../../helpers/service-harness.js';
import { ApiSession } from './api.js';

const READY_TIMEOUT_MS = 60_000;
/** QK_DRILLS_KEEP=1 keeps every data folder a drill made (its store, logs/service.log, audit.log) to look into. */
const KEEP_FOLDERS = process.env['QK_DRILLS_KEEP'] === '1';
const STOP_TIMEOUT_MS = 20_000;

/** Every service this worker started and has not seen exit: killed if the worker goes away first. */
const living = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of living) child.kill('SIGKILL');
});

/** The ready line `qk service start --json` prints (CLI.md). */
export interface ReadyLine {
  ready: true;
  name: string;
  id: string;
  url: string;
}

/** How a start that was expected to fail ended. */
export interface StartFailure {
  /** Exit code, or null when the process had to be killed. */
  exitCode: number | null;
  /** True when it printed a ready line instead (then it was stopped again). */
  becameReady: boolean;
  stdout: string;
  stderr: string;
}

/** Resident memory of a process in KiB: now (VmRSS) and its peak so far (VmHWM). */
export interface Rss {
  currentKB: number;
  peakKB: number;
}

export interface DrillServiceOptions {
  /** Computer name (--name); unique by default. */
  name?: string;
  /** An existing data folder (not deleted by dispose()); a fresh temp folder by default. */
  dataDir?: string;
  /** More arguments for `qk service start` (e.g. --log-level). */
  extraArgs?: string[];
  /** Options for the service's Node process (e.g. a heap limit). */
  nodeArgs?: string[];
}

/** One data folder and the service process that runs on it (at most one at a time). */
export class DrillService {
  readonly dataDir: string;
  readonly name: string;
  private readonly ownsDataDir: boolean;
  private readonly extraArgs: string[];
  private readonly nodeArgs: string[];
  private child: ChildProcess | null = null;
  private exited: Promise<number | null> = Promise.resolve(null);
  private stderrTail = '';
  /** From the latest ready line. */
  url = '';
  token = '';
  pid = 0;
  /** How many times this folder's service was started, and killed with SIGKILL. */
  starts = 0;
  kills = 0;

  constructor(options: DrillServiceOptions = {}) {
    this.ownsDataDir = options.dataDir === undefined;
    this.dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'qk-drill-'));
    this.name = options.name ?? `DRILL${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    this.extraArgs = options.extraArgs ?? [];
    this.nodeArgs = options.nodeArgs ?? [];
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** The service's recent stderr, for failure messages. */
  get stderr(): string {
    return this.stderrTail;
  }

  private spawnService(): ChildProcess {
    if (this.child) throw new Error(`a service is already running on ${this.dataDir}`);
    const args = [
      ...this.nodeArgs,
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
      ...this.extraArgs,
    ];
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    living.add(child);
    this.child = child;
    this.pid = child.pid ?? 0;
    this.starts += 1;
    this.stderrTail = '';
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        living.delete(child);
        if (this.child === child) this.child = null;
        resolve(code);
      }),
    );
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-8_000);
    });
    return child;
  }

  /** Starts the service and waits for its ready line; then reads the token it keeps in the folder. */
  async start(): Promise<ReadyLine> {
    const child = this.spawnService();
    const ready = await readyLineOf(child, () => this.stderrTail);
    this.url = ready.url;
    this.token = readFileSync(join(this.dataDir, 'token'), 'utf8').trim();
    return ready;
  }

  /**
   * Starts the service and kills it with SIGKILL `afterMs` later, ready or not (a crash during recovery).
   * Returns whether it had become ready by then.
   */
  async startAndKill(afterMs: number): Promise<boolean> {
    const child = this.spawnService();
    let ready = false;
    readyLineOf(child, () => this.stderrTail).then(
      () => (ready = true),
      () => undefined,
    );
    await delay(afterMs);
    await this.kill9();
    return ready;
  }

  /** Runs a start that should fail (a corrupt store, a read-only folder…); stops it if it became ready. */
  async startExpectingFailure(timeoutMs = READY_TIMEOUT_MS): Promise<StartFailure> {
    const child = this.spawnService();
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const outcome = await Promise.race([
      this.exited.then((code) => ({ code, ready: false })),
      readyLineOf(child, () => this.stderrTail, timeoutMs).then(
        () => ({ code: null, ready: true }),
        () => ({ code: null, ready: false }),
      ),
    ]);
    if (outcome.ready || this.child === child) {
      await this.stop();
      return { exitCode: null, becameReady: outcome.ready, stdout, stderr: this.stderrTail };
    }
    return { exitCode: outcome.code, becameReady: false, stdout, stderr: this.stderrTail };
  }

  /** SIGKILL, and waits until the process is gone. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = this.exited;
    child.kill('SIGKILL');
    await exited;
    this.kills += 1;
  }

  /** SIGTERM (a clean stop); SIGKILL if it has not exited within 20 s. Resolves with the exit code. */
  async stop(): Promise<number | null> {
    const child = this.child;
    if (!child) return null;
    const exited = this.exited;
    child.kill('SIGTERM');
    const code = await Promise.race([exited, delay(STOP_TIMEOUT_MS).then(() => 'timeout' as const)]);
    if (code === 'timeout') {
      await this.kill9();
      throw new Error(`the service on ${this.dataDir} did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM`);
    }
    return code;
  }

  /** Resolves with the exit code when the running process exits (null right away when none runs). */
  waitForExit(): Promise<number | null> {
    return this.exited;
  }

  /** Resident memory of the running service, from /proc (Linux). */
  rss(): Rss {
    if (!this.child) throw new Error('no service is running');
    return rssOf(this.pid);
  }

  /** A caller of the HTTP API of the running service. */
  api(): ApiSession {
    if (!this.url) throw new Error('the service has not been started');
    return new ApiSession(this.url, this.token);
  }

  /** Stops the service (or kills it) and deletes the data folder if this object made it. */
  async dispose(): Promise<void> {
    try {
      await this.stop();
    } catch {
      await this.kill9();
    } finally {
      if (this.ownsDataDir && !KEEP_FOLDERS) rmSync(this.dataDir, { recursive: true, force: true });
      else if (KEEP_FOLDERS) process.stdout.write(`kept the data folder ${this.dataDir} (logs/service.log)\n`);
    }
  }
}

/** Resident memory of any process, from /proc/PID/status. */
export function rssOf(pid: number): Rss {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0);
  return { currentKB: field('VmRSS'), peakKB: field('VmHWM') };
}

function readyLineOf(child: ChildProcess, stderr: () => string, timeoutMs = READY_TIMEOUT_MS): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => reject(new Error(`the service printed no ready line within ${timeoutMs} ms; stderr: ${stderr()}`)),
      timeoutMs,
    );
    const onData = (chunk: string): void => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        const parsed = parseLine(line);
        if (parsed?.ready === true && typeof parsed.url === 'string') {
          clearTimeout(timer);
          child.stdout?.off('data', onData);
          resolve(parsed as ReadyLine);
        }
      }
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code ?? signal}) before it was ready; stderr: ${stderr()}`));
    });
  });
}

function parseLine(line: string): Partial<ReadyLine> | null {
  if (!line.startsWith('{')) return null;
  try {
    return JSON.parse(line) as Partial<ReadyLine>;
  } catch {
    return null;
  }
}
