/**
 * Kept-alive connections close later than their replies say (issue 7: the API fuzz's "other side closed").
 *
 * HTTP/1.1 keep-alive has a race every server must leave room for: the server closes an idle connection at the
 * moment the client sends its next request on it, and that request is lost ("fetch failed <- other side
 * closed", EPIPE, ECONNRESET). Each reply says how long the connection stays open (`Keep-Alive: timeout=N`);
 * Node 20's fetch (undici) drops an idle connection 1 s before N by a coarse timer, and Node 20.20 closes it
 * 1 s after N (its own small buffer, nodejs/node#54863). Two seconds of margin: a client whose loop was busy
 * for two seconds at the wrong moment — or a service that was (after a stall Node runs due timers before it
 * reads its sockets) — loses a request it already sent. Node 24 made the buffer a setting
 * (`keepAliveTimeoutBuffer`); here an idle connection stays open KEEP_ALIVE_GRACE_MS past what replies say.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** What replies advertise (`Keep-Alive: timeout=72`): Fastify's default, unchanged for clients. */
export const KEEP_ALIVE_MS = 72_000;
/** How much longer an idle connection really stays open: larger than any stall the service should have. */
export const KEEP_ALIVE_GRACE_MS = 10_000;

export interface KeepAliveOptions {
  /** Advertised idle time (ms); default KEEP_ALIVE_MS. */
  advertisedMs?: number | undefined;
  /** Extra time before an idle connection is really closed (ms); default KEEP_ALIVE_GRACE_MS. */
  graceMs?: number | undefined;
}

/**
 * Makes `server` close idle kept-alive connections `graceMs` after the time its replies advertise. The server's
 * `keepAliveTimeout` must already be `advertisedMs` (it is what Node writes in the header).
 */
export function extendKeepAlive(server: Server, graceMs: number): void {
  if (graceMs <= 0) return;
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    response.once('finish', () => {
      // Node's own 'finish' listener (registered before 'request' was emitted) has just armed the keep-alive
      // timer (the advertised time, plus Node's own second) when the connection stays open; only that is lengthened.
      const advertised = server.keepAliveTimeout;
      const armed = socket.timeout;
      const keptAlive = armed !== undefined && armed >= advertised && armed < advertised + graceMs;
      if (advertised > 0 && keptAlive && !socket.destroyed) socket.setTimeout(advertised + graceMs);
    });
  });
}
