/** Admin actions (operations marked `admin` in the contract) are appended to `DIR/audit.log`, one JSON line each. */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';

export const AUDIT_FILE = 'audit.log';

/** One audited action. */
export interface AuditEntry {
  op: string;
  /** The target the action names (a queue path, a setting), when it has one. */
  target?: string | undefined;
  ok: boolean;
  code?: string | undefined;
  connectionId?: string | undefined;
}

/** Appends audit lines in order without making callers wait on the disk. */
export class AuditLog {
  readonly #path: string;
  #chain: Promise<void> = Promise.resolve();

  constructor(dataDir: string) {
    this.#path = join(dataDir, AUDIT_FILE);
  }

  record(entry: AuditEntry): void {
    const line = `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`;
    this.#chain = this.#chain
      .then(() => appendFile(this.#path, line, { mode: 0o600 }))
      .catch(() => {
        // An audit line that cannot be written must not fail the action itself.
      });
  }

  /** Resolves once every recorded line is on disk. */
  flush(): Promise<void> {
    return this.#chain;
  }
}

/** The target an admin input names, for the audit line (never message bodies). */
export function auditTarget(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as Record<string, unknown>;
  for (const key of ['path', 'name', 'conversation', 'transaction']) {
    const value = record[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** Operations that read a queue's messages or properties without being admin actions by themselves. */
const QUEUE_READS: ReadonlySet<string> = new Set([
  'browse',
  'queueShow',
  'messageGet',
  'peek',
  'receive',
  'receiveBatch',
]);

/** The queue a reading operation names, for deciding whether it reads an outgoing queue (and is audited). */
export function queueReadPath(op: string, input: unknown): string | undefined {
  if (!QUEUE_READS.has(op) || typeof input !== 'object' || input === null) return undefined;
  const path = (input as Record<string, unknown>)['path'];
  return typeof path === 'string' ? path : undefined;
}
