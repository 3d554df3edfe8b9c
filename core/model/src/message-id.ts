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

/** Parses `{guid}\N`, `guid\N` or 40 hex digits (the 20 raw bytes); returns null when it is none of them. */
export function tryParseMessageId(text: string): MessageId | null {
  const trimmed = text.trim();
  const sep = trimmed.lastIndexOf('\\');
  if (sep > 0) {
    const guid = parseGuid(trimmed.slice(0, sep));
    const seqText = trimmed.slice(sep + 1);
    if (guid && /^\d{1,10}$/.test(seqText)) {
      const sequence = Number(seqText);
      if (sequence <= 0xffffffff) return { computerGuid: guid, sequence };
    }
    return null;
  }
  if (/^[0-9a-f]{40}$/i.test(trimmed)) {
    const hex = trimmed.toLowerCase();
    const g = hex.slice(0, 32);
    const guid = `${g.slice(0, 8)}-${g.slice(8, 12)}-${g.slice(12, 16)}-${g.slice(16, 20)}-${g.slice(20, 32)}`;
    return { computerGuid: guid, sequence: parseInt(hex.slice(32), 16) };
  }
  return null;
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
