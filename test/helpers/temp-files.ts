/** Temporary files for `qk send --body-file`; removeTempFiles() (called after each file's tests) deletes them. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let folder: string | null = null;
let count = 0;

function tempFolder(): string {
  if (folder === null) {
    folder = mkdtempSync(join(tmpdir(), 'qk-bodies-'));
  }
  return folder;
}

/** Writes `content` to a new temporary file and returns its path. */
export function writeTempFile(content: Uint8Array | string): string {
  count += 1;
  const path = join(tempFolder(), `body-${count}.bin`);
  writeFileSync(path, content);
  return path;
}

/** `size` bytes of one repeated character: a body whose size is known exactly. */
export function bodyOfSize(size: number, fill = 'x'): string {
  return fill.repeat(size);
}

/** Deletes every file writeTempFile() made in this process. */
export function removeTempFiles(): void {
  if (folder !== null) rmSync(folder, { recursive: true, force: true });
  folder = null;
}
