import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServiceLogger,
  LOG_FILE,
  LOG_FOLDER,
  LOG_GENERATIONS,
  parseLogLevel,
} from '../../../core/service/src/host/logger.js';
import { tempDataDir } from './helpers.js';

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A stand-in terminal that records what it is given. */
function terminal(isTTY: boolean): PassThrough & { isTTY: boolean; text(): string } {
  const chunks: string[] = [];
  const stream = Object.assign(new PassThrough(), { isTTY, text: () => chunks.join('') });
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return stream;
}

describe('service logger', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));
  function folder(): string {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    return dir;
  }

  it('writes JSON lines at the chosen level to DIR/logs/service.log, owner-only, errors with their stack', async () => {
    const dir = folder();
    const log = createServiceLogger({ dataDir: dir, level: 'info' });
    log.openFile();
    log.logger.debug({ step: 1 }, 'too detailed for info');
    log.logger.info({ step: 2 }, 'started');
    log.logger.error({ err: new Error('boom'), op: 'send' }, 'an operation failed');
    await log.close();
    const written = lines(join(dir, LOG_FOLDER, LOG_FILE));
    expect(written.map((line) => line['msg'])).toEqual(['started', 'an operation failed']);
    expect(written[1]).toMatchObject({ level: 50, op: 'send', err: { message: 'boom', type: 'Error' } });
    expect(String((written[1]?.['err'] as { stack: string }).stack)).toContain('logger.test.ts');
    expect(typeof written[0]?.['time']).toBe('string');
    expect(statSync(join(dir, LOG_FOLDER, LOG_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, LOG_FOLDER)).mode & 0o777).toBe(0o700);
  });

  it('shows warnings and errors readably on the terminal, not info, while the file keeps everything', async () => {
    const dir = folder();
    const tty = terminal(false);
    const log = createServiceLogger({ dataDir: dir, level: 'debug', terminal: tty });
    log.openFile();
    log.logger.debug({}, 'detail');
    log.logger.info({}, 'listening');
    log.logger.child({ component: 'engine' }).warn({ queue: '.\\private$\\q' }, 'the expiry pass failed');
    await log.close();
    const shown = tty.text();
    expect(shown).toContain('WARN');
    expect(shown).toContain('[engine] the expiry pass failed');
    expect(shown).not.toContain('listening');
    expect(shown).not.toMatch(/^\{/m);
    expect(lines(join(dir, LOG_FOLDER, LOG_FILE)).map((line) => line['msg'])).toEqual([
      'detail',
      'listening',
      'the expiry pass failed',
    ]);
  });

  it(`rotates by size and keeps ${LOG_GENERATIONS} older files`, async () => {
    const dir = folder();
    const log = createServiceLogger({ dataDir: dir, level: 'info', fileSize: '1K' });
    log.openFile();
    for (let i = 0; i < 200; i++) {
      log.logger.info({ i, padding: 'x'.repeat(100) }, 'line');
      // Rotation happens between writes; give the stream a turn now and then.
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await log.close();
    const files = readdirSync(join(dir, LOG_FOLDER)).sort();
    expect(files).toEqual([LOG_FILE, ...Array.from({ length: LOG_GENERATIONS }, (_, i) => `${LOG_FILE}.${i + 1}`)]);
    for (const file of files) expect(statSync(join(dir, LOG_FOLDER, file)).mode & 0o777).toBe(0o600);
  });

  it('holds the lines logged before the file opens and writes them first; never opened, it writes nothing', async () => {
    const dir = folder();
    const early = createServiceLogger({ dataDir: dir, level: 'info' });
    early.logger.warn({}, 'the data folder was tightened');
    early.openFile();
    early.logger.info({}, 'listening');
    await early.close();
    expect(lines(join(dir, LOG_FOLDER, LOG_FILE)).map((line) => line['msg'])).toEqual([
      'the data folder was tightened',
      'listening',
    ]);

    // A second start refused by the lock never opens the file: the running service's log stays its own.
    const other = folder();
    const refused = createServiceLogger({ dataDir: other, level: 'info' });
    refused.logger.error({}, 'SERVICE_ALREADY_RUNNING');
    await refused.close();
    expect(existsSync(join(other, LOG_FOLDER))).toBe(false);
  });

  it('parses --log-level, refusing an unknown level with INVALID_PARAMETER', () => {
    expect(parseLogLevel(undefined)).toBe('info');
    expect(parseLogLevel('WARN')).toBe('warn');
    expect(parseLogLevel('silent')).toBe('silent');
    expect(() => parseLogLevel('verbose')).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
  });
});
