/** In-memory transports for the protocol's unit tests (the real ones are tested against a real socket). */
import { RpcClient, serveRpc, type FrameSink, type FrameTransport, type RpcHandler, type SendOptions } from '@qk/rpc';

/** What the tests read of a sent frame. */
export interface SeenFrame {
  type: string;
  id?: number;
  error?: { code: string; message: string };
  [field: string]: unknown;
}

/** One end of a connection: records what it sends; the test decides how far behind its reader is. */
export class FakeTransport implements FrameTransport {
  readonly sent: string[] = [];
  /** The frames sent to leave at once (`now`), in order. */
  readonly sentNow: string[] = [];
  buffered = 0;
  reading = true;
  closedWith: { code: number; reason: string } | undefined;
  failSends = false;
  /** Where sent frames go (the other end), after a microtask as a real transport would. */
  peer: FrameSink | undefined;

  /** With holdSends, a send stays pending (written into a full socket) until breakConnection or releaseSends. */
  holdSends = false;
  private readonly pending: { resolve: () => void; reject: (error: Error) => void }[] = [];

  send(text: string, options?: SendOptions): Promise<void> {
    if (this.failSends || this.closedWith) return Promise.reject(new Error('socket closed'));
    this.sent.push(text);
    if (options?.now) this.sentNow.push(text);
    const peer = this.peer;
    if (peer) queueMicrotask(() => peer.frame(text));
    if (this.holdSends) return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
    return Promise.resolve();
  }

  /** The socket dies as ws reports it: pending sends fail and the buffer empties before any close is reported. */
  breakConnection(): void {
    this.failSends = true;
    this.buffered = 0;
    for (const send of this.pending.splice(0)) send.reject(new Error('write ECONNRESET'));
  }

  bufferedBytes(): number {
    return this.buffered;
  }

  setReading(reading: boolean): void {
    this.reading = reading;
  }

  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
  }

  /** Sent frames, parsed (the ends check frames with their schemas; the tests only look at them). */
  frames(): SeenFrame[] {
    return this.sent.map((text) => JSON.parse(text) as SeenFrame);
  }
}

/** Lets queued microtasks and promise chains run. */
export const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/**
 * A client and a server connected through in-memory transports. `serverLimit` caps the server's calls in flight
 * (its default otherwise); `maxCallsInFlight` is the client's own queueing limit.
 */
export function connect(handler: RpcHandler, options: { maxCallsInFlight?: number; serverLimit?: number } = {}) {
  const toServer = new FakeTransport();
  const toClient = new FakeTransport();
  const limits = options.serverLimit === undefined ? undefined : { maxCallsInFlight: options.serverLimit };
  const server = serveRpc(toClient, { handler, limits });
  const client = new RpcClient(toServer, { maxCallsInFlight: options.maxCallsInFlight });
  toServer.peer = server;
  toClient.peer = client;
  return { client, server, toServer, toClient };
}
