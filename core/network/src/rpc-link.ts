/**
 * The peer link's call channel: core/rpc's call protocol (frames, correlation, cancel, in-flight limits,
 * backpressure) over a TLS socket framed by frame-socket.ts — the one protocol every connection uses — and,
 * beside its calls, protocol 3's attachments as binary frames.
 */
import type { TLSSocket } from 'node:tls';
import { RpcClient, serveRpc, type RpcLogger } from '@qk/rpc';
import type { ChannelFactory, PeerCallHandler, PeerChannel } from './channel.js';
import { frameSocket, type FrameSink } from './frame-socket.js';
import type { NetworkLog } from './log.js';

/** A peer session's calls carry up to 1,000 messages of up to 4 MB each: the limits are those of a frame. */
const PEER_LIMITS = {
  maxCallsInFlight: 64,
  maxReplyBytes: 64 * 1024 * 1024,
  maxInputBytesInFlight: 256 * 1024 * 1024,
};

function rpcLogger(log: NetworkLog): RpcLogger {
  return {
    info: (context, message) => log.info({ ...context }, message),
    warn: (context, message) => log.warn({ ...context }, message),
    error: (context, message) => log.error({ ...context }, message),
  };
}

export const rpcChannels: ChannelFactory = {
  client(socket: TLSSocket, log: NetworkLog): PeerChannel {
    const transport = frameSocket(socket);
    const client = new RpcClient(transport, { logger: rpcLogger(log), maxCallsInFlight: PEER_LIMITS.maxCallsInFlight });
    let settleClosed!: (reason: string) => void;
    const closed = new Promise<string>((resolve) => (settleClosed = resolve));
    let attachments = 0;
    transport.attach({
      frame: (text) => client.frame(text),
      closed: (reason) => {
        client.closed(reason);
        settleClosed(reason ?? 'the peer connection closed');
      },
    });
    return {
      call: (op, input, signal) => client.call(op, input, signal),
      attach: (bytes) => {
        // Numbered per connection, so the listener pairs frame and call whatever else is written between them.
        const number = ++attachments;
        const header = Buffer.allocUnsafe(4);
        header.writeUInt32BE(number, 0);
        // A frame that cannot leave (the connection closed) never arrives: the call naming it fails for that.
        transport.sendBinary([header, bytes]).catch(() => undefined);
        return number;
      },
      close: (reason) => transport.close(1000, reason),
      closed,
    };
  },

  serve(socket: TLSSocket, handler: PeerCallHandler, log: NetworkLog): void {
    const transport = frameSocket(socket);
    const sink = serveRpc(transport, {
      logger: rpcLogger(log),
      limits: PEER_LIMITS,
      handler: {
        call: (op, input, context) => handler.call(op, input, context.signal),
        closed: () => handler.closed('the peer connection closed'),
      },
    });
    const frames: FrameSink = { frame: (text) => sink.frame(text), closed: (reason) => sink.closed(reason) };
    if (handler.binary)
      frames.binary = (data) => {
        // The handler has logged the violation; nothing more is read from a peer that broke the protocol.
        if ((handler.binary?.(data) ?? null) !== null) socket.destroy();
      };
    transport.attach(frames);
  },
};
