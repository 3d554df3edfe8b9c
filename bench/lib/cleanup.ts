/**
 * Everything a run leaves behind — temp folders, child processes, open queue managers — is registered here
 * and removed at the end, on error, and on Ctrl+C.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const folders = new Set<string>();
const children = new Set<ChildProcess>();
const closers = new Set<() => Promise<unknown>>();

/** A fresh temp folder, removed by cleanup(). */
export function tempFolder(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), `qk-bench-${tag}-`));
  folders.add(dir);
  return dir;
}

export function trackChild(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
}

/** Registers an async closer (a queue manager, a client); returns a function that unregisters it. */
export function trackCloser(close: () => Promise<unknown>): () => void {
  closers.add(close);
  return () => closers.delete(close);
}

/** Kills our children by pid (SIGKILL: a stuck one must not hang the exit). Synchronous, safe in 'exit'. */
function killChildren(): void {
  for (const child of children) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  children.clear();
}

function removeFolders(): void {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  folders.clear();
}

export async function cleanup(): Promise<void> {
  for (const close of [...closers]) {
    try {
      await close();
    } catch {
      // Best effort: the folder goes anyway.
    }
  }
  closers.clear();
  killChildren();
  removeFolders();
}

/** Ctrl+C, SIGTERM and a plain exit still leave nothing behind. */
export function installExitHandlers(): void {
  process.once('exit', () => {
    killChildren();
    removeFolders();
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      killChildren();
      removeFolders();
      process.exit(130);
    });
  }
}
