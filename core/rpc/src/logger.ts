/** The logging the protocol needs: a pino-compatible `{info, warn, error}` (object first, then the message). */
export interface RpcLogger {
  info(context: object, message: string): void;
  warn(context: object, message: string): void;
  error(context: object, message: string): void;
}

/** For callers that have no logger (unit tests, the browser). */
export const silentLogger: RpcLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * Warnings and errors as one JSON line each on the console (stderr in Node), for hosts that have not been
 * given a real logger: nothing that goes wrong is swallowed silently.
 */
export const consoleLogger: RpcLogger = {
  info: () => undefined,
  warn: (context, message) =>
    console.warn(JSON.stringify({ level: 'warn', time: new Date().toISOString(), msg: message, ...context })),
  error: (context, message) =>
    console.error(JSON.stringify({ level: 'error', time: new Date().toISOString(), msg: message, ...context })),
};

/** What went wrong, for a log line: the error's name, message and stack when it has them. */
export function describeFailure(error: unknown): object {
  if (error instanceof Error) return { err: { type: error.name, message: error.message, stack: error.stack } };
  return { err: { message: String(error) } };
}
