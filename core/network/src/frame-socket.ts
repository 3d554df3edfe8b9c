/**
 * Frames of the call protocol over a byte stream (the peer link's TLS socket): each frame is a 4-byte
 * big-endian length and that many bytes of UTF-8 JSON text. This is the transport core/rpc asks of a
 * connection (send resolves once written; backpressure by pausing the socket); a frame larger than the limit
 * ends the connection rather than the process's memory.
 *
 * A length word with its top bit set (0x80000000 | length) marks a binary frame: that many raw bytes, which
 * protocol 3 uses for a delivery's bodies so they are neither base64-encoded nor scanned as JSON text. Only a
 * session that agreed protocol 3 sends one, so an older peer never reads a length it would take as 2 GB.
 */
import type { Socket } from 'node:net';

/** Where a connection's frames go; a connection whose sink takes no binary frames is cut by one. */
export interface FrameSink {
  frame(text: string): void;
  binary?(data: Buffer): void;
  closed(reason?: string): void;
}

/** What the call protocol needs of a connection (core/rpc's FrameTransport), plus where its frames go. */
export interface FrameConnection {
  send(text: string): Promise<void>;
  /** One binary frame of `data`, or of its parts one after the other. */
  sendBinary(data: Buffer | readonly Buffer[]): Promise<void>;
  bufferedBytes(): number;
  setReading(reading: boolean): void;
  close(code: number, reason: string): void;
  attach(sink: FrameSink): void;
}

/** 64 MB: the largest reply core/rpc allows (48 MB) with room for the frame around it. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;
const HEADER = 4;
const BINARY = 0x80000000;
const LENGTH = 0x7fffffff;

/** Wraps a connected socket; call `attach` once to start receiving frames. */
export function frameSocket(socket: Socket, maxFrameBytes = MAX_FRAME_BYTES): FrameConnection {
  let sink: FrameSink | undefined;
  let chunks: Buffer[] = [];
  let buffered = 0;
  let closedReason: string | undefined;
  let ended = false;

  const finish = (reason: string): void => {
    if (ended) return;
    ended = true;
    closedReason ??= reason;
    sink?.closed(closedReason);
  };

  const violation = (reason: string): void => {
    closedReason = reason;
    socket.destroy();
  };

  /** The length of the frame being read, once its header is in; -1 before. */
  let expected = -1;
  let binary = false;
  const onData = (data: Buffer): void => {
    chunks.push(data);
    buffered += data.length;
    while (buffered >= HEADER) {
      if (expected < 0) {
        if ((chunks[0] as Buffer).length < HEADER) chunks = [Buffer.concat(chunks)];
        const word = (chunks[0] as Buffer).readUInt32BE(0);
        binary = word >= BINARY;
        expected = word & LENGTH;
        if (expected > maxFrameBytes)
          return violation(`a frame of ${expected} bytes is larger than the ${maxFrameBytes} allowed`);
        if (binary && !sink?.binary) return violation('a binary frame on a connection that takes none');
      }
      // A large frame comes in many reads: they are joined once it is whole, not again at every read.
      if (buffered < HEADER + expected) return;
      const head = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, buffered);
      const length = expected;
      expected = -1;
      const rest = head.subarray(HEADER + length);
      chunks = rest.length > 0 ? [rest] : [];
      buffered = rest.length;
      try {
        // A binary frame is handed on as a view of what was read: its bytes are copied nowhere.
        if (binary) sink?.binary?.(head.subarray(HEADER, HEADER + length));
        else sink?.frame(head.toString('utf8', HEADER, HEADER + length));
      } catch {
        // A sink's failure is its own to log; the stream goes on.
      }
      if (socket.destroyed) return;
    }
  };

  /** Writes one frame; the callback runs once it is handed to the kernel (or the socket failed). */
  const write = (frame: Buffer): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (socket.destroyed || !socket.writable) return reject(new Error('the peer connection is closed'));
      socket.write(frame, (error) => (error ? reject(error) : resolve()));
    });

  return {
    send: (text) => {
      // One write per frame (header and text in one buffer): one TLS record, never a lone 4-byte one.
      const length = Buffer.byteLength(text, 'utf8');
      const frame = Buffer.allocUnsafe(HEADER + length);
      frame.writeUInt32BE(length, 0);
      frame.write(text, HEADER, 'utf8');
      return write(frame);
    },
    sendBinary: (data) => {
      // Parts are joined in the frame's own buffer: a lease's bodies are copied once more, not twice (a fresh
      // buffer of 200 KB costs its page faults, ~0.1 µs a message).
      const parts = Buffer.isBuffer(data) ? [data] : data;
      let length = 0;
      for (const part of parts) length += part.length;
      // The sender is held to the limit it reads by: a frame the peer would cut the connection for never leaves.
      if (length > maxFrameBytes)
        return Promise.reject(new Error(`a frame of ${length} bytes is larger than the ${maxFrameBytes} allowed`));
      const frame = Buffer.allocUnsafe(HEADER + length);
      frame.writeUInt32BE((BINARY | length) >>> 0, 0);
      let at = HEADER;
      for (const part of parts) at += part.copy(frame, at);
      return write(frame);
    },
    bufferedBytes: () => socket.writableLength,
    setReading: (reading) => {
      if (reading) socket.resume();
      else socket.pause();
    },
    close: (_code, reason) => {
      closedReason ??= reason;
      socket.end();
      // A peer that never reads must not keep the socket: give the FIN a moment, then cut.
      setTimeout(() => socket.destroy(), 2_000).unref();
    },
    attach(target) {
      sink = target;
      socket.on('data', onData);
      socket.on('error', (error) => {
        closedReason ??= error.message;
      });
      socket.on('close', () => finish('the peer connection closed'));
      if (socket.destroyed) finish('the peer connection closed');
    },
  };
}
