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
   * The largest single reply. One message at MaxMessageSize (4 MB, as UTF-8 text escaped in JSON and again
   * in base64) stays under it, so a receive of one message is always deliverable.
   */
  maxReplyBytes: number;
  /** A batch reply stops adding messages at this size (the first always fits). */
  batchReplyBytes: number;
  /** Bytes of call inputs in flight above which the connection stops reading until calls finish. */
  maxInputBytesInFlight: number;
}
export declare const DEFAULT_LIMITS: ConnectionLimits;
/** UTF-8 bytes of a string without encoding it (one pass over the code units). */
export declare function utf8Length(text: string): number;
/** Bytes a value adds to a JSON reply (a batch's per-message measure). */
export declare function jsonBytes(value: unknown): number;
/** A result frame as text, or the reason it cannot be one (too large, or not serializable at all). */
export declare function resultText(
  id: number,
  envelope: Envelope<unknown>,
  maxBytes: number,
):
  | {
      text: string;
      bytes: number;
    }
  | {
      error: QkError;
    };
