/**
 * Admin actions (operations marked `admin` in the contract, and reads of an outgoing queue) are appended to
 * `DIR/audit.log`, one JSON line each, rotated by size: AUDIT_GENERATIONS older files are kept
 * (audit.log.1 the newest), so the record of who did what survives a busy week without filling the disk.
 */
import { join } from 'node:path';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';
import { silentLogger, type Logger } from '@qk/model';

export const AUDIT_FILE = 'audit.log';
/** One audit file grows to this size before it is rotated. */
export const AUDIT_FILE_SIZE = '10M';
/** Older audit files kept. */
export const AUDIT_GENERATIONS = 5;
/**
 * The longest target an audit line repeats in full: the longest legal queue path or format name is 445
 * characters (core/api Bounds.PATH), so only something that is no queue name at all is cut.
 */
export const AUDIT_TARGET_LIMIT = 512;

/** One audited action. */
export interface AuditEntry {
  op: string;
  /** The target the action names (a queue path, a setting), when it has one. */
  target?: string | undefined;
  ok: boolean;
  code?: string | undefined;
  connectionId?: string | undefined;
}

/** Characters that would reorder or hide text when a person reads the log (bidi controls, separators). */
const BIDI_OR_SEPARATOR = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** A target as the audit line keeps it: whole when it could be a queue name, else its start and its length. */
export function auditedTarget(target: string | undefined): string | undefined {
  if (target === undefined || target.length <= AUDIT_TARGET_LIMIT) return target;
  return `${target.slice(0, AUDIT_TARGET_LIMIT)}… (${target.length} characters)`;
}

/**
 * One JSON line. JSON.stringify escapes controls and lone surrogates but leaves bidi controls raw; they are
 * written as \u escapes too, so `less audit.log` shows what was asked and JSON.parse still gives it back exactly.
 */
export function auditLine(entry: AuditEntry, time = new Date()): string {
  const json = JSON.stringify({ time: time.toISOString(), ...entry, target: auditedTarget(entry.target) });
  return `${json.replace(BIDI_OR_SEPARATOR, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/** Appends audit lines in order without making callers wait on the disk. */
export class AuditLog {
  readonly #stream: RotatingFileStream;
  readonly #logger: Logger;
  #written: Promise<void> = Promise.resolve();
  #closed: Promise<void> | undefined;

  constructor(dataDir: string, options: { logger?: Logger | undefined; fileSize?: string | undefined } = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.#stream = createStream(AUDIT_FILE, {
      path: dataDir,
      size: options.fileSize ?? AUDIT_FILE_SIZE,
      rotate: AUDIT_GENERATIONS,
      mode: 0o600,
    });
    // An audit line that cannot be written must not fail the action itself; it is logged instead.
    this.#stream.on('error', (error: Error) =>
      this.#logger.error({ err: error, file: join(dataDir, AUDIT_FILE) }, 'The audit log cannot be written'),
    );
  }

  record(entry: AuditEntry): void {
    if (this.#closed) {
      this.#logger.warn({ audit: entry }, 'An admin action came after the audit log closed; it is logged here');
      return;
    }
    const line = auditLine(entry);
    this.#written = new Promise((resolve) => this.#stream.write(line, () => resolve()));
  }

  /** Resolves once every recorded line is on disk. */
  flush(): Promise<void> {
    return this.#written;
  }

  /** Writes what is pending and closes the file. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= this.#written.then(() => new Promise<void>((resolve) => this.#stream.end(() => resolve())));
    return this.#closed;
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
