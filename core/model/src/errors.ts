/**
 * Stable error codes. MSMQ's error names (without MQ_ERROR_) where MSMQ has one; a few of our own for
 * things MSMQ has no name for (the store, the service process, authentication).
 */
export const errorCodes = [
  'QUEUE_NOT_FOUND',
  'QUEUE_EXISTS',
  'QUEUE_DELETED',
  'ILLEGAL_QUEUE_PATHNAME',
  'ILLEGAL_FORMATNAME',
  'UNSUPPORTED_FORMATNAME_OPERATION',
  'LABEL_TOO_LONG',
  'ILLEGAL_PROPERTY_SIZE',
  'ILLEGAL_PROPERTY_VALUE',
  'PROPERTIES_CONFLICT',
  'PROPERTY_NOTALLOWED',
  'TOO_MANY_PROPERTIES',
  'TRANSACTION_USAGE',
  'TRANSACTION_SEQUENCE',
  'INSUFFICIENT_RESOURCES',
  'MESSAGE_STORAGE_FAILED',
  'INVALID_PARAMETER',
  'MESSAGE_NOT_FOUND',
  'MESSAGE_ALREADY_RECEIVED',
  'MESSAGE_LOCKED_UNDER_TRANSACTION',
  'INVALID_HANDLE',
  'IO_TIMEOUT',
  'ACCESS_DENIED',
  'QUOTA_EXCEEDED',
  'SERVICE_NOT_AVAILABLE',
  'SERVICE_ALREADY_RUNNING',
  'STORE_VERSION_TOO_NEW',
  'STORE_CORRUPT',
  'OPERATION_CANCELLED',
  /** A connection has as many calls in flight as the service accepts; retry when some have answered. */
  'TOO_MANY_CALLS',
  'UNAUTHORIZED',
  'PEER_NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** An error the queue manager reports on purpose, with a stable code that crosses every boundary. */
export class QkError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'QkError';
    this.code = code;
  }
}

/** A broken invariant inside Queuekeeper: never the user's fault, always a bug to fix. */
export class BugError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BugError';
  }
}

export function isQkError(value: unknown): value is QkError {
  return value instanceof QkError;
}

/** Closes a switch over a union: the compiler proves the default is unreachable. */
export function assertNever(value: never, what = 'value'): never {
  throw new BugError(`unexpected ${what}: ${JSON.stringify(value)}`);
}
