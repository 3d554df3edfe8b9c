/**
 * The HTTP transport: `POST /api/v1/<op>` with the op's input as JSON, `Authorization: Bearer <token>`,
 * replies in the envelope with `httpStatusFor(code)`; the WebSocket channel and the console on the same port.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { API_PREFIX, httpStatusFor, type Envelope, type ErrorBody } from '@qk/api';
import { QkError } from '@qk/model';
import type { ServiceHost } from '../host/host.js';
import { findConsoleDir, registerConsole } from '../console/console-assets.js';
import { urlFor, type ListenAddress } from './listen-address.js';
import { bearerToken, tokenMatches } from '../host/token.js';
import { attachWebSocket, type WebSocketChannel } from './websocket-server.js';

/** 16 MB: an oversize message must reach the engine and get INSUFFICIENT_RESOURCES, not a transport error. */
export const HTTP_BODY_LIMIT = 16 * 1024 * 1024;

/** How long a stop waits for requests in flight before cutting their connections. */
const CLOSE_GRACE_MS = 2_000;

/** How the HTTP server is started. */
export interface HttpServerOptions {
  listen: ListenAddress;
  token: string;
  /** Folder of the console's static build; default: `dist/renderer` when it exists. `null` = fallback page only. */
  consoleDir?: string | null | undefined;
}

/** A listening HTTP server. */
export interface HttpServer {
  /** `http://HOST:PORT` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly app: FastifyInstance;
  readonly websocket: WebSocketChannel;
  /** The console URL with its token: `http://127.0.0.1:PORT/#token=TOKEN`. */
  readonly consoleUrl: string;
  /** Stops accepting, ends WebSocket connections, and waits for requests in flight. */
  close(): Promise<void>;
}

function errorEnvelope(error: ErrorBody): Envelope<never> {
  return { ok: false, error };
}

/** Maps fastify's own request errors (bad JSON, body too large, wrong media type) onto the contract's codes. */
function transportError(error: FastifyError): ErrorBody {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { code: 'INSUFFICIENT_RESOURCES', message: `The request is larger than ${HTTP_BODY_LIMIT} bytes.` };
  }
  if ((error.statusCode ?? 500) < 500)
    return { code: 'INVALID_PARAMETER', message: `Invalid request: ${error.message}` };
  return { code: 'INTERNAL', message: `Internal error: ${error.message}` };
}

/** Starts the HTTP + WebSocket server over a host. */
export async function startHttpServer(host: ServiceHost, options: HttpServerOptions): Promise<HttpServer> {
  const app = Fastify({
    logger: false,
    bodyLimit: HTTP_BODY_LIMIT,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  let boundHost = `${options.listen.host}:${options.listen.port}`;

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

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const body = transportError(error);
    return reply.code(httpStatusFor(body.code)).send(errorEnvelope(body));
  });

  // CORS: a console served by one service may administer another ("connect to another computer"). Safe with
  // `*` because every call needs the bearer token, which a foreign page does not have (no cookies are used).
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(`${API_PREFIX}/`)) return;
    reply.header('access-control-allow-origin', '*');
    if (request.method === 'OPTIONS') {
      return reply
        .code(204)
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', 'authorization, content-type')
        .header('access-control-max-age', '600')
        .send();
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(`${API_PREFIX}/`)) return;
    if (!tokenMatches(bearerToken(request.headers.authorization), options.token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send(
          errorEnvelope({
            code: 'UNAUTHORIZED',
            message: 'A valid token is required: Authorization: Bearer <token> (it is in DIR/token).',
          }),
        );
    }
  });

  app.post<{ Params: { op: string } }>(`${API_PREFIX}/:op`, async (request, reply) => {
    const { op } = request.params;
    // A long-polling receive stops waiting when its client goes away, so no message is taken for nobody.
    const aborter = new AbortController();
    const onClose = (): void => {
      if (!reply.raw.writableFinished) aborter.abort();
    };
    reply.raw.once('close', onClose);
    const envelope = await host.call(op, request.body, { signal: aborter.signal });
    reply.raw.off('close', onClose);
    return reply
      .code(envelope.ok ? 200 : httpStatusFor(envelope.error.code))
      .header('cache-control', 'no-store')
      .send(envelope);
  });

  app.setNotFoundHandler(async (request, reply) => {
    const body: ErrorBody = request.url.startsWith(API_PREFIX)
      ? {
          code: 'INVALID_PARAMETER',
          message: `No such endpoint: ${request.method} ${request.url}; operations are POST ${API_PREFIX}/<operation>.`,
        }
      : { code: 'INVALID_PARAMETER', message: `Not found: ${request.url}` };
    return reply.code(404).send(errorEnvelope(body));
  });

  const consoleDir = options.consoleDir === null ? undefined : (options.consoleDir ?? findConsoleDir());
  await registerConsole(app, { consoleDir, hostForCsp: () => boundHost });

  const websocket = attachWebSocket(app.server, host, options.token);
  try {
    await app.listen({ host: options.listen.host, port: options.listen.port });
  } catch (error) {
    await websocket.close();
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
  const url = urlFor(options.listen.host, address.port);
  boundHost = new URL(url).host;

  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    app,
    websocket,
    consoleUrl: `${url}/#token=${options.token}`,
    close() {
      // Requests still open after a grace period (a peer that never reads its reply) must not hold up a stop.
      const force = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      force.unref();
      closing ??= Promise.all([websocket.close(), app.close()]).then(() => clearTimeout(force));
      return closing;
    },
  };
}
