/**
 * The HTTP transport: the API (api-routes.ts), the WebSocket channel, the console pages and their one-time
 * codes, on one port — plain HTTP on loopback, TLS when the service listens beyond it. Every request first
 * passes the Host and Origin checks of access.ts.
 */
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import { API_PREFIX, type Envelope, type ErrorBody } from '@qk/api';
import { QkError, silentLogger } from '@qk/model';
import type { RpcLogger } from '@qk/rpc';
import type { ServiceHost } from '../host/host.js';
import { findConsoleDir, registerConsole } from '../console/console-assets.js';
import { registerConsoleSession } from '../console/console-session.js';
import { Access } from './access.js';
import { bearerToken } from '../host/token.js';
import { answerClientError } from './client-error.js';
import { HTTP_BODY_LIMIT, registerApi, UNAUTHORIZED } from './api-routes.js';
import { RequestLogController } from './http-log.js';
import { extendKeepAlive, KEEP_ALIVE_GRACE_MS, KEEP_ALIVE_MS, type KeepAliveOptions } from './keep-alive.js';
import { urlFor, type ListenAddress } from './listen-address.js';
import { attachWebSocket, type WebSocketChannel } from './websocket-server.js';

/** How long a stop waits for requests in flight before cutting their connections. */
const CLOSE_GRACE_MS = 2_000;

/** How the HTTP server is started. */
export interface HttpServerOptions {
  listen: ListenAddress;
  token: string;
  /** Folder of the console's static build; default: `dist/renderer` when it exists. `null` = fallback page only. */
  consoleDir?: string | null | undefined;
  /** Certificate and key (PEM) to serve HTTPS; required beyond loopback (the runner checks). */
  tls?: { cert: string | Buffer; key: string | Buffer } | undefined;
  /** Host names besides loopback ones that requests may name (the listen host is added). */
  allowedHosts?: readonly string[] | undefined;
  /** Origins of consoles served elsewhere that may call this service (`--allow-origin`). */
  allowedOrigins?: readonly string[] | undefined;
  logger?: RpcLogger | undefined;
  /** The service's pino logger (host/logger.ts): Fastify logs through it, each request only at debug. */
  httpLogger?: FastifyBaseLogger | undefined;
  /** Idle times of kept-alive connections (keep-alive.ts); tests shorten them. */
  keepAlive?: KeepAliveOptions | undefined;
}

/** A listening HTTP server. */
export interface HttpServer {
  /** `http(s)://HOST:PORT` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly app: FastifyInstance;
  readonly websocket: WebSocketChannel;
  readonly access: Access;
  /** A fresh console link with a one-time code (valid for a minute, once): `http://127.0.0.1:PORT/#code=…`. */
  consoleLink(): string;
  /** Stops accepting, ends WebSocket connections, and waits for requests in flight. */
  close(): Promise<void>;
}

function errorEnvelope(error: ErrorBody): Envelope<never> {
  return { ok: false, error };
}

/** Maps fastify's own request errors (bad JSON, body too large, wrong media type) onto the contract's codes. */
function transportError(error: FastifyError): { status: number; body: ErrorBody } {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 413,
      body: { code: 'INSUFFICIENT_RESOURCES', message: `The request is larger than ${HTTP_BODY_LIMIT} bytes.` },
    };
  }
  const status = error.statusCode ?? 500;
  if (status < 500)
    return { status, body: { code: 'INVALID_PARAMETER', message: `Invalid request: ${error.message}` } };
  return { status: 500, body: { code: 'INTERNAL', message: `Internal error: ${error.message}` } };
}

function answerUnroutable(error: FastifyError, _request: unknown, reply: { raw: ServerResponse }): void {
  const text = JSON.stringify(
    errorEnvelope({ code: 'INVALID_PARAMETER', message: `Invalid request: ${error.message}.` }),
  );
  reply.raw.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  reply.raw.end(text);
}

