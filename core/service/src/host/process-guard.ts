/**
 * What a service process does with errors nobody caught (issue 7, item 9): a rejected promise or an exception
 * that escaped is a bug, but one bug must not take every queue down with it, lose express messages and leave
 * the folder's service.json behind. It is logged with its stack and the service goes on — unless the store
 * itself is broken, the one case where going on could make things worse: then the service stops cleanly
 * (releasing its lock, removing service.json) and the process exits.
 */
import { isQkError, type Logger } from '@qk/model';

/** SQLite result codes after which the store cannot be trusted (corruption, or the file gone from under it). */
const FATAL_SQLITE_CODES = [/^SQLITE_CORRUPT/, /^SQLITE_NOTADB$/, /^SQLITE_READONLY_DBMOVED$/];

/** True for an error that means the store is broken: stop rather than serve from it. */
export function isFatalStoreError(error: unknown): boolean {
  if (isQkError(error)) return error.code === 'STORE_CORRUPT';
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && FATAL_SQLITE_CODES.some((pattern) => pattern.test(code));
}

/** The process-wide events the guard listens to (the real `process`, or a stand-in in tests). */
export interface GuardedProcess {
  on(event: 'unhandledRejection' | 'uncaughtException', listener: (error: unknown) => void): unknown;
  off(event: 'unhandledRejection' | 'uncaughtException', listener: (error: unknown) => void): unknown;
}

/**
 * Logs unhandled rejections and uncaught exceptions instead of letting them end the process; calls `onFatal`
 * for a fatal store error. Returns the function that removes the guard.
 */
export function guardProcess(
  logger: Logger,
  onFatal: (error: unknown) => void,
  target: GuardedProcess = process,
): () => void {
  const handle = (what: string) => (error: unknown) => {
    const fatal = isFatalStoreError(error);
    logger.error(
      { err: error },
      fatal ? `${what}: the store is broken; the service stops` : `${what} (a bug in Queuekeeper); the service goes on`,
    );
    if (fatal) onFatal(error);
  };
  const onRejection = handle('An unhandled promise rejection');
  const onException = handle('An uncaught exception');
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}
