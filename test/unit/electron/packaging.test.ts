// The desktop package as electron-builder really makes it from build/electron-builder.json: packaged here from a
// stand-in Electron binary that carries the fuse wire (the real runtime cannot be downloaded on every machine),
// then read back — which fuses were flipped, what went into app.asar.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const configFile = join(repo, 'build/electron-builder.json');
const config = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { main: string; version: string };

// Electron's fuse wire (docs/tutorial/fuses.md): a sentinel, the wire version (1), its length, one byte per fuse,
// '1' enabled, '0' disabled. The order is Electron's own.
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSES = [
  'runAsNode',
  'cookieEncryption',
  'nodeOptions',
  'nodeCliInspect',
  'embeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
] as const;

function readFuses(binary: string): Record<(typeof FUSES)[number], boolean> {
  const bytes = readFileSync(binary);
  const at = bytes.indexOf(SENTINEL) + SENTINEL.length;
  if (at < SENTINEL.length) throw new Error(`no fuse wire in ${binary}`);
  expect(bytes[at]).toBe(1);
  const length = bytes[at + 1] ?? 0;
  return Object.fromEntries(
    FUSES.slice(0, length).map((name, i) => [name, String.fromCharCode(bytes[at + 2 + i] ?? 0) === '1']),
  ) as Record<(typeof FUSES)[number], boolean>;
}

/** The file list of an asar archive: a pickled JSON header after 16 bytes. */
function asarFiles(archive: string): string[] {
  const bytes = readFileSync(archive);
  const header = JSON.parse(bytes.subarray(16, 16 + bytes.readUInt32LE(12)).toString('utf8')) as AsarDir;
  const walk = (dir: AsarDir, prefix: string): string[] =>
    Object.entries(dir.files).flatMap(([name, entry]) =>
      'files' in entry ? walk(entry, `${prefix}${name}/`) : [`${prefix}${name}`],
    );
  return walk(header, '');
}
type AsarDir = { files: Record<string, AsarDir | { size: number }> };

let project = '';
let unpacked = '';
let packResult: ReturnType<typeof spawnSync>;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'qk-packaging-'));
  for (const dir of ['dist/electron', 'dist/renderer/assets', 'dist/cli', 'electron-dist']) {
    mkdirSync(join(project, dir), { recursive: true });
  }
  writeFileSync(join(project, pkg.main), '// main');
  writeFileSync(join(project, `${pkg.main}.map`), '{}');
  writeFileSync(join(project, 'dist/electron/preload.cjs'), '// preload');
  writeFileSync(join(project, 'dist/renderer/index.html'), '<title>console</title>');
  writeFileSync(join(project, 'dist/renderer/assets/index.js'), '// console');
  writeFileSync(join(project, 'dist/cli/qk.mjs'), '// the CLI is not part of the desktop app');
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'queuekeeper',
      productName: 'Queuekeeper',
      version: pkg.version,
      description: 'packaging test',
      author: 'test',
      main: pkg.main,
    }),
  );
  // Every fuse enabled, as in a fresh Electron download.
  writeFileSync(
    join(project, 'electron-dist/electron'),
    Buffer.concat([Buffer.from(`#!/bin/sh\n#${SENTINEL}`), Buffer.from([1, FUSES.length]), Buffer.from('11111111\n')]),
    { mode: 0o755 },
  );
  packResult = spawnSync(
    join(repo, 'node_modules/.bin/electron-builder'),
    [
      '--linux',
      'dir',
      '--projectDir',
      project,
      '--config',
      configFile,
      `-c.electronDist=${join(project, 'electron-dist')}`,
      '-c.electronVersion=45.5.0',
      '-c.npmRebuild=false',
      `-c.directories.output=${join(project, 'release')}`,
    ],
    { cwd: project, encoding: 'utf8', timeout: 120_000, env: { ...process.env, CI: '1' } },
  );
  unpacked = join(project, 'release/linux-unpacked');
}, 150_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

describe('the packaged app (electron-builder with build/electron-builder.json)', () => {
  it('packages', () => {
    expect(packResult.status, `${String(packResult.stdout)}\n${String(packResult.stderr)}`).toBe(0);
  });

  it('flips the fuses: no running as Node, no NODE_OPTIONS, no --inspect, asar only and checked, no file:// extras', () => {
    const fuses = readFuses(join(unpacked, 'queuekeeper'));
    expect(fuses).toMatchObject({
      runAsNode: false,
      nodeOptions: false,
      nodeCliInspect: false,
      embeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('packs the bundles the main process loads into app.asar, without source maps', () => {
    const files = asarFiles(join(unpacked, 'resources/app.asar'));
    expect(files).toEqual(
      expect.arrayContaining([pkg.main, 'dist/electron/preload.cjs', 'dist/renderer/index.html', 'package.json']),
    );
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.some((file) => file.startsWith('dist/cli'))).toBe(false);
  });

  it('starts the same main bundle as a development run, and keeps the native SQLite module out of the archive', () => {
    expect((config['extraMetadata'] as { main: string }).main).toBe(pkg.main);
    // A .node file cannot be loaded from inside an asar archive.
    expect(config['asarUnpack']).toContain('node_modules/better-sqlite3/**');
  });
});
