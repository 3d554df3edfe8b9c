/**
 * Message identifiers (§1.2): 16-byte GUID of the sending computer + 32-bit sequence. Shown as
 * `{GUID}\N` (the console's form); the brace-less System.Messaging form is accepted on input.
 */
import { parseGuid } from './names.js';
import { QkError } from './errors.js';

export interface MessageId {
  computerGuid: string;
  sequence: number;
}

export const NULL_MESSAGE_ID_TEXT = '{00000000-0000-0000-0000-000000000000}\\0';

export function formatMessageId(id: MessageId): string {
  return `{${id.computerGuid}}\\${id.sequence}`;
}

/**
 * Parses `{guid}\N`, `guid\N` or 40 hex digits (the 20 raw bytes); returns null when it is none of them. N is
 * the unsigned sequence, or the signed Int32 System.Messaging prints for sequences of 2^31 and more (§1.2).
 */
export function tryParseMessageId(text: string): MessageId | null {
  const trimmed = text.trim();
  const sep = trimmed.lastIndexOf('\\');
  if (sep > 0) {
    const guid = parseGuid(trimmed.slice(0, sep));
    const sequence = parseSequence(trimmed.slice(sep + 1));
    return guid && sequence !== null ? { computerGuid: guid, sequence } : null;
  }
  if (/^[0-9a-f]{40}$/i.test(trimmed)) return fromRawBytes(trimmed.toLowerCase());
  return null;
}

/** The sequence after the backslash: 0..4294967295, or -2147483648..-1 read as the same 32 bits. */
function parseSequence(text: string): number | null {
  if (!/^-?\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  if (n >= 0) return n <= 0xffffffff ? n : null;
  return n >= -0x80000000 ? n + 0x1_0000_0000 : null;
}

/**
 * The 20 bytes of PROPID_M_MSGID / PROPID_M_CORRELATIONID as Windows lays them out: a GUID (its first three
 * fields little-endian, the last eight bytes as they are) and the sequence as a little-endian DWORD.
 */
function fromRawBytes(hex: string): MessageId {
  // Byte i is hex.slice(2 * i, 2 * i + 2); no Buffer, so that the console (a browser) can use this too.
  const bytes = (from: number, to: number): string[] => hex.slice(2 * from, 2 * to).match(/../g) ?? [];
  const littleEndian = (from: number, to: number): string => bytes(from, to).reverse().join('');
  const asIs = (from: number, to: number): string => bytes(from, to).join('');
  const guid = `${littleEndian(0, 4)}-${littleEndian(4, 6)}-${littleEndian(6, 8)}-${asIs(8, 10)}-${asIs(10, 16)}`;
  return { computerGuid: guid, sequence: parseInt(littleEndian(16, 20), 16) };
}

/**
 * Parses a correlation ID. PROPID_M_CORRELATIONID is exactly 20 bytes: anything that is not a message
 * ID is the wrong size (R-V0a → ILLEGAL_PROPERTY_SIZE).
 */
export function parseCorrelationId(text: string): MessageId {
  const id = tryParseMessageId(text);
  if (!id) {
    throw new QkError(
      'ILLEGAL_PROPERTY_SIZE',
      `Correlation ID '${text}' is not 20 bytes; give a message ID ({GUID}\\N) or 40 hex digits.`,
    );
  }
  return id;
}

/** Normalizes any accepted message ID text to the `{guid}\N` form, or throws INVALID_PARAMETER. */
export function normalizeMessageId(text: string): string {
  const id = tryParseMessageId(text);
  if (!id) throw new QkError('INVALID_PARAMETER', `'${text}' is not a message ID ({GUID}\\N).`);
  return formatMessageId(id);
}
