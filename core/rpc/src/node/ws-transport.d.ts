/** A `ws` WebSocket as the call protocol's transport, on the service's side and on the Node client's (Node only). */
import type { WebSocket } from 'ws';
import type { FrameSink, FrameTransport } from '../transport.js';
/** Wraps an open socket; frames it reads go to the sink returned by `attach`. */
export declare function wsTransport(ws: WebSocket): FrameTransport & {
  attach(sink: FrameSink): void;
};
