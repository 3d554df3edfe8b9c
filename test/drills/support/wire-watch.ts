/**
 * What the drill's own side saw around a call that got no answer, so a finding says whose fault it was:
 * - the harness's event loop: a timer's drift, sampled every few ms (a harness busy generating a huge input
 *   cannot read an answer that already came, and its timeouts then fire first);
 * - the connection fetch used: how long it had been idle before the request went out on it (a socket kept
 *   alive past the service's keep-alive timeout is closed under the request: "other side closed"). Read from
 *   undici's diagnostics channels, which Node's fetch publishes.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

const SAMPLE_MS = 20;
/** Drift above this is kept as a stall of the harness's loop. */
const STALL_MS = 200;
const KEPT_STALLS = 2_000;

interface SocketUse {
  /** When its latest request was sent, and when the one before it completed. */
  sentAt: number;
  idleBeforeMs: number | null;
  doneAt: number | null;
  requests: number;
}

const stalls: { at: number; ms: number }[] = [];
const byPort = new Map<number, SocketUse>();
const requestSockets = new WeakMap<object, Socket>();
let started = false;

/** Starts watching (idempotent); the timer never keeps the process alive. */
export function watchWire(): void {
  if (started) return;
  started = true;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const drift = now - last - SAMPLE_MS;
    last = now;
    if (drift >= STALL_MS) {
      stalls.push({ at: Date.now(), ms: Math.round(drift) });
      if (stalls.length > KEPT_STALLS) stalls.shift();
    }
  }, SAMPLE_MS).unref();
  subscribe('undici:client:sendHeaders', (message) => {
    const { request, socket } = message as { request: object; socket: Socket };
    requestSockets.set(request, socket);
    const port = socket.localPort;
    if (port === undefined) return;
    const now = Date.now();
    const previous = byPort.get(port);
    byPort.set(port, {
      sentAt: now,
      idleBeforeMs: previous?.doneAt != null ? now - previous.doneAt : null,
      doneAt: null,
      requests: (previous?.requests ?? 0) + 1,
    });
  });
  subscribe('undici:request:trailers', (message) => {
    const socket = requestSockets.get((message as { request: object }).request);
    const use = socket?.localPort !== undefined ? byPort.get(socket.localPort) : undefined;
    if (use) use.doneAt = Date.now();
  });
}

/** The longest stall of the harness's loop between two times (epoch ms), 0 when none. */
export function harnessStallBetween(from: number, to: number): number {
  let longest = 0;
  // A stall is recorded when it ends; it covered [at - ms, at].
  for (const s of stalls) if (s.at >= from && s.at - s.ms <= to) longest = Math.max(longest, s.ms);
  return longest;
}

/** What is known of the connection a failed request used (from the error's cause), or null. */
export function socketUseOf(error: unknown): (SocketUse & { localPort: number }) | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const socket = (current as Error & { socket?: { localPort?: number } }).socket;
    if (socket?.localPort !== undefined) {
      const use = byPort.get(socket.localPort);
      return use ? { ...use, localPort: socket.localPort } : null;
    }
    current = (current as Error & { cause?: unknown }).cause;
  }
  return null;
}
