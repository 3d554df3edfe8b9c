/**
 * The listener's end of protocol 3's attachments (docs/network.md "Protocol versions"): a delivery's bodies come
 * as a binary frame just before the call that names them, numbered by the sender (1, 2, 3, … per session) in
 * the frame's first 4 bytes. They wait here, by number, until their call takes them.
 *
 * What waits is bounded, since nothing but a call ever takes it away: a peer that sends frames no call names
 * would otherwise fill this computer's memory. core/rpc holds a connection's calls in flight to 256 MB of
 * input by pausing its reading, but counts only their text; an attachment's bytes count here instead, from
 * arrival until their call has ended, against the same 256 MB. Our sender keeps a few leases in flight (a few
 * MB each), so a peer past a bound is not one of ours: the connection is cut.
 */

/** Attachments that arrived and that no call has taken yet. */
const ATTACHMENTS_WAITING_MAX = 16;
/** Bytes of attachments waiting or held by a call still running. */
const ATTACHMENT_BYTES_MAX = 256 * 1024 * 1024;

const NUMBER_BYTES = 4;

export class Attachments {
  readonly #waiting = new Map<number, Buffer>();
  readonly #maxWaiting: number;
  readonly #maxBytes: number;
  /** Numbers only grow: one used again is caught without remembering every number ever seen. */
  #last = 0;
  #bytes = 0;

  constructor(maxWaiting = ATTACHMENTS_WAITING_MAX, maxBytes = ATTACHMENT_BYTES_MAX) {
    this.#maxWaiting = maxWaiting;
    this.#maxBytes = maxBytes;
  }

  /** A binary frame arrived: kept, or the protocol violation to cut the connection for. */
  arrived(frame: Buffer): string | null {
    if (frame.length < NUMBER_BYTES) return `a binary frame of ${frame.length} bytes has no attachment number`;
    const number = frame.readUInt32BE(0);
    if (number <= this.#last)
      return `attachment ${number} came after attachment ${this.#last} (numbers are used once, in order)`;
    if (this.#waiting.size >= this.#maxWaiting)
      return `attachment ${number} would make ${this.#waiting.size + 1} waiting for their calls (at most ${this.#maxWaiting})`;
    const bytes = frame.length - NUMBER_BYTES;
    if (this.#bytes + bytes > this.#maxBytes)
      return `attachment ${number} of ${bytes} bytes would take attachments past ${this.#maxBytes} bytes`;
    this.#last = number;
    this.#bytes += bytes;
    this.#waiting.set(number, frame.subarray(NUMBER_BYTES));
    return null;
  }

  /**
   * The attachment a call's input names (`bodies: {attachment: n}`), taken away whatever becomes of the call,
   * so a refused call leaves nothing behind; undefined when it names none or none arrived. Its bytes count
   * until the caller says with `release` that the call has ended.
   */
  claim(input: unknown): Buffer | undefined {
    const bodies = (input as { bodies?: unknown } | null | undefined)?.bodies;
    const number = (bodies as { attachment?: unknown } | null | undefined)?.attachment;
    if (typeof number !== 'number') return undefined;
    const attachment = this.#waiting.get(number);
    if (attachment) this.#waiting.delete(number);
    return attachment;
  }

  /** A claimed attachment's call has ended: its bytes no longer count. */
  release(attachment: Buffer): void {
    this.#bytes -= attachment.length;
  }

  /** The connection ended: what waits will never be named (what calls hold goes with them). */
  clear(): void {
    for (const attachment of this.#waiting.values()) this.#bytes -= attachment.length;
    this.#waiting.clear();
  }

  /** Attachments waiting for their call. */
  get waiting(): number {
    return this.#waiting.size;
  }
}
