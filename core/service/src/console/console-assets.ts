/**
 * What the service serves at `/`: the console's static build (`dist/renderer`) when it exists, else a
 * minimal page that lists queues through the API, so a browser never meets a dead end.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ANY_SERVICE_CONNECT_SRC, consoleContentSecurityPolicy } from '@qk/api';
import { FALLBACK_PAGE_HTML, FALLBACK_PAGE_SCRIPT, FALLBACK_PAGE_STYLE } from './fallback-page.js';

/** Finds `dist/renderer` (with an index.html) above this module: from the bundle in dist/cli or from the sources. */
export function findConsoleDir(): string | undefined {
  const override = process.env['QK_CONSOLE_DIR'];
  if (override) return existsSync(join(override, 'index.html')) ? resolve(override) : undefined;
  // import.meta.url is empty in a CJS bundle without the define build/esbuild.mjs adds: then start from cwd.
  const here = import.meta.url as string | undefined;
  let dir = here ? dirname(fileURLToPath(here)) : process.cwd();
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'dist', 'renderer');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

const HOST_HEADER_RE = /^[A-Za-z0-9.\-[\]:]+$/;

function securityHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  fallbackHost: string,
  anyService: boolean,
  secure: boolean,
): void {
  const hostHeader = request.headers.host;
  const host = hostHeader && HOST_HEADER_RE.test(hostHeader) ? hostHeader : fallbackHost;
  reply.header(
    'content-security-policy',
    consoleContentSecurityPolicy(anyService ? ANY_SERVICE_CONNECT_SRC : `${secure ? 'wss' : 'ws'}://${host}`),
  );
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  reply.header('cross-origin-opener-policy', 'same-origin');
}

/** Serves the console (or the fallback page) at `/`, every response with the CSP. */
export async function registerConsole(
  app: FastifyInstance,
  options: { consoleDir: string | undefined; hostForCsp: () => string; secure: boolean },
): Promise<void> {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/'))
      securityHeaders(request, reply, options.hostForCsp(), options.consoleDir !== undefined, options.secure);
    return payload;
  });
  if (options.consoleDir) {
    await app.register(fastifyStatic, {
      root: options.consoleDir,
      prefix: '/',
      index: 'index.html',
      wildcard: true,
      dotfiles: 'deny',
    });
    return;
  }
  app.get('/', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(FALLBACK_PAGE_HTML),
  );
  app.get('/fallback.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(FALLBACK_PAGE_SCRIPT),
  );
  app.get('/fallback.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-store').send(FALLBACK_PAGE_STYLE),
  );
}
