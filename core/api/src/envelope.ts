/** Errors as an envelope across every process boundary: `{ok:true,value}` or `{ok:false,error:{code,message}}`. */
import { z } from 'zod';
import { errorCodes, isQkError, type ErrorBody, type ErrorCode } from '@qk/model';
import { Bounds } from './schemas.js';

// The envelope's one definition is in core/model, so core/rpc (which may import only model) carries it too.
export type { Envelope, ErrorBody } from '@qk/model';

/** An error message within Bounds.ERROR_MESSAGE, so a reply never fails the contract it reports under. */
function bounded(message: string): string {
  return message.length <= Bounds.ERROR_MESSAGE ? message : `${message.slice(0, Bounds.ERROR_MESSAGE - 1)}…`;
}

/** The MSMQ error code a schema check carries (boundedString), e.g. LABEL_TOO_LONG for a long label. */
function issueCode(issue: z.core.$ZodIssue): ErrorCode | undefined {
  const code: unknown = issue.code === 'custom' ? issue.params?.['code'] : undefined;
  return typeof code === 'string' && (errorCodes as readonly string[]).includes(code) ? (code as ErrorCode) : undefined;
}

/** The one mapping from a thrown value to an error body, shared by IPC, HTTP and WebSocket hosts. */
export function toErrorBody(error: unknown): ErrorBody {
  if (isQkError(error)) return { code: error.code, message: bounded(error.message) };
  if (error instanceof z.ZodError) {
    const coded = error.issues.find((i) => issueCode(i) !== undefined);
    const issue = coded ?? error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return {
      code: (coded && issueCode(coded)) ?? 'INVALID_PARAMETER',
      message: bounded(`Invalid input: ${where}${issue?.message ?? 'bad value'}.`),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message: bounded(`Internal error: ${message}`) };
}

/** HTTP status for an error code; the envelope stays the source of truth. */
export function httpStatusFor(code: ErrorCode): number {
  switch (code) {
    case 'QUEUE_NOT_FOUND':
    case 'MESSAGE_NOT_FOUND':
    case 'INVALID_HANDLE':
    case 'PEER_NOT_FOUND':
    case 'ROUTE_NOT_FOUND':
      return 404;
    case 'QUEUE_EXISTS':
    case 'SERVICE_ALREADY_RUNNING':
      return 409;
    case 'UNAUTHORIZED':
      return 401;
    case 'TOO_MANY_CALLS':
      return 429;
    case 'ACCESS_DENIED':
      return 403;
    case 'IO_TIMEOUT':
      return 408;
    // A message or request larger than the service takes (MaxMessageSize, the request or reply limits) is the
    // caller's to make smaller: 4xx, as CLI.md promises for oversized input. MSMQ also names a full MachineQuota so.
    case 'INSUFFICIENT_RESOURCES':
      return 413;
    case 'QUOTA_EXCEEDED':
      return 507;
    case 'INTERNAL':
    case 'STORE_CORRUPT':
    case 'STORE_VERSION_TOO_NEW':
      return 500;
    case 'SERVICE_NOT_AVAILABLE':
      return 503;
    default:
      return 400;
  }
}
