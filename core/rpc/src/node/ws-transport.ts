/** A `ws` WebSocket as the call protocol's transport, on the service's side and on the Node client's (Node only). */
import type { Socket } from 'node:net';
import type { RawData, WebSocket } from 'ws';
import type { FrameSink, FrameTransport } from '../transport.js';

/** Wraps an open socket; frames it reads go to the sink returned by `attach`. */
export function wsTransport(ws: WebSocket): FrameTransport & { attach(sink: FrameSink): void } {
  const coalesce = frameCoalescer(ws);
  return {
    send: (text) =>
      new Promise<void>((resolve, reject) => {
        if (ws.readyState !== ws.OPEN) return reject(new Error('the WebSocket is not open'));
        coalesce();
        // The callback runs once the frame is written to the socket (or the socket failed).
        ws.send(text, (error) => (error ? reject(error) : resolve()));
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
 * Frames sent in the same turn of the event loop leave in one write: a group commit answers thousands of
 * sends at once, and one system call per reply was the service's largest single cost (W5, issue 11). The
 * socket is corked at the first frame and uncorked once the turn's callbacks and promise jobs have run, so
 * nothing waits for a later turn. `ws` does not expose its socket; without one, frames go one by one.
 */
function frameCoalescer(ws: WebSocket): () => void {
  let corked: Socket | null = null;
  const release = (): void => {
    const socket = corked;
    corked = null;
    if (socket && !socket.destroyed) socket.uncork();
  };
  return () => {
    if (corked) return;
    const socket = socketOf(ws);
    if (!socket || socket.destroyed || typeof socket.cork !== 'function') return;
    socket.cork();
    corked = socket;
    setImmediate(release);
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
