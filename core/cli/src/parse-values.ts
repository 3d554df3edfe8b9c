/**
 * Option values. Text that is not a number where one is expected, an unknown word, or a number outside what
 * the option itself takes (a negative timeout, --limit 0, a lookup ID that is not a whole number) is a
 * command-line error (exit 2). A message or queue property outside MSMQ's range (--priority 8, --quota -1) is
 * passed on: the service refuses it with MSMQ's code (exit 1), as MSMQ's own call would.
 */
import { acknowledgmentLevels, journalLevels } from '@qk/model';
import { UsageError } from './usage-error.js';

const DECIMAL_RE = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const HEX_RE = /^0x[0-9a-f]+$/i;

/** A number (decimal, or 0x hex); a usage error for anything else. */
export function parseNumber(text: string, what: string): number {
  const trimmed = text.trim();
  if (HEX_RE.test(trimmed)) return Number.parseInt(trimmed.slice(2), 16);
  if (!DECIMAL_RE.test(trimmed)) throw new UsageError(`${what} must be a number, not '${text}'.`);
  return Number(trimmed);
}

/** A whole number from `min` to `max`; a usage error for anything else. */
export function parseWhole(text: string, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = parseNumber(text, what);
  if (!Number.isInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${what} must be a whole number ${range}, not '${text}'.`);
  }
  return n;
}

/** A number or one of the given words (case-insensitive). */
function parseWordOrNumber(text: string, words: Record<string, number>, what: string): number {
  const word = words[text.trim().toLowerCase()];
  if (word !== undefined) return word;
  const trimmed = text.trim();
  if (HEX_RE.test(trimmed) || DECIMAL_RE.test(trimmed)) return parseNumber(trimmed, what);
  throw new UsageError(`${what} must be one of ${Object.keys(words).join(', ')} or a number, not '${text}'.`);
}

/** `--ack`: a level name of CLI.md or the MSMQ number 0–15. */
export function parseAcknowledge(text: string): number {
  return parseWordOrNumber(text, acknowledgmentLevels, '--ack');
}

/** `--journal` of send: none|deadletter|journal|both or the MSMQ number 0–3. */
export function parseMessageJournal(text: string): number {
  return parseWordOrNumber(text, journalLevels, '--journal');
}

/** `on|off` (also true/false, yes/no, 1/0) for queue properties. */
export function parseOnOff(text: string, what: string): boolean {
  const value = text.trim().toLowerCase();
  if (['on', 'true', 'yes', '1'].includes(value)) return true;
  if (['off', 'false', 'no', '0'].includes(value)) return false;
  throw new UsageError(`${what} must be on or off, not '${text}'.`);
}

/** A quota in KB, or `unlimited` (null). */
export function parseQuota(text: string, what: string): number | null {
  if (['unlimited', 'infinite', 'none'].includes(text.trim().toLowerCase())) return null;
  return parseNumber(text, what);
}

/** `--timeout S` in (possibly fractional) seconds, or `infinite`, as milliseconds for the API. */
export function parseTimeoutSeconds(text: string): number {
  if (['infinite', 'forever'].includes(text.trim().toLowerCase())) return 2_147_483_647;
  const seconds = parseNumber(text, '--timeout');
  if (seconds < 0) throw new UsageError(`--timeout must be 0 or more seconds (or infinite), not '${text}'.`);
  // A huge value goes to the service as it is, which reports it (exit 1).
  return Math.round(seconds * 1000);
}

/** A lookup ID argument: MSMQ's lookup IDs start at 1. */
export function parseLookupId(text: string, what = 'LOOKUPID'): number {
  return parseWhole(text, what, 1);
}
