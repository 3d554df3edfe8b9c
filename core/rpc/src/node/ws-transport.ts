/** A `ws` WebSocket as the call protocol's transport, on the service's side and on the Node client's (Node only). */
import type { Socket } from 'node:net';
import type { RawData, WebSocket } from 'ws';
import type { FrameSink, FrameTransport, SendOptions } from '../transport.js';

/** Wraps an open socket; frames it reads go to the sink returned by `attach`. */
export function wsTransport(ws: WebSocket): FrameTransport & { attach(sink: FrameSink): void } {
  const coalesce = frameCoalescer(ws);
  return {
    send: (text: string, options?: SendOptions) =>
      new Promise<void>((resolve, reject) => {
        if (ws.readyState !== ws.OPEN) return reject(new Error('the WebSocket is not open'));
        coalesce.hold();
        // The callback runs once the frame is written to the socket (or the socket failed).
        ws.send(text, (error) => (error ? reject(error) : resolve()));
        coalesce.sent(options?.now === true);
      }),
    // A connection on its way out has no room, whatever its buffer says: ws empties the buffer of a socket that
    // failed before it reports the close, and a reply prepared then could not leave.
    bufferedBytes: () => (ws.readyState === ws.OPEN && !socketOf(ws)?.destroyed ? ws.bufferedAmount : Infinity),
    setReading: (reading) => (reading ? ws.resume() : ws.pause()),
    close: (code, reason) => ws.close(code, reason),
    attach(sink) {
      ws.on('message', (data: RawData, isBinary: boolean) => sink.frame(frameText(data, isBinary)));
      ws.on('close', (code: number, reason: Buffer) =>
        sink.closed(`${code}${reason.length ? ` ${reason.toString()}` : ''}`),
      );
    },
  };
}

/**
 * Frames one write carries at most. Holding a whole turn made the two ends take turns: a hundred replies left in
 * one write only once all were made, and the client sent its next hundred calls only once it had read them all,
 * each side idle while the other worked. In parts of 32 (8 to 64 measured alike) they overlap: W2's 100 sends in
 * flight 8,800 → 11,200 msg/s, the drain by 100 single receives 8,400 → 10,400, W5's sends without waiting
 * 12,200 → 14,600 (issue 11, 2 cores).
 */
export const FRAMES_PER_WRITE = 32;

/**
 * Frames sent in the same turn of the event loop leave together, FRAMES_PER_WRITE to a write: a group commit
 * answers thousands of sends at once, and one system call per reply was the service's largest single cost (W5,
 * issue 11). The socket is corked at the first frame and uncorked at every FRAMES_PER_WRITE-th and once the
 * turn's callbacks and promise jobs have run, so nothing waits for a later turn; a frame sent `now` takes what
 * is held with it at once. `ws` does not expose its socket; without one, frames go one by one.
 */
function frameCoalescer(ws: WebSocket): { hold(): void; sent(now: boolean): void } {
  let corked: Socket | null = null;
  let held = 0;
  const release = (): void => {
    const socket = corked;
    corked = null;
    held = 0;
    if (socket && !socket.destroyed) socket.uncork();
  };
  let releaseScheduled = false;
  return {
    /** Before a frame: the socket holds what is written until the turn ends or enough is held. */
    hold() {
      if (corked) return;
      const socket = socketOf(ws);
      if (!socket || socket.destroyed || typeof socket.cork !== 'function') return;
      socket.cork();
      corked = socket;
      if (releaseScheduled) return;
      releaseScheduled = true;
      setImmediate(() => {
        releaseScheduled = false;
        release();
      });
    },
    /**
     * After a frame. A long turn's frames leave in parts, so the other side starts on the first while this one
     * makes the rest; a frame sent `now` leaves at once, with everything held before it (in order).
     */
    sent(now: boolean) {
      if (corked && (now || ++held >= FRAMES_PER_WRITE)) release();
    },
  };
}

/** `ws` keeps its socket private; null when there is none (a closed socket, another implementation). */
function socketOf(ws: WebSocket): Socket | null {
  return (ws as unknown as { _socket?: Socket | null })._socket ?? null;
}

function frameText(data: RawData, isBinary: boolean): string {
  if (!isBinary && Buffer.isBuffer(data)) return data.toString('utf8');
  const chunks = Array.isArray(data) ? data : [Buffer.from(data as ArrayBuffer)];
  return Buffer.concat(chunks).toString('utf8');
}
