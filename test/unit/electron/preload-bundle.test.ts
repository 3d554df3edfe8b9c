import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('preload bundle', () => {
  it('requires nothing but electron, as a sandboxed preload must', async () => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['electron/preload.ts'],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['electron'],
      tsconfig: 'tsconfig.base.json',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    const required = [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
  }, 30_000);
});