/** Starts the HTTP + WebSocket server over a host. */
export async function startHttpServer(host: ServiceHost, options: HttpServerOptions): Promise<HttpServer> {
  const logger = options.logger ?? silentLogger;
  const scheme = options.tls ? 'https' : 'http';
  const access = new Access({
    token: options.token,
    scheme,
    hosts: options.allowedHosts,
    origins: options.allowedOrigins,
  });
  if (!['0.0.0.0', '::'].includes(options.listen.host)) access.allowHost(options.listen.host);
  const app = Fastify({
    ...(options.httpLogger
      ? { loggerInstance: options.httpLogger, logController: new RequestLogController() }
      : { logger: false }),
    bodyLimit: HTTP_BODY_LIMIT,
    keepAliveTimeout: options.keepAlive?.advertisedMs ?? KEEP_ALIVE_MS,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    clientErrorHandler: answerClientError,
    // A URL fastify cannot route (a malformed percent-encoding): the contract's error shape, not fastify's.
    frameworkErrors: answerUnroutable,
    ...(options.tls ? { https: { cert: options.tls.cert, key: options.tls.key } } : {}),
  }) as unknown as FastifyInstance;
  let boundHost = `${options.listen.host}:${options.listen.port}`;
  extendKeepAlive(app.server, options.keepAlive?.graceMs ?? KEEP_ALIVE_GRACE_MS);

  // An empty body is the empty input `{}`: most operations take no parameters.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: HTTP_BODY_LIMIT },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, {});
      try {
        done(null, JSON.parse(text));
      } catch {
        const error = new Error('the body is not valid JSON') as FastifyError;
        error.statusCode = 400;
        done(error, undefined);
      }
    },
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = transportError(error);
    if (status >= 500)
      logger.error({ url: request.url, err: { message: error.message, stack: error.stack } }, 'request failed');
    return reply.code(status).send(errorEnvelope(body));
  });

  // Every request is tracked from its first byte to its socket's close, so a stall while its body is parsed
  // or its reply serialized names it (the operation itself is timed by the host).
  app.addHook('onRequest', async (request, reply) => {
    const length = Number(request.headers['content-length']);
    const ended = host.monitor.begin(
      `${request.method} request`,
      { path: request.url },
      { inputBytes: Number.isSafeInteger(length) ? length : undefined },
      { logSlow: false },
    );
    reply.raw.once('close', () => ended({ ok: reply.raw.statusCode < 400 }));
  });

  // Host and Origin first, for every request whatever it asks for (DNS rebinding, foreign pages).
  app.addHook('onRequest', async (request, reply) => {
    const hostHeader = request.headers.host;
    const origin = request.headers.origin;
    const refused = access.checkHost(hostHeader) ?? access.checkOrigin(origin, hostHeader);
    if (refused)
      return reply.code(refused.status).send(errorEnvelope({ code: refused.code, message: refused.message }));
    if (access.isAllowedForeignOrigin(origin, hostHeader)) {
      reply.header('access-control-allow-origin', origin).header('vary', 'origin');
      if (request.method === 'OPTIONS') {
        return reply
          .code(204)
          .header('access-control-allow-methods', 'POST')
          .header('access-control-allow-headers', 'authorization, content-type')
          .header('access-control-max-age', '600')
          .send();
      }
    }
  });

  await registerApi(app, { host, access, logger });
  await registerConsoleSession(app, { access, consoleLink: () => consoleLink() });

  app.setNotFoundHandler(async (request, reply) => {
    // Under the API, however it is spelled, no answer but the refusal without the token: not even which paths exist.
    if (
      request.url.toLowerCase().startsWith('/api') &&
      !access.acceptsToken(bearerToken(request.headers.authorization))
    )
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .header('cache-control', 'no-store')
        .send(errorEnvelope(UNAUTHORIZED));
    const body: ErrorBody = request.url.startsWith(API_PREFIX)
      ? {
          code: 'INVALID_PARAMETER',
          message: `No such endpoint: ${request.method} ${request.url}; operations are POST ${API_PREFIX}/<operation>.`,
        }
      : { code: 'INVALID_PARAMETER', message: `Not found: ${request.url}` };
    return reply.code(404).send(errorEnvelope(body));
  });

  const consoleDir = options.consoleDir === null ? undefined : (options.consoleDir ?? findConsoleDir());
  await registerConsole(app, { consoleDir, hostForCsp: () => boundHost, secure: options.tls !== undefined });

  const websocket = attachWebSocket(app.server, host, {
    logger,
    accepts: (token) => access.acceptsToken(token),
    admit: (request) =>
      access.checkHost(request.headers.host) ?? access.checkOrigin(request.headers.origin, request.headers.host),
  });
  try {
    await app.listen({ host: options.listen.host, port: options.listen.port });
  } catch (error) {
    await websocket.close();
    // Closing what never listened is best effort; the listen error below is what the caller must see.
    await app.close().catch(() => undefined);
    const reason =
      (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
        ? 'the address is already in use'
        : (error as Error).message;
    throw new QkError(
      'SERVICE_NOT_AVAILABLE',
      `Cannot listen on ${options.listen.host}:${options.listen.port}: ${reason}.`,
    );
  }
  const address = app.server.address() as AddressInfo;
  const url = urlFor(options.listen.host, address.port, scheme);
  boundHost = new URL(url).host;
  const consoleLink = (): string => `${url}/#code=${access.mintCode()}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    app,
    websocket,
    access,
    consoleLink,
    close() {
      // Requests still open after a grace period (a peer that never reads its reply) must not hold up a stop.
      const force = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      force.unref();
      closing ??= Promise.all([websocket.close(), app.close()]).then(() => clearTimeout(force));
      return closing;
    },
  };
}
