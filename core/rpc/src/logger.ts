/** The logging the protocol needs: the part of core/model's Logger (pino-compatible) it uses. */
import type { Logger } from '@qk/model';

export type RpcLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

/** What went wrong, for a log line: the error's name, message and stack when it has them. */
export function describeFailure(error: unknown): object {
  if (error instanceof Error) return { err: { type: error.name, message: error.message, stack: error.stack } };
  return { err: { message: String(error) } };
}
