/** "CODE: message" for a dialog's error line. */
import { describeError } from '../client/console-client.js';

/** Formats any thrown value with the service's code. */
export function errorText(error: unknown): string {
  const { code, message } = describeError(error);
  return `${code}: ${message}`;
}
