/** `DIR/service.json`: how `qk --data DIR` finds the running service. Written once listening, removed on clean stop. */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_FILE, serviceFileSchema, type ServiceFile } from '@qk/api';

/** Writes service.json atomically (a reader never sees half a file). */
export function writeServiceFile(dataDir: string, contents: ServiceFile): void {
  const path = join(dataDir, SERVICE_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(serviceFileSchema.parse(contents), null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

/** Removes service.json, but only when it still describes this process (a newer service may own it). */
export function removeServiceFile(dataDir: string): void {
  const path = join(dataDir, SERVICE_FILE);
  try {
    const current = serviceFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (current.success && current.data.pid !== process.pid) return;
  } catch {
    // Missing or unreadable: removing is harmless either way.
  }
  rmSync(path, { force: true });
}
