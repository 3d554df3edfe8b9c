/**
 * The WebSocket channel on `/api/v1/ws`: the call protocol of core/rpc over one socket — many calls in
 * flight, results in whatever order they finish, cancel, events for subscribers. The token comes in the
 * upgrade's Authorization header or in the first frame, never in the URL; who may upgrade at all (Host,
 * Origin) is decided by the HTTP server's guard before this runs.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { WEBSOCKET_PATH, type QkEvent } from '@qk/api';
import { BATCH_REPLY_LIMIT, serveRpc, type RpcCallContext, type RpcLogger } from '@qk/rpc';
import { wsTransport } from '@qk/rpc/node';
import type { ServiceHost } from '../host/host.js';
import { DELIVERING_OPERATIONS, type CallContext } from '../host/handlers.js';
import { bearerToken } from '../host/token.js';

const HEARTBEAT_MS = 30_000;
/** Room for a 4 MB message in base64 plus its properties, with margin. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** The attached WebSocket server. */
export interface WebSocketChannel {
  /** Open connections right now. */
  readonly connections: number;
  /** Closes every connection (1001 going away) and stops accepting new ones. */
  close(): Promise<void>;
}

export interface WebSocketOptions {
  /** Whether a presented token opens a connection (the service's, or a console session's). */
  accepts(token: string | undefined): boolean;
  logger: RpcLogger;
  /** Decides whether an upgrade request may go on (Host and Origin); a refusal's status and message. */
  admit(request: IncomingMessage): { status: number; code: string; message: string } | null;
}

function rejectUpgrade(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ ok: false, error: { code, message } });
  const reason = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

interface Liveness {
  pong: boolean;
  buffered: number;
}

/** Serves the WebSocket channel on the given HTTP server. */
export function attachWebSocket(server: Server, host: ServiceHost, options: WebSocketOptions): WebSocketChannel {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  const liveness = new WeakMap<WebSocket, Liveness>();
  let nextConnection = 1;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => undefined);
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== WEBSOCKET_PATH)
      return rejectUpgrade(socket, 404, 'INVALID_PARAMETER', `No WebSocket endpoint here; use ${WEBSOCKET_PATH}.`);
    const refused = options.admit(request);
    if (refused) return rejectUpgrade(socket, refused.status, refused.code, refused.message);
    if (url.searchParams.has('token')) {
      // A token in a URL ends up in logs and histories: refused even when it is right.
      return rejectUpgrade(
        socket,
        401,
        'UNAUTHORIZED',
        'The token is never taken from the URL: send it as Authorization: Bearer <token> or in the first frame.',
      );
    }
    const header = request.headers.authorization;
    if (header !== undefined && !options.accepts(bearerToken(header)))
      return rejectUpgrade(socket, 401, 'UNAUTHORIZED', 'The token in the Authorization header was refused.');
    wss.handleUpgrade(request, socket, head, (ws) => {
      liveness.set(ws, { pong: true, buffered: 0 });
      ws.on('pong', () => {
        const state = liveness.get(ws);
        if (state) state.pong = true;
      });
      serveConnection(ws, host, options, `ws-${nextConnection++}`, header !== undefined);
    });
  };
  server.on('upgrade', onUpgrade);

  // A peer that neither answers pings nor takes any of what it was sent is gone: cutting it releases what
  // its receives hold. One that reads slowly (its backlog shrinks) is kept, however long it takes; so is one
  // whose frames we stopped reading while its calls run (its pongs wait unread behind them, and nothing of
  // ours waits for it).
  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      const state = liveness.get(ws) ?? { pong: false, buffered: 0 };
      const draining = ws.bufferedAmount < state.buffered;
      const heldByUs = ws.isPaused && ws.bufferedAmount === 0;
      if (!state.pong && !draining && !heldByUs) {
        ws.terminate();
        continue;
      }
      liveness.set(ws, { pong: false, buffered: ws.bufferedAmount });
      ws.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    get connections() {
      return wss.clients.size;
    },
    close() {
      clearInterval(heartbeat);
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.close(1001, 'service stopping');
      return new Promise((resolve) => {
        // Peers that do not answer the close handshake are cut after a short grace period.
        const force = setTimeout(() => {
          for (const ws of wss.clients) ws.terminate();
        }, 1_000);
        force.unref();
        wss.close(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}

function serveConnection(
  ws: WebSocket,
  host: ServiceHost,
  options: WebSocketOptions,
  connectionId: string,
  authenticated: boolean,
): void {
  const transport = wsTransport(ws);
  let closed = false;
  const sink = serveRpc(transport, {
    connectionId,
    logger: options.logger,
    authenticate: authenticated ? undefined : (token) => options.accepts(token),
    handler: {
      async call(op, input, context) {
        const envelope = await host.call(op, input, new SocketCallContext(context, connectionId));
        // A transaction begun while the socket was closing would otherwise be orphaned.
        if (closed) host.transactions.connectionClosed(connectionId);
        return envelope;
      },
      subscribe: (listener) => host.subscribe((event: QkEvent) => listener(event)),
      isDestructive: (op) => DELIVERING_OPERATIONS.has(op),
      closed() {
        closed = true;
        // A transaction cannot outlive the connection that began it: nobody is left to commit it.
        host.transactions.connectionClosed(connectionId);
      },
    },
  });
  transport.attach(sink);
  ws.on('error', (error) => {
    options.logger.info({ connection: connectionId, err: { message: error.message } }, 'WebSocket error');
  });
}

/**
 * A call's context as the host takes it. The signal is read only by the calls that use it (the connection makes a
 * call's AbortController on demand); a class, because an object literal with that getter took V8 about 0.6 µs
 * to make, for every call (issue 11).
 */
class SocketCallContext implements CallContext {
  readonly deliver: CallContext['deliver'];
  readonly replyLimit = BATCH_REPLY_LIMIT;
  readonly stream: CallContext['stream'];

  constructor(
    private readonly rpc: RpcCallContext,
    readonly connectionId: string,
  ) {
    this.deliver = rpc.deliver;
    this.stream = { id: rpc.id, reader: rpc.stream };
  }

  get signal(): AbortSignal {
    return this.rpc.signal;
  }
}
