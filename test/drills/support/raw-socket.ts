/**
 * The service's WebSocket as CLI.md defines its frames — `{"type":"call",id,op,input}` answered by
 * `{"type":"result",id,ok,value|error}`, `{"type":"cancel",id}`, `{"type":"subscribe"}` and `{"type":"event"}`
 * — spoken directly, so a drill can do what a careless client does: stop reading, cancel, vanish mid-call.
 */
import WebSocket from 'ws';

export interface ResultFrame {
  type: 'result';
  id: number;
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string };
}

export class RawSocket {
  private nextId = 1;
  private readonly waiting = new Map<number, (frame: ResultFrame) => void>();
  /** The latest result that arrived for each id (kept for calls nobody awaits). */
  readonly results = new Map<number, ResultFrame>();
  /** Every result frame that arrived, in order (a protocol could answer one id twice), while recordAll is true. */
  readonly allResults: ResultFrame[] = [];
  /**
   * False for a long-lived socket whose results are each taken once and then forgotten (the soak): kept, its
   * replies — bodies of up to 200 KB among them — held the drill's own process past V8's heap limit in ten minutes.
   */
  recordAll = true;
  events = 0;
  closed = false;
  closeCode: number | null = null;

  private constructor(readonly ws: WebSocket) {
    // Each awaited result listens for the close until it arrives: a drill awaits hundreds at once.
    ws.setMaxListeners(0);
    ws.on('message', (data: Buffer) => this.onFrame(data.toString('utf8')));
    ws.on('close', (code) => {
      this.closed = true;
      this.closeCode = code;
    });
    ws.on('error', () => {
      // 'close' follows.
    });
  }

  /** Opens `ws://…/api/v1/ws` with the token as a header (CLI.md). */
  static open(url: string, token: string): Promise<RawSocket> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/v1/ws`, {
      headers: { authorization: `Bearer ${token}` },
      perMessageDeflate: false,
      maxPayload: 256 * 1024 * 1024,
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RawSocket(ws)));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`WebSocket refused: HTTP ${res.statusCode}`)));
    });
  }

  private onFrame(text: string): void {
    let frame: { type?: string; id?: number };
    try {
      frame = JSON.parse(text) as { type?: string; id?: number };
    } catch {
      return;
    }
    if (frame.type === 'event') this.events += 1;
    if (frame.type === 'result' && typeof frame.id === 'number') {
      const result = frame as ResultFrame;
      this.results.set(result.id, result);
      if (this.recordAll) this.allResults.push(result);
      this.waiting.get(result.id)?.(result);
      this.waiting.delete(result.id);
    }
  }

  /** Sends a call frame and returns its id without waiting. */
  send(op: string, input: unknown): number {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ type: 'call', id, op, input }));
    return id;
  }

  /** Resolves with the call's result frame, or null when the connection closes first or `timeoutMs` passes. */
  result(id: number, timeoutMs = 60_000): Promise<ResultFrame | null> {
    const known = this.results.get(id);
    if (known) return Promise.resolve(known);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(null), timeoutMs);
      const onClose = (): void => done(null);
      const done = (frame: ResultFrame | null): void => {
        clearTimeout(timer);
        this.ws.off('close', onClose);
        this.waiting.delete(id);
        resolve(frame);
      };
      this.waiting.set(id, (frame) => done(frame));
      this.ws.once('close', onClose);
    });
  }

  /** Drops the result kept for a call once its caller has it. */
  forget(id: number): void {
    this.results.delete(id);
  }

  async call(op: string, input: unknown, timeoutMs?: number): Promise<ResultFrame | null> {
    return this.result(this.send(op, input), timeoutMs);
  }

  cancel(id: number): void {
    this.ws.send(JSON.stringify({ type: 'cancel', id }));
  }

  subscribe(): void {
    this.ws.send(JSON.stringify({ type: 'subscribe' }));
  }

  /** Stops reading from the socket: the service's replies pile up in its buffers, as with a slow reader. */
  stopReading(): void {
    this.ws.pause();
  }

  resumeReading(): void {
    this.ws.resume();
  }

  /** Cuts the TCP connection without a close handshake, as a crashed client would. */
  vanish(): void {
    this.ws.terminate();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}
