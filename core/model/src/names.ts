/**
 * Queue path names and format names (reference/msmq.md §3, CLI.md "Queue names").
 * Parsing is pure: it says what a name denotes; the engine decides whether that queue exists.
 */
import { Limits } from './constants.js';
import { QkError } from './errors.js';

/** Which computer a name points at. `local` is `.`; the engine also treats its own name as local. */
export type ComputerRef = { by: 'local' } | { by: 'name'; name: string } | { by: 'guid'; guid: string };

/** The three system queues every computer has, by their format-name suffix. */
export type SystemQueueKind = 'JOURNAL' | 'DEADLETTER' | 'DEADXACT';

export type QueueTarget =
  | { kind: 'private'; name: string }
  | { kind: 'public'; name: string }
  /** `PRIVATE=<computer-guid>\<hex>`: a private queue by its number. */
  | { kind: 'privateNumber'; number: number }
  /** `PUBLIC=<queue-guid>`. */
  | { kind: 'publicGuid'; guid: string }
  | { kind: 'system'; queue: SystemQueueKind };

/**
 * A parsed queue name. `journal` selects the queue's journal (never set for system queues); `subqueue` one of
 * its subqueues (`;poison`, R-S*), never together with `journal`.
 */
export interface QueueRef {
  computer: ComputerRef;
  target: QueueTarget;
  journal: boolean;
  subqueue?: string | undefined;
}

const GUID_RE = /^\{?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\}?$/i;
// MSMQ 1.0 forbids \ and ; (and CR/LF); MSMQ 2.0+ also + , and " (§3.2).
const FORBIDDEN_NAME_CHARS = /[\\;+,"]/;
/**
 * Characters that are never part of a name although MSMQ's SDK prose ("any character except \ and ;") lets
 * them through: §3.2's ABNF starts at 0x21, so controls (C0, DEL, C1) are out, and so are the Unicode bidi
 * controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI) and line/paragraph separators, which would let a name display
 * as another one in the console, in `qk` output and in logs (issue 7, "Trojan Source"-style spoofing). A lone
 * surrogate is not a character at all and cannot be stored as UTF-8.
 */
const INVISIBLE_OR_BIDI = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|\p{Cs}/u;
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
const INVISIBLE_OR_BIDI_ALL = new RegExp(INVISIBLE_OR_BIDI.source, 'gu');
/** Longest stretch of a refused name that an error message repeats. */
const ECHO_LIMIT = 160;

/**
 * A name as an error message may repeat it: invisible and bidi characters written as `\u{202E}` so the
 * message cannot be made to read as something else, and a long name cut short.
 */
export function printableName(text: string): string {
  const shown = text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}… (${text.length} characters)` : text;
  return shown.replace(INVISIBLE_OR_BIDI_ALL, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`);
}

const systemShorthands: Record<string, SystemQueueKind> = {
  JOURNAL$: 'JOURNAL',
  DEADLETTER$: 'DEADLETTER',
  XACTDEADLETTER$: 'DEADXACT',
};

/** Lower-case GUID without braces, or null when the text is not a GUID. */
export function parseGuid(text: string): string | null {
  const match = GUID_RE.exec(text.trim());
  return match?.[1] ? match[1].toLowerCase() : null;
}

function illegalPath(text: string, why: string): QkError {
  return new QkError('ILLEGAL_QUEUE_PATHNAME', `Illegal queue path name '${printableName(text)}': ${why}.`);
}

function illegalFormat(text: string, why: string): QkError {
  return new QkError('ILLEGAL_FORMATNAME', `Illegal format name '${printableName(text)}': ${why}.`);
}

/** Throws ILLEGAL_QUEUE_PATHNAME unless `name` is a legal queue name (§3.2). */
export function validateQueueName(name: string, fullText = name): void {
  if (name.length === 0) throw illegalPath(fullText, 'the queue name is empty');
  if (name.length > Limits.MAX_QUEUE_NAME_LENGTH) {
    throw illegalPath(
      fullText,
      `the queue name is ${name.length} characters; at most ${Limits.MAX_QUEUE_NAME_LENGTH} are allowed`,
    );
  }
  const invisible = INVISIBLE_OR_BIDI.exec(name);
  if (invisible) throw illegalPath(fullText, `a queue name may not contain ${describeCharacter(invisible[0])}`);
  const bad = FORBIDDEN_NAME_CHARS.exec(name);
  if (bad) throw illegalPath(fullText, `a queue name may not contain '${bad[0]}'`);
  if (name.endsWith('$')) throw illegalPath(fullText, "a queue name may not end with '$' (reserved for system names)");
}

