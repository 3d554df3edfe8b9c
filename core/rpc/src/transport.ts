/**
 * The one thing the call protocol needs of a connection: a WebSocket, an Electron message port, or (for
 * the network) the peer link. Frames are JSON text. The transport pushes what it reads into a FrameSink.
 */

export interface SendOptions {
  /**
   * Leave now rather than with the frames of the rest of this turn (a transport that gathers a turn's frames
   * into one write): credit, which lets the other side work while this one still has its own to do.
   */
  now?: boolean | undefined;
}

export interface FrameTransport {
  /**
   * Sends one frame. Resolves once the transport has taken it over (written to the socket, posted to the
   * other process); rejects when it cannot (the connection is closed or failed).
   */
  send(text: string, options?: SendOptions): Promise<void>;
  /** Bytes handed over but not yet written out: how far the reader is behind (0 where it cannot tell). */
  bufferedBytes(): number;
  /** Stops or resumes reading the peer's frames (backpressure); a no-op where the transport cannot. */
  setReading(reading: boolean): void;
  /** Ends the connection (WebSocket close codes; other transports ignore the code). */
  close(code: number, reason: string): void;
}

/** Where a transport delivers what happens on its connection. */
export interface FrameSink {
  /** One frame as received. */
  frame(text: string): void;
  /** The connection ended; nothing more will be sent or received. */
  closed(reason?: string): void;
}
