/** The Body tab's views: text, pretty JSON/XML, and a hex dump of the raw bytes. */

/** Bytes of a base64 body (atob is in every browser and in Electron's sandboxed renderer). */
export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Base64 of a UTF-8 string (for import and for the send dialog's text body). */
export function textToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Classic 16-bytes-a-line dump: offset, hex, printable ASCII. Capped so a 4 MB body stays responsive. */
export function hexDump(bytes: Uint8Array, maxBytes = 64 * 1024): string {
  const lines: string[] = [];
  const end = Math.min(bytes.length, maxBytes);
  for (let offset = 0; offset < end; offset += 16) {
    const chunk = bytes.subarray(offset, Math.min(offset + 16, end));
    const hex = Array.from(chunk, (b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = Array.from(chunk, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`);
  }
  if (bytes.length > end) lines.push(`… ${bytes.length - end} more bytes not shown`);
  return lines.join('\n');
}

/** What kind of text a body is, to offer the pretty view. */
export type BodyKind = 'json' | 'xml' | 'text' | 'binary';

/** Guesses JSON or XML from the text; binary when the body is not UTF-8 text. */
export function bodyKind(text: string | null): BodyKind {
  if (text === null) return 'binary';
  const trimmed = text.trim();
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && isJson(trimmed)) return 'json';
  if (trimmed.startsWith('<') && trimmed.endsWith('>')) return 'xml';
  return 'text';
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Indented JSON or XML; other text unchanged. */
export function prettyBody(text: string, kind: BodyKind): string {
  if (kind === 'json') return JSON.stringify(JSON.parse(text), null, 2);
  if (kind === 'xml') return prettyXml(text);
  return text;
}

/** Indents XML tag by tag; good enough for reading a message, never used to rewrite one. */
export function prettyXml(xml: string): string {
  const tokens = xml
    .replace(/>\s*</g, '><')
    .split(/(?=<)|(?<=>)/g)
    .filter((t) => t.trim() !== '');
  let depth = 0;
  const lines: string[] = [];
  for (const token of tokens) {
    const isClosing = /^<\//.test(token);
    const isSelfContained = /^<[^>]+\/>$/.test(token) || /^<[?!]/.test(token);
    const isOpening = /^<[^/!?][^>]*>$/.test(token) && !isSelfContained;
    if (isClosing) depth = Math.max(0, depth - 1);
    // Text between an opening and its closing tag stays on the opening tag's line.
    const last = lines.length - 1;
    if (!token.startsWith('<') && last >= 0) {
      lines[last] += token;
      continue;
    }
    if (isClosing && last >= 0 && /^\s*<[^/!?][^>]*>[^<]+$/.test(lines[last] ?? '')) {
      lines[last] += token;
      continue;
    }
    lines.push(`${'  '.repeat(depth)}${token}`);
    if (isOpening) depth += 1;
  }
  return lines.join('\n');
}
