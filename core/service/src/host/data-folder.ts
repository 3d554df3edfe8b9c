/**
 * Files private by default (issue 7, item 5): the data folder holds message bodies, the token and the
 * audit trail, so it is 0700 and every file in it 0600. A folder or file found wider (made by an older
 * version, or loosened by hand) is tightened, and the service says so.
 *
 * Only chmod by path here, never open(): a process that closes any descriptor of a file loses every POSIX
 * lock it holds on that file, and this runs while the data-folder lock and the store may be open.
 */
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Subfolders of the data folder whose files are the service's too. */
const SUBFOLDERS = ['logs'];

function widerThan(mode: number, allowed: number): boolean {
  return (mode & 0o777 & ~allowed) !== 0;
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

/** Tightens the files directly in `folder`; returns `name (0644)` for each one that was wider. */
function tightenFiles(folder: string, prefix: string): string[] {
  const tightened: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && SUBFOLDERS.includes(entry.name) && prefix === '') {
      const mode = statSync(path).mode;
      if (widerThan(mode, 0o700)) {
        chmodSync(path, 0o700);
        tightened.push(`${entry.name}/ (${octal(mode)})`);
      }
      tightened.push(...tightenFiles(path, `${entry.name}/`));
    } else if (entry.isFile()) {
      // Symbolic links are left alone: chmod would follow them out of the folder.
      const mode = statSync(path).mode;
      if (!widerThan(mode, 0o600)) continue;
      try {
        chmodSync(path, 0o600);
        tightened.push(`${prefix}${entry.name} (${octal(mode)})`);
      } catch (error) {
        tightened.push(`${prefix}${entry.name} (${octal(mode)}, left as it is: ${(error as Error).message})`);
      }
    }
  }
  return tightened;
}

/**
 * Creates the data folder owner-only, or tightens an existing one and its files. Returns one warning per
 * thing that was readable by others (for the log and the terminal); none for a new or already private folder.
 */
export function secureDataFolder(dataDir: string): string[] {
  let before: number | null = null;
  try {
    before = statSync(dataDir).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch {
    // A folder that cannot be made (read-only file system) is reported by the lock, which needs it next,
    // with a stable code naming the folder (data-lock.ts).
    return [];
  }
  const warnings: string[] = [];
  const now = statSync(dataDir).mode;
  if (widerThan(now, 0o700)) {
    try {
      chmodSync(dataDir, 0o700);
    } catch (error) {
      // Not ours to change (another owner): say so, and go on with what the folder allows.
      warnings.push(
        `The data folder ${dataDir} is ${octal(now)} and could not be made private: ${(error as Error).message}.`,
      );
      return warnings;
    }
    if (before !== null) {
      warnings.push(`The data folder ${dataDir} was ${octal(now)} (readable by others); it is now 0700 (owner only).`);
    }
  }
  const files = tightenFiles(dataDir, '');
  if (files.length > 0) {
    warnings.push(`Files in ${dataDir} were readable by others and are now owner-only: ${files.join(', ')}.`);
  }
  return warnings;
}
