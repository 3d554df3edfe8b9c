/** Temporary files for `qk send --body-file`, removed when the test process exits. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let folder: string | null = null;
let count = 0;

function tempFolder(): string {
  if (folder === null) {
    const created = mkdtempSync(join(tmpdir(), 'qk-bodies-'));
    folder = created;
    process.on('exit', () => rmSync(created, { recursive: true, force: true }));
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
