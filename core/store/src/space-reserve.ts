/**
 * A file of reserved disk space in the data folder. SQLite needs room in its WAL even to delete, so on a full
 * disk an administrator could not purge a queue to make room. The reserve is given back to the disk the first
 * time a commit fails for lack of space, so that commit (a purge, a receive) can go through; it is made again
 * at the next start when there is room.
 */
import fs from 'node:fs';
import path from 'node:path';

export const SPACE_RESERVE_FILE = 'space.reserve';
/** Enough WAL room to delete a few purge chunks of a full store. */
export const SPACE_RESERVE_BYTES = 8 * 1024 * 1024;

/** Whether a thrown SQLite error means the disk (or the store's size limit) is full. */
export function isDiskFullError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_FULL');
}

export class SpaceReserve {
  private held: boolean;

  private constructor(
    private readonly file: string,
    held: boolean,
  ) {
    this.held = held;
  }

  /** Makes sure the reserve exists; on a disk without room it starts without one (and says so through `held`). */
  static ensure(dataDir: string, bytes: number = SPACE_RESERVE_BYTES): SpaceReserve {
    const file = path.join(dataDir, SPACE_RESERVE_FILE);
    try {
      if (fs.statSync(file).size === bytes) return new SpaceReserve(file, true);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    try {
      writeZeros(file, bytes);
      return new SpaceReserve(file, true);
    } catch (error) {
      // A half-written reserve holds space nobody can give back deliberately: remove it, start without.
      fs.rmSync(file, { force: true });
      if (isNoSpace(error)) return new SpaceReserve(file, false);
      throw error;
    }
  }

  /** True while the reserve file holds its space. */
  get isHeld(): boolean {
    return this.held;
  }

  /** Gives the reserved space back to the disk; false when there was none left to give. */
  release(): boolean {
    if (!this.held) return false;
    this.held = false;
    fs.rmSync(this.file, { force: true });
    return true;
  }
}

function isNoSpace(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** Real blocks, not a sparse file: a sparse reserve would give nothing back. */
function writeZeros(file: string, bytes: number): void {
  const chunk = Buffer.alloc(Math.min(bytes, 1024 * 1024));
  const fd = fs.openSync(file, 'w', 0o600);
  try {
    for (let written = 0; written < bytes;) {
      const n = fs.writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - written));
      written += n;
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
