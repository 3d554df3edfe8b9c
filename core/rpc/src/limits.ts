/**
 * The limits of one connection, shared by both ends so a well-behaved client never meets the server's
 * refusals. Sizes are of frames as JSON text (UTF-16 length is what JS sees; bytes are counted as UTF-8).
 */
import { QkError, type Envelope } from '@qk/model';

export interface ConnectionLimits {
  /** Calls a connection may have in flight; past it a call is refused with TOO_MANY_CALLS. */
  maxCallsInFlight: number;
  /**
   * Reply bytes handed to the transport but not yet written out above which the connection stops reading
   * and no destructive call starts; reading resumes below half of it. Results are never dropped.
   */
  highWaterBytes: number;
  /**
   * Reply bytes handed over but not yet written out above which no reply that takes messages away (a
   * nontransactional receive, an item of a stream) is prepared until the reader catches up. Such a reply
   * leaves the store before it is written (issue 7), so this bounds what a reader that stops and then
   * vanishes can lose of them: this much, one reply, and what the operating system's socket buffers hold.
   */
  deliverHighWaterBytes: number;
  /**
   * The largest single reply. One message at MaxMessageSize (4 MB, as UTF-8 text escaped in JSON and again
   * in base64) stays under it, so a receive of one message is always deliverable.
   */
  maxReplyBytes: number;
  /** A batch reply stops adding messages at this size (the first always fits). */
  batchReplyBytes: number;
  /** Bytes of call inputs in flight above which the connection stops reading until calls finish. */
  maxInputBytesInFlight: number;
}

export const DEFAULT_LIMITS: ConnectionLimits = {
  maxCallsInFlight: 256,
  highWaterBytes: 16 * 1024 * 1024,
  deliverHighWaterBytes: 1024 * 1024,
  maxReplyBytes: 48 * 1024 * 1024,
  batchReplyBytes: 8 * 1024 * 1024,
  maxInputBytesInFlight: 64 * 1024 * 1024,
};

/** Node's native count, where there is one (this module also runs in the console's renderer). */
const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer;

/**
 * UTF-8 bytes of a string without encoding it. Every frame a server reads is measured: in Node natively (a
 * peer's 250 KB delivery cost 1 ms counted in JS); elsewhere in one pass over the code units — cheaper than
 * encoding even a short frame (TextEncoder's allocation was a tenth of the cost of reading a call, issue 11).
 */
export function utf8Length(text: string): number {
  if (nodeBuffer) return nodeBuffer.byteLength(text, 'utf8');
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      // A surrogate pair: 4 bytes for 2 code units.
      bytes += 2;
      i++;
    } else bytes += 2; // the rest of the BMP, and a lone surrogate (written as U+FFFD)
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * About the bytes a value adds to a JSON reply, without serializing it: string lengths plus a little per
 * field. A batch measures each message with it; JSON escapes and multi-byte text can make the real size up
 * to about three times the estimate, which the room between batchReplyBytes and maxReplyBytes absorbs.
 */
export function estimatedJsonBytes(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 16;
  let bytes = 2;
  for (const item of Array.isArray(value) ? value : Object.values(value as Record<string, unknown>)) {
    bytes += 24 + estimatedJsonBytes(item);
  }
  return bytes;
}

/** A result frame as text, or the reason it cannot be one (too large, or not serializable at all). */
export function resultText(
  id: number,
  envelope: Envelope<unknown>,
  maxBytes: number,
): { text: string } | { error: QkError } {
  let text: string;
  try {
    text = JSON.stringify({ type: 'result', id, ...envelope });
  } catch (error) {
    // A string past V8's limit (RangeError) or a value JSON cannot carry: the caller gets an error instead.
    const why = error instanceof Error ? error.message : String(error);
    return { error: new QkError('INSUFFICIENT_RESOURCES', `The reply could not be serialized (${why}).`) };
  }
  // At most 3 bytes a code unit: a reply that short cannot be too large, and is not counted.
  const bytes = text.length * 3 <= maxBytes ? 0 : utf8Length(text);
  if (bytes > maxBytes) {
    return {
      error: new QkError(
        'INSUFFICIENT_RESOURCES',
        `The reply is ${bytes.toLocaleString('en-US')} bytes; a reply may be at most ${maxBytes.toLocaleString('en-US')}. Ask for less (a smaller page or batch, or leave the bodies out).`,
      ),
    };
  }
  return { text };
}

/** The byte cap every transport gives a batch receive's reply (the engine's ReplyLimit). */
export const BATCH_REPLY_LIMIT = {
  maxBytes: DEFAULT_LIMITS.batchReplyBytes,
  measure: estimatedJsonBytes,
} as const;
