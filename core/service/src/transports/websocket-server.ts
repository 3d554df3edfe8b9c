/**
 * The WebSocket channel on `/api/v1/ws`: many `call` frames in flight at once, results in whatever order
 * they finish (how applications keep many sends/receives going), and `event` frames for subscribers.
 */
import { setMaxListeners } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { clientFrameSchema, toErrorBody, WEBSOCKET_PATH, type QkEvent } from '@qk/api';
import type { ServiceHost } from '../host/host.js';
import { bearerToken, tokenMatches } from '../host/token.js';

/** A peer that buffers more than this without reading is cut off instead of growing our memory. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
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

/** A frame's text, whichever of ws's buffer shapes it came in. */
function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8');
}

function rejectUpgrade(socket: Duplex, status: number, text: string): void {
  const body = JSON.stringify({
    ok: false,
    error: { code: status === 401 ? 'UNAUTHORIZED' : 'INVALID_PARAMETER', message: text },
  });
  socket.end(
    `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Serves the WebSocket channel on the given HTTP server, authenticated by the same token as HTTP. */
export function attachWebSocket(server: Server, host: ServiceHost, token: string): WebSocketChannel {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  let nextConnection = 1;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== WEBSOCKET_PATH)
      return rejectUpgrade(socket, 404, `No WebSocket endpoint at ${url.pathname}; use ${WEBSOCKET_PATH}.`);
    // Browsers cannot set headers on a WebSocket, hence `?token=` besides the Authorization header.
    const presented = bearerToken(request.headers.authorization) ?? url.searchParams.get('token') ?? undefined;
    if (!tokenMatches(presented, token))
      return rejectUpgrade(socket, 401, 'A valid token is required (Authorization: Bearer <token> or ?token=).');
    wss.handleUpgrade(request, socket, head, (ws) => serveConnection(ws, host, `ws-${nextConnection++}`));
  };
  server.on('upgrade', onUpgrade);

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      const alive = ws as WebSocket & { qkAlive?: boolean };
      if (alive.qkAlive === false) {
        ws.terminate();
        continue;
      }
      alive.qkAlive = false;
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

function serveConnection(ws: WebSocket, host: ServiceHost, connectionId: string): void {
  const aborter = new AbortController();
  // Every waiting receive of the connection listens on this one signal; hundreds in flight is normal use.
  setMaxListeners(0, aborter.signal);
  let unsubscribe: (() => void) | undefined;
  (ws as WebSocket & { qkAlive?: boolean }).qkAlive = true;
  ws.on('pong', () => {
    (ws as WebSocket & { qkAlive?: boolean }).qkAlive = true;
  });

  const send = (frame: object): void => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(1013, 'peer is not reading its frames');
      return;
    }
    ws.send(JSON.stringify(frame));
  };

  ws.on('message', (data: RawData) => {
    let raw: unknown;
    try {
      raw = JSON.parse(frameText(data));
    } catch {
      ws.close(1007, 'frames must be JSON');
      return;
    }
    const parsed = clientFrameSchema.safeParse(raw);
    if (!parsed.success) {
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id === 'number' && Number.isInteger(id)) {
        send({
          type: 'result',
          id,
          ok: false,
          error: { code: 'INVALID_PARAMETER', message: 'Invalid frame: expected {type:"call", id, op, input}.' },
        });
      } else {
        ws.close(1008, 'invalid frame');
      }
      return;
    }
    const frame = parsed.data;
    switch (frame.type) {
      case 'call':
        host
          .call(frame.op, frame.input, { signal: aborter.signal, connectionId })
          .then((envelope) => {
            // A transaction begun while the socket was closing would otherwise be orphaned.
            if (aborter.signal.aborted) host.transactions.connectionClosed(connectionId);
            send({ type: 'result', id: frame.id, ...envelope });
          })
          .catch((error: unknown) => {
            // call() turns operation errors into envelopes; what reaches here broke after it (audit, send).
            process.stderr.write(`qk service: ${frame.op} call over WebSocket failed: ${String(error)}\n`);
            send({ type: 'result', id: frame.id, ok: false, error: toErrorBody(error) });
          });
        return;
      case 'subscribe':
        unsubscribe ??= host.subscribe((event: QkEvent) => send({ type: 'event', event }));
        return;
      case 'unsubscribe':
        unsubscribe?.();
        unsubscribe = undefined;
        return;
    }
  });

  ws.on('close', () => {
    aborter.abort();
    unsubscribe?.();
    unsubscribe = undefined;
    // A transaction cannot outlive the connection that began it: nobody is left to commit it.
    host.transactions.connectionClosed(connectionId);
  });
  ws.on('error', () => {
    // 'close' follows and cleans up.
  });
}
