/**
 * What every layer logs through: the subset of pino's API the core uses, so the engine and core/rpc log
 * without depending on pino, and the service hands them its pino logger (core/service/src/host/logger.ts).
 * Convention: the first argument is the context (an `err` key for an error, which pino serializes with its
 * stack), the second a sentence saying what happened.
 */
export interface Logger {
  error(context: object, message: string): void;
  warn(context: object, message: string): void;
  info(context: object, message: string): void;
  debug(context: object, message: string): void;
  /** A logger that adds `bindings` (e.g. `{ component: 'engine' }`) to every line. */
  child(bindings: Record<string, unknown>): Logger;
}

/** Logs nothing: the default where no logger is given (unit tests, tools). */
export const silentLogger: Logger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  child: () => silentLogger,
};
