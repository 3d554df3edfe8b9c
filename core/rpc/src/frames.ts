/**
 * The frames of the call protocol, validated by schema on both ends (CLI.md, "The service's API and files").
 * Client → service: `auth` (first frame, when the token did not come in a header), `call`, `cancel`,
 * `subscribe`, `unsubscribe`, `credit` (a streamed call may send that many more items). Service → client:
 * `result` (exactly one per call), `item` (one item of a streamed call, before its result), `event`, `ready`
 * (the answer to `auth`), `error` (a frame that could not be tied to a call), `eventsLost` (events dropped
 * while the reader was behind), and `frames` (several of these in order, once a call asked for it with
 * `"batchFrames":true`). New types may be added; these keep their meaning.
 */
import { z } from 'zod';
import { errorCodes } from '@qk/model';

/** Most items a client may grant a streamed call at once, and hold granted at any time. */
export const MAX_CREDIT = 10_000;

/** Call ids are the client's: any non-negative integer JSON carries exactly. */
const callId = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** Operation names are short identifiers; anything else is refused before any lookup. */
const opName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9]*$/);

export const authFrameSchema = z.object({ type: z.literal('auth'), token: z.string().max(1_024) });
export const callFrameSchema = z.object({ type: z.literal('call'), id: callId, op: opName, input: z.unknown() });

export const clientFrameSchema = z.discriminatedUnion('type', [
  authFrameSchema,
  callFrameSchema,
  z.object({ type: z.literal('cancel'), id: callId }),
  z.object({ type: z.literal('subscribe') }),
  z.object({ type: z.literal('unsubscribe') }),
  z.object({ type: z.literal('credit'), id: callId, count: z.number().int().min(1).max(MAX_CREDIT) }),
]);

export const errorBodySchema = z.object({ code: z.enum(errorCodes), message: z.string() });

export const serverFrameSchema = z.union([
  z.object({ type: z.literal('result'), id: callId, ok: z.literal(true), value: z.unknown() }),
  z.object({ type: z.literal('result'), id: callId, ok: z.literal(false), error: errorBodySchema }),
  z.object({ type: z.literal('item'), id: callId, value: z.unknown() }),
  z.object({ type: z.literal('event'), event: z.unknown() }),
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('error'), error: errorBodySchema }),
  z.object({ type: z.literal('eventsLost'), count: z.number().int().min(1) }),
  z.object({ type: z.literal('frames'), frames: z.array(z.unknown()) }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;

export type CallFrame = z.infer<typeof callFrameSchema>;

/**
 * A call frame may say `"batchFrames":true`: its caller reads `frames` frames, so from then on the frames the
 * service sends in one turn of its event loop leave as one (`{"type":"frames","frames":[…]}`, in order) — one
 * WebSocket frame, one write and one read for the hundred replies or stream items a group commit releases at
 * once (issue 11). Any other value, or none, changes nothing. Outside callFrameSchema: an old service ignores it,
 * and no call is refused over it.
 */
export function asksForBatchedFrames(raw: unknown): boolean {
  return (raw as { batchFrames?: unknown }).batchFrames === true;
}

/** The frames inside a `frames` frame, or undefined for any other frame. */
export function batchedFrames(raw: unknown): unknown[] | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { type, frames } = raw as { type?: unknown; frames?: unknown };
  return type === 'frames' && Array.isArray(frames) ? (frames as unknown[]) : undefined;
}

const OP_NAME = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * The frame nearly every frame is — a well-formed call — recognized by hand with exactly callFrameSchema's
 * tests, so the service does not pay a schema parse per call (issue 11, W5). Undefined for anything else,
 * which then goes through clientFrameSchema (and gets its error messages).
 */
export function wellFormedCall(raw: unknown): CallFrame | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { type, id, op, input } = raw as { type?: unknown; id?: unknown; op?: unknown; input?: unknown };
  // The schema requires every key, `input` too (a frame parsed from JSON has no undefined values).
  if (type !== 'call' || !isCallId(id) || input === undefined) return undefined;
  if (typeof op !== 'string' || op.length > 64 || !OP_NAME.test(op)) return undefined;
  return { type, id, op, input };
}

/**
 * A result that succeeded or an item — the frames a client gets by the thousand — recognized by hand with
 * exactly serverFrameSchema's tests; undefined for anything else, which goes through the schema.
 */
export function commonServerFrame(
  raw: unknown,
): { type: 'result'; id: number; ok: true; value: unknown } | { type: 'item'; id: number; value: unknown } | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { type, id, ok, value } = raw as { type?: unknown; id?: unknown; ok?: unknown; value?: unknown };
  if (!isCallId(id) || value === undefined) return undefined;
  if (type === 'result' && ok === true) return { type, id, ok, value };
  if (type === 'item') return { type, id, value };
  return undefined;
}

/** callId's test: a safe integer, not negative. */
function isCallId(id: unknown): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0;
}

/** Parses a frame's text as JSON; undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON: the caller answers it as a malformed frame.
    return undefined;
  }
}

/** The id of a frame that failed validation, when it has a usable one (to answer that call). */
export function idOf(raw: unknown): number | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const parsed = callId.safeParse((raw as { id?: unknown }).id);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The token of a first frame. The protocol's form is `{"type":"auth","token":…}`; `{"token":…}`, an
 * `{"authorization":"Bearer …"}` object, a JSON string or the bare token are taken too, so a client written
 * from the contract's one line ("the token … as the first frame") gets in whichever it chose.
 */
export function presentedToken(raw: unknown, text: string): string | undefined {
  if (typeof raw === 'string') return raw;
  if (raw === undefined) return /^\S{1,1024}$/.test(text.trim()) ? text.trim() : undefined;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const frame = raw as { type?: unknown; token?: unknown; authorization?: unknown };
  if (frame.type !== undefined && frame.type !== 'auth') return undefined;
  if (typeof frame.token === 'string') return frame.token;
  const bearer = typeof frame.authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(frame.authorization) : null;
  return bearer?.[1];
}
