import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { QkError, type Logger } from '@qk/model';
import { guardProcess, isFatalStoreError } from '../../../core/service/src/host/process-guard.js';

function recordingLogger(): Logger & { lines: { level: string; context: object; message: string }[] } {
  const lines: { level: string; context: object; message: string }[] = [];
  const at =
    (level: string) =>
    (context: object, message: string): void => {
      lines.push({ level, context, message });
    };
  const logger = {
    lines,
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    child: () => logger,
  };
  return logger;
}

describe('process guard', () => {
  it('logs an unhandled rejection and an uncaught exception with the error, and keeps going', () => {
    const logger = recordingLogger();
    const fake = new EventEmitter();
    const fatal: unknown[] = [];
    const unguard = guardProcess(logger, (error) => fatal.push(error), fake);
    const bug = new TypeError('cannot read properties of undefined');
    fake.emit('unhandledRejection', bug);
    fake.emit('uncaughtException', new RangeError('Invalid string length'));
    expect(logger.lines.map((line) => [line.level, line.message])).toEqual([
      ['error', 'An unhandled promise rejection (a bug in Queuekeeper); the service goes on'],
      ['error', 'An uncaught exception (a bug in Queuekeeper); the service goes on'],
    ]);
    expect(logger.lines[0]?.context).toEqual({ err: bug });
    expect(fatal).toEqual([]);
    unguard();
    expect(fake.listenerCount('unhandledRejection')).toBe(0);
    expect(fake.listenerCount('uncaughtException')).toBe(0);
  });

  it('hands a broken store to onFatal (the runner stops the service, then exits)', () => {
    const logger = recordingLogger();
    const fake = new EventEmitter();
    const fatal: unknown[] = [];
    guardProcess(logger, (error) => fatal.push(error), fake);
    const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    fake.emit('unhandledRejection', corrupt);
    expect(fatal).toEqual([corrupt]);
    expect(logger.lines[0]?.message).toMatch(/store is broken/);
  });

  it('tells fatal store errors from others', () => {
    const sqlite = (code: string) => Object.assign(new Error(code), { code });
    expect(isFatalStoreError(sqlite('SQLITE_CORRUPT'))).toBe(true);
    expect(isFatalStoreError(sqlite('SQLITE_CORRUPT_INDEX'))).toBe(true);
    expect(isFatalStoreError(sqlite('SQLITE_NOTADB'))).toBe(true);
    expect(isFatalStoreError(sqlite('SQLITE_READONLY_DBMOVED'))).toBe(true);
    expect(isFatalStoreError(new QkError('STORE_CORRUPT', 'x'))).toBe(true);
    // A full disk is not fatal: reads go on (the storage drill checks it).
    expect(isFatalStoreError(sqlite('SQLITE_FULL'))).toBe(false);
    expect(isFatalStoreError(sqlite('SQLITE_BUSY'))).toBe(false);
    expect(isFatalStoreError(new QkError('QUOTA_EXCEEDED', 'x'))).toBe(false);
    expect(isFatalStoreError(undefined)).toBe(false);
    expect(isFatalStoreError('a string')).toBe(false);
  });
});
