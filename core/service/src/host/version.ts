/** The product version, injected by the esbuild bundle; unbundled runs (tests) read as a dev build. */
declare const __QK_VERSION__: string | undefined;

/** Version shown by `serviceStatus` and `qk --version`. */
export const productVersion: string = typeof __QK_VERSION__ === 'string' ? __QK_VERSION__ : '0.1.0-dev';
