import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { secureDataFolder } from '../../../core/service/src/host/data-folder.js';
import { tempDataDir } from './helpers.js';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe('files private by default (issue 7, item 5)', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));
  function folder(): string {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    return dir;
  }

  it('creates a new data folder 0700, silently', () => {
    const dir = join(folder(), 'new', 'data');
    expect(secureDataFolder(dir)).toEqual([]);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('tightens an existing wider folder to 0700 and its files to 0600, with a warning naming each', () => {
    const dir = folder();
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'queuekeeper.db'), '', { mode: 0o644 });
    writeFileSync(join(dir, 'queuekeeper.db-wal'), '', { mode: 0o666 });
    writeFileSync(join(dir, 'token'), 'x', { mode: 0o600 });
    mkdirSync(join(dir, 'logs'), { mode: 0o755 });
    writeFileSync(join(dir, 'logs', 'service.log'), '', { mode: 0o644 });
    chmodSync(join(dir, 'logs'), 0o755);
    chmodSync(join(dir, 'queuekeeper.db'), 0o644);
    chmodSync(join(dir, 'queuekeeper.db-wal'), 0o666);
    chmodSync(join(dir, 'logs', 'service.log'), 0o644);

    const warnings = secureDataFolder(dir);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/was 0755 .*now 0700/);
    expect(warnings[1]).toContain('queuekeeper.db (0644)');
    expect(warnings[1]).toContain('queuekeeper.db-wal (0666)');
    expect(warnings[1]).toContain('logs/ (0755)');
    expect(warnings[1]).toContain('logs/service.log (0644)');
    expect(warnings[1]).not.toContain('token');
    expect(modeOf(dir)).toBe(0o700);
    for (const file of ['queuekeeper.db', 'queuekeeper.db-wal', 'token', 'logs/service.log']) {
      expect(modeOf(join(dir, file)), file).toBe(0o600);
    }
    expect(modeOf(join(dir, 'logs'))).toBe(0o700);
    // Once private, a second start has nothing to say.
    expect(secureDataFolder(dir)).toEqual([]);
  });

  it('leaves symbolic links alone (chmod would change the file they point to, outside the folder)', () => {
    const dir = folder();
    const outside = folder();
    const target = join(outside, 'shared.txt');
    writeFileSync(target, '');
    chmodSync(target, 0o644);
    symlinkSync(target, join(dir, 'link'));
    secureDataFolder(dir);
    expect(modeOf(target)).toBe(0o644);
  });
});
