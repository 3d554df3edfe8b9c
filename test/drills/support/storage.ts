/**
 * Storage the drills can break: small tmpfs filesystems (full disks, read-only remounts) when the drill runs
 * as root and may mount, and fingerprints of store files to prove a refused start left them untouched.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why small filesystems cannot be mounted here, or null when they can. */
export const mountUnavailable: string | null = (() => {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  if (process.getuid?.() !== 0) return 'not running as root (mounting a small tmpfs needs it)';
  const probe = mkdtempSync(join(tmpdir(), 'qk-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `mount refused: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
  } finally {
    rmdirSync(probe);
  }
})();

/** Mounted disks of this worker: a killed or failed drill must not leave them behind. */
const mounted = new Set<string>();
process.once('exit', () => {
  for (const path of mounted) {
    try {
      execFileSync('umount', ['-l', path], { stdio: 'pipe' });
      rmdirSync(path);
    } catch {
      // Nothing more can be done while the process exits; the folder name says what it was.
    }
  }
});

/** A tmpfs of `sizeMB` at a fresh temp folder; unmount() when done. */
export class SmallDisk {
  readonly path: string;

  constructor(sizeMB: number) {
    this.path = mkdtempSync(join(tmpdir(), 'qk-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMB}m,mode=0700`, 'tmpfs', this.path], { stdio: 'pipe' });
    mounted.add(this.path);
  }

  remount(options: string): void {
    execFileSync('mount', ['-o', `remount,${options}`, this.path], { stdio: 'pipe' });
  }

  /** Bytes free, from df. */
  freeBytes(): number {
    const out = execFileSync('df', ['-B1', '--output=avail', this.path], { encoding: 'utf8' });
    return Number(out.trim().split('\n').pop());
  }

  /** Unmounts (lazily if a process that just died still holds it) and removes the folder. */
  unmount(): void {
    try {
      execFileSync('umount', [this.path], { stdio: 'pipe' });
    } catch {
      execFileSync('umount', ['-l', this.path], { stdio: 'pipe' });
    }
    mounted.delete(this.path);
    rmdirSync(this.path);
  }
}

/** SHA-256 of each store file that exists (the database and its WAL), to compare before and after. */
export function storeFingerprint(dataDir: string): string {
  return ['queuekeeper.db', 'queuekeeper.db-wal']
    .map((name) => join(dataDir, name))
    .filter((file) => existsSync(file))
    .map((file) => `${file}:${createHash('sha256').update(readFileSync(file)).digest('hex')}`)
    .join('\n');
}

/** The `{"error":{code}}` document a failed `qk service start --json` printed on stderr, if any. */
export function errorCodeOf(stderr: string): string | null {
  for (const line of stderr.split('\n')) {
    try {
      const doc = JSON.parse(line) as { error?: { code?: unknown } };
      if (typeof doc.error?.code === 'string') return doc.error.code;
    } catch {
      // Other output (warnings in readable form) is not the error document.
    }
  }
  return null;
}
