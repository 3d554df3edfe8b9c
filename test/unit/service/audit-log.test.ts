import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AUDIT_FILE,
  AUDIT_GENERATIONS,
  AUDIT_TARGET_LIMIT,
  AuditLog,
  auditLine,
} from '../../../core/service/src/host/audit-log.js';
import { tempDataDir } from './helpers.js';

describe('audit.log', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));
  function folder(): string {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    return dir;
  }

  it('cuts a huge target (it used to be written whole) and keeps a queue path whole', () => {
    const huge = `.\\private$\\${'x'.repeat(10_000_000)}`;
    const line = auditLine({ op: 'queuePurge', target: huge, ok: false, code: 'ILLEGAL_QUEUE_PATHNAME' });
    expect(line.length).toBeLessThan(AUDIT_TARGET_LIMIT + 300);
    const parsed = JSON.parse(line) as { target: string };
    expect(parsed.target).toContain(`(${huge.length} characters)`);
    const path = `FORMATNAME:DIRECT=TCP:${'h'.repeat(256)}\\private$\\${'q'.repeat(124)}`;
    expect((JSON.parse(auditLine({ op: 'queuePurge', target: path, ok: true })) as { target: string }).target).toBe(
      path,
    );
  });

  it('writes bidi controls escaped, so the line reads as it is, and parses back to the exact target', () => {
    const target = '.\\private$\\invoice\u202Efdp.exe\u2028';
    const line = auditLine({ op: 'queueDelete', target, ok: true });
    expect(line).not.toContain('\u202E');
    expect(line).not.toContain('\u2028');
    expect(line).toContain('\\u202e');
    expect((JSON.parse(line) as { target: string }).target).toBe(target);
  });

  it(`rotates by size, keeping ${AUDIT_GENERATIONS} older files, all owner-only`, async () => {
    const dir = folder();
    const audit = new AuditLog(dir, { fileSize: '1K' });
    for (let i = 0; i < 300; i++) {
      audit.record({ op: 'queuePurge', target: `.\\private$\\q${i}`, ok: true });
      if (i % 10 === 9) await audit.flush();
    }
    await audit.close();
    const files = readdirSync(dir).sort();
    expect(files).toEqual([
      AUDIT_FILE,
      ...Array.from({ length: AUDIT_GENERATIONS }, (_, i) => `${AUDIT_FILE}.${i + 1}`),
    ]);
    for (const file of files) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    // The newest lines are in the current file and audit.log.1 (the write that filled a file rotated it), in order.
    const newest = (readFileSync(join(dir, `${AUDIT_FILE}.1`), 'utf8') + readFileSync(join(dir, AUDIT_FILE), 'utf8'))
      .trim()
      .split('\n');
    expect(newest.at(-1)).toContain('q299');
    expect(newest.at(-2)).toContain('q298');
  });
});
