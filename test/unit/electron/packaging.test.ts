import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const config = JSON.parse(
  readFileSync(new URL('../../../build/electron-builder.json', import.meta.url), 'utf8'),
) as Record<string, any>;
const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as Record<string, any>;

describe('electron-builder configuration', () => {
  it('builds the four installers: Linux AppImage and deb, Windows NSIS, macOS dmg', () => {
    expect(config['linux'].target).toEqual(['AppImage', 'deb']);
    expect(config['win'].target).toEqual(['nsis']);
    expect(config['mac'].target).toEqual(['dmg']);
  });

  it('packs the bundles the main process loads, and unpacks the native SQLite module', () => {
    expect(config['extraMetadata'].main).toBe(pkg['main']);
    expect(config['files']).toEqual(expect.arrayContaining(['dist/electron/**', 'dist/renderer/**']));
    expect(config['asarUnpack']).toContain('node_modules/better-sqlite3/**');
  });

  it('npm run dist builds first, then packages with this file', () => {
    expect(pkg['scripts'].dist).toBe('npm run build && electron-builder --config build/electron-builder.json');
  });
});