/** `U+202E` style, for a character that would not show (or would reorder the text) if printed as it is. */
function describeCharacter(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return `the invisible or control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Why `name` is not a legal computer name, or null when it is: 1–256 visible ASCII characters (§3.2, from
 * [MQMQ-2.1.1]), which also keeps control and bidi characters out of every computer name.
 */
export function computerNameProblem(name: string): string | null {
  if (name.length === 0) return 'the computer name is empty';
  if (name.length > Limits.MAX_COMPUTER_NAME_LENGTH)
    return `the computer name is longer than ${Limits.MAX_COMPUTER_NAME_LENGTH} characters`;
  if (!VISIBLE_ASCII.test(name)) {
    const invisible = INVISIBLE_OR_BIDI.exec(name);
    return invisible
      ? `the computer name may not contain ${describeCharacter(invisible[0])}`
      : 'the computer name must be visible ASCII characters';
  }
  return null;
}

/** Throws unless `name` is a legal subqueue name (§3.2): 1–32 characters, the queue-name character set. */
function validateSubqueueName(name: string, error: (why: string) => QkError): void {
  if (name.length === 0) throw error('the subqueue name after ";" is empty');
  if (name.length > Limits.MAX_SUBQUEUE_NAME_LENGTH)
    throw error(
      `the subqueue name is ${name.length} characters; at most ${Limits.MAX_SUBQUEUE_NAME_LENGTH} are allowed`,
    );
  const invisible = INVISIBLE_OR_BIDI.exec(name);
  if (invisible) throw error(`a subqueue name may not contain ${describeCharacter(invisible[0])}`);
  const bad = FORBIDDEN_NAME_CHARS.exec(name);
  if (bad) throw error(`a subqueue name may not contain '${bad[0]}'`);
  if (name.toUpperCase() === 'JOURNAL') throw error('";JOURNAL" names a journal, not a subqueue');
}

/** Throws unless `name` is a legal computer name: 1–256 visible ASCII characters, or `.`. */
export function validateComputerName(name: string, fullText = name): void {
  const problem = computerNameProblem(name);
  if (problem) throw illegalPath(fullText, problem);
}

function computerRef(name: string): ComputerRef {
  return name === '.' ? { by: 'local' } : { by: 'name', name };
}

const FORMAT_PREFIX = /^(DIRECT|PRIVATE|PUBLIC|MACHINE|CONNECTOR|MULTICAST|DL)=/i;

/**
 * Names parsed lately, frozen so that sharing them is safe: every receive and send names its queue, usually
 * the same few, and parsing one (its regular expressions) was 5 % of a single receive's time. Bounded; it
 * starts over when full.
 */
const parsedNames = new Map<string, QueueRef>();
const PARSED_NAMES_MAX = 1_000;

/** Parses a path name (`.\private$\q`), a .NET system shorthand (`.\DEADLETTER$`) or a format name. */
export function parseQueueName(input: string): QueueRef {
  const known = parsedNames.get(input);
  if (known) return known;
  const ref = parseQueueNameUncached(input);
  Object.freeze(ref.computer);
  Object.freeze(ref.target);
  Object.freeze(ref);
  if (parsedNames.size >= PARSED_NAMES_MAX) parsedNames.clear();
  parsedNames.set(input, ref);
  return ref;
}

function parseQueueNameUncached(input: string): QueueRef {
  const text = input.trim();
  if (text.length === 0) throw illegalPath(input, 'the name is empty');
  const withoutPrefix = /^FORMATNAME:/i.test(text) ? text.slice('FORMATNAME:'.length) : null;
  if (withoutPrefix !== null) return parseFormatName(withoutPrefix);
  if (FORMAT_PREFIX.test(text)) return parseFormatName(text);
  return parsePathName(text);
}

/**
 * Parses a path name; format names are refused with ILLEGAL_QUEUE_PATHNAME. A subqueue is the queue's path and
 * `;NAME` (`.\private$\orders;poison`); journals, system queues and subqueues have none (R-S5).
 */
export function parsePathName(text: string): QueueRef {
  const semicolon = text.indexOf(';');
  if (semicolon >= 0 && !/^[^\\]*\\SYSTEM\$;/i.test(text)) {
    const ref = parsePathName(text.slice(0, semicolon));
    const subqueue = text.slice(semicolon + 1);
    if (ref.journal || ref.target.kind === 'system')
      throw illegalPath(text, 'journals and system queues have no subqueues (R-S5)');
    validateSubqueueName(subqueue, (why) => illegalPath(text, why));
    return { ...ref, subqueue };
  }
  const parts = text.split('\\');
  const [computer, ...rest] = parts;
  if (computer === undefined || rest.length === 0)
    throw illegalPath(text, 'expected COMPUTER\\QUEUE or COMPUTER\\private$\\QUEUE');
  validateComputerName(computer, text);
  const ref = computerRef(computer);
  const upper = rest.map((part) => part.toUpperCase());

  if (rest.length === 1) {
    const only = rest[0] as string;
    const system = systemShorthands[only.toUpperCase()];
    if (system) return { computer: ref, target: { kind: 'system', queue: system }, journal: false };
    const systemSpec = /^SYSTEM\$;(JOURNAL|DEADLETTER|DEADXACT)$/i.exec(only);
    if (systemSpec?.[1]) {
      return {
        computer: ref,
        target: { kind: 'system', queue: systemSpec[1].toUpperCase() as SystemQueueKind },
        journal: false,
      };
    }
    validateQueueName(only, text);
    return { computer: ref, target: { kind: 'public', name: only }, journal: false };
  }
  if (upper[0] === 'PRIVATE$') {
    if (rest.length === 2) {
      validateQueueName(rest[1] as string, text);
      return { computer: ref, target: { kind: 'private', name: rest[1] as string }, journal: false };
    }
    if (rest.length === 3 && upper[2] === 'JOURNAL$') {
      validateQueueName(rest[1] as string, text);
      return { computer: ref, target: { kind: 'private', name: rest[1] as string }, journal: true };
    }
    throw illegalPath(text, 'too many parts after private$');
  }
  if (rest.length === 2 && upper[1] === 'JOURNAL$') {
    validateQueueName(rest[0] as string, text);
    return { computer: ref, target: { kind: 'public', name: rest[0] as string }, journal: true };
  }
  throw illegalPath(text, 'expected COMPUTER\\QUEUE or COMPUTER\\private$\\QUEUE');
}

function splitSuffix(text: string): { head: string; suffix: string | null; rawSuffix: string | null } {
  const at = text.indexOf(';');
  if (at < 0) return { head: text, suffix: null, rawSuffix: null };
  const rawSuffix = text.slice(at + 1);
  return { head: text.slice(0, at), suffix: rawSuffix.toUpperCase(), rawSuffix };
}

/** Parses a format name (§3.3): DIRECT=OS:/TCP:, PRIVATE=, PUBLIC=, MACHINE=. */
export function parseFormatName(text: string): QueueRef {
  const eq = text.indexOf('=');
  if (eq < 0) throw illegalFormat(text, 'expected KIND=…');
  const kind = text.slice(0, eq).toUpperCase();
  const { head, suffix, rawSuffix } = splitSuffix(text.slice(eq + 1));
  // `;JOURNAL` selects the journal; any other suffix names a subqueue (R-S*, `DIRECT=OS:.\q;poison`).
  const queueSuffix = (): { journal: boolean; subqueue?: string } => {
    if (suffix === null || rawSuffix === null) return { journal: false };
    if (suffix === 'JOURNAL') return { journal: true };
    validateSubqueueName(rawSuffix, (why) => illegalFormat(text, why));
    return { journal: false, subqueue: rawSuffix };
  };
  switch (kind) {
    case 'DIRECT': {
      const m = /^(OS|TCP):([^\\]+)\\(.+)$/i.exec(head);
      if (!m) {
        if (/^(HTTP|HTTPS|IPX):/i.test(head)) {
          throw new QkError(
            'UNSUPPORTED_FORMATNAME_OPERATION',
            `'${printableName(text)}': only DIRECT=OS: and DIRECT=TCP: are supported.`,
          );
        }
        throw illegalFormat(text, 'expected DIRECT=OS:COMPUTER\\[private$\\]QUEUE');
      }
      const address = m[2] as string;
      const queuePart = m[3] as string;
      if (!VISIBLE_ASCII.test(address)) throw illegalFormat(text, 'the computer address must be visible ASCII');
      const computer: ComputerRef = { by: 'name', name: address };
      if (queuePart.toUpperCase() === 'SYSTEM$') {
        if (suffix !== 'JOURNAL' && suffix !== 'DEADLETTER' && suffix !== 'DEADXACT') {
          throw illegalFormat(text, 'SYSTEM$ needs ;JOURNAL, ;DEADLETTER or ;DEADXACT');
        }
        return { computer, target: { kind: 'system', queue: suffix }, journal: false };
      }
      const queueSuffixParts = queueSuffix();
      const segments = queuePart.split('\\');
      if (segments.length === 2 && (segments[0] as string).toUpperCase() === 'PRIVATE$') {
        validateQueueNameForFormat(segments[1] as string, text);
        return { computer, target: { kind: 'private', name: segments[1] as string }, ...queueSuffixParts };
      }
      if (segments.length === 1) {
        validateQueueNameForFormat(segments[0] as string, text);
        return { computer, target: { kind: 'public', name: segments[0] as string }, ...queueSuffixParts };
      }
      throw illegalFormat(text, 'expected DIRECT=OS:COMPUTER\\[private$\\]QUEUE');
    }
    case 'PRIVATE': {
      const m = /^([^\\]+)\\([0-9a-f]{1,8})$/i.exec(head);
      const guid = m?.[1] ? parseGuid(m[1]) : null;
      if (!m || !guid) throw illegalFormat(text, 'expected PRIVATE=<computer-guid>\\<1-8 hex digits>');
      return {
        computer: { by: 'guid', guid },
        target: { kind: 'privateNumber', number: parseInt(m[2] as string, 16) },
        ...queueSuffix(),
      };
    }
    case 'PUBLIC': {
      const guid = parseGuid(head);
      if (!guid) throw illegalFormat(text, 'expected PUBLIC=<queue-guid>');
      return { computer: { by: 'local' }, target: { kind: 'publicGuid', guid }, ...queueSuffix() };
    }
    case 'MACHINE': {
      const guid = parseGuid(head);
      if (!guid) throw illegalFormat(text, 'expected MACHINE=<computer-guid>;JOURNAL|DEADLETTER|DEADXACT');
      if (suffix !== 'JOURNAL' && suffix !== 'DEADLETTER' && suffix !== 'DEADXACT') {
        throw illegalFormat(text, 'MACHINE= needs ;JOURNAL, ;DEADLETTER or ;DEADXACT');
      }
      return { computer: { by: 'guid', guid }, target: { kind: 'system', queue: suffix }, journal: false };
    }
    case 'CONNECTOR':
    case 'MULTICAST':
    case 'DL':
      throw new QkError(
        'UNSUPPORTED_FORMATNAME_OPERATION',
        `'${printableName(text)}': ${kind}= format names are not supported.`,
      );
    default:
      throw illegalFormat(text, `unknown format name kind '${kind}'`);
  }
}

function validateQueueNameForFormat(name: string, text: string): void {
  try {
    validateQueueName(name, text);
  } catch (error) {
    if (error instanceof QkError)
      throw new QkError('ILLEGAL_FORMATNAME', error.message.replace('Illegal queue path name', 'Illegal format name'));
    throw error;
  }
}

/** The .NET shorthand path of a system queue (`.\DEADLETTER$`). */
export function systemQueuePath(kind: SystemQueueKind, computer = '.'): string {
  const suffix = kind === 'JOURNAL' ? 'JOURNAL$' : kind === 'DEADLETTER' ? 'DEADLETTER$' : 'XACTDEADLETTER$';
  return `${computer}\\${suffix}`;
}

/** The path of an application queue: `.\private$\name` or `.\name`. */
export function queuePath(kind: 'private' | 'public', name: string, computer = '.'): string {
  return kind === 'private' ? `${computer}\\private$\\${name}` : `${computer}\\${name}`;
}

/** The path of a subqueue: the queue's path and `;NAME`. */
export function subqueuePath(queuePathText: string, name: string): string {
  return `${queuePathText};${name}`;
}

/** The path of an application queue's journal: `.\private$\name\JOURNAL$`. */
export function journalPath(queuePathText: string): string {
  return `${queuePathText}\\JOURNAL$`;
}

/** `MACHINE=<guid>;DEADLETTER` and friends. */
export function machineFormatName(computerGuid: string, kind: SystemQueueKind): string {
  return `MACHINE=${computerGuid};${kind}`;
}

/** `PRIVATE=<guid>\0000000a` (8 hex digits, as MSMQ prints it). */
export function privateFormatName(computerGuid: string, queueNumber: number, journal = false): string {
  return `PRIVATE=${computerGuid}\\${queueNumber.toString(16).padStart(8, '0')}${journal ? ';JOURNAL' : ''}`;
}

/** `PUBLIC=<queue-guid>`. */
export function publicFormatName(queueGuid: string, journal = false): string {
  return `PUBLIC=${queueGuid}${journal ? ';JOURNAL' : ''}`;
}
