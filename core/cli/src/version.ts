/** The product version, injected by the esbuild bundle; unbundled runs (tests) read as a dev build. */
declare const __QK_VERSION__: string | undefined;

/** What `qk --version` prints. */
export const cliVersion: string = typeof __QK_VERSION__ === 'string' ? __QK_VERSION__ : '0.1.0-dev';
