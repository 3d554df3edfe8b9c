/**
 * What `npm start` (build/start.mjs, a plain script that runs the build first) needs to know about the data
 * folder, from the one definition of each: which folder (`--data`, QK_DATA, else the per-user default) and
 * whether a service runs there. Bundled as dist/cli/data-folder.mjs.
 */
export { dataDirFor, readServiceEndpoint } from '@qk/client';
