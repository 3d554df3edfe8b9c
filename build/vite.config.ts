/** Builds the console renderer into dist/renderer; the same build runs in Electron (file://) and in the browser. */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: `${root}renderer`,
  // Relative asset URLs: Electron loads index.html with loadFile (file://), the service serves it at /.
  base: './',
  plugins: [react()],
  resolve: {
    alias: {
      '@qk/api': `${root}core/api/src/index.ts`,
      '@qk/rpc': `${root}core/rpc/src/index.ts`,
      '@qk/model': `${root}core/model/src/index.ts`,
    },
  },
  build: {
    outDir: `${root}dist/renderer`,
    emptyOutDir: true,
    // Electron 45 and current Chromium; no legacy transforms needed.
    target: 'es2022',
    sourcemap: true,
    // React, zod (the contract's schemas) and the console: one chunk is fine for a local app.
    chunkSizeWarningLimit: 800,
  },
});
