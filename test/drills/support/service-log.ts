/** What a service wrote to DIR/logs/service.log: one JSON document a line (pino). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function serviceLogText(dataDir: string): string {
  return readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8');
}

export function serviceLogLines<Line = { level: number; msg: string }>(dataDir: string): Line[] {
  return serviceLogText(dataDir)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
}
