/** Builds the console renderer into dist/renderer; the same build runs in Electron (file://) and in the browser. */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';
import { ANY_SERVICE_CONNECT_SRC, consoleContentSecurityPolicy } from '../core/api/src/console-policy.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The console's one Content-Security-Policy (core/api) as index.html's first meta tag: wherever no header
 * carries it, the page still has it before any script runs.
 */
export function consoleCspTags(): HtmlTagDescriptor[] {
  return [
    {
      tag: 'meta',
      attrs: {
        'http-equiv': 'Content-Security-Policy',
        content: consoleContentSecurityPolicy(ANY_SERVICE_CONNECT_SRC, 'meta'),
      },
      injectTo: 'head-prepend',
    },
  ];
}

const consoleCspMeta: Plugin = { name: 'qk-console-csp', transformIndexHtml: consoleCspTags };

export default defineConfig({
  root: `${root}renderer`,
  // Relative asset URLs: Electron loads index.html with loadFile (file://), the service serves it at /.
  base: './',
  plugins: [consoleCspMeta, react()],
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
