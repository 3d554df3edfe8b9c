import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));
/** `npm run drills` runs every drill at full size (minutes each); `npm test` runs their short forms. */
const fullDrills = process.env['QK_DRILLS'] === 'full';
const alias = {
  '@qk/model': `${root}core/model/src/index.ts`,
  '@qk/store': `${root}core/store/src/index.ts`,
  '@qk/engine': `${root}core/engine/src/index.ts`,
  '@qk/api': `${root}core/api/src/index.ts`,
  '@qk/rpc/node': `${root}core/rpc/src/node/index.ts`,
  '@qk/rpc': `${root}core/rpc/src/index.ts`,
  '@qk/network': `${root}core/network/src/index.ts`,
  '@qk/service': `${root}core/service/src/index.ts`,
  '@qk/client': `${root}core/client/src/index.ts`,
  '@qk/cli': `${root}core/cli/src/index.ts`,
};

export default defineConfig({
  root,
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          root,
          include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'conformance',
          root,
          include: ['test/conformance/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file starts real service processes; two cores run two files at a time.
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'drills',
          root,
          include: ['test/drills/**/*.test.ts'],
          environment: 'node',
          // A drill loads the machine on purpose (crashes, floods, soak): one file at a time, and time to finish.
          maxWorkers: 1,
          fileParallelism: false,
          // Each drill bounds its own time (the API fuzz at 80 min on a busy machine); this is the backstop.
          testTimeout: fullDrills ? 100 * 60_000 : 15 * 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
