/** The logging the protocol needs: a pino-compatible `{info, warn, error}` (object first, then the message). */
export interface RpcLogger {
  info(context: object, message: string): void;
  warn(context: object, message: string): void;
  error(context: object, message: string): void;
}
/** For callers that have no logger (unit tests, the browser). */
export declare const silentLogger: RpcLogger;
/** What went wrong, for a log line: the error's name, message and stack when it has them. */
export declare function describeFailure(error: unknown): object;
