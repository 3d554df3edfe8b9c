/** A `ws` WebSocket as the call protocol's transport, on the service's side and on the Node client's (Node only). */
import type { RawData, WebSocket } from 'ws';
import type { FrameSink, FrameTransport } from '../transport.js';

/** Wraps an open socket; frames it reads go to the sink returned by `attach`. */
export function wsTransport(ws: WebSocket): FrameTransport & { attach(sink: FrameSink): void } {
  return {
    send: (text) =>
      new Promise<void>((resolve, reject) => {
        if (ws.readyState !== ws.OPEN) return reject(new Error('the WebSocket is not open'));
        // The callback runs once the frame is written to the socket (or the socket failed).
        ws.send(text, (error) => (error ? reject(error) : resolve()));
      }),
    bufferedBytes: () => ws.bufferedAmount,
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

function frameText(data: RawData, isBinary: boolean): string {
  if (!isBinary && Buffer.isBuffer(data)) return data.toString('utf8');
  const chunks = Array.isArray(data) ? data : [Buffer.from(data as ArrayBuffer)];
  return Buffer.concat(chunks).toString('utf8');
}
