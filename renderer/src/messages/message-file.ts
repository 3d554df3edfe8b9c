/**
 * The message file of Export and Import — the same file `qk export` writes and `qk import` reads
 * (docs/message-file-format.md): JSON Lines, a header line, then one message per line with every property
 * and the body in base64. A file of the console's first format (one JSON document) is read too.
 */
import { exportedMessageSchema, messageInfoSchema } from '@qk/api';
import { exportedFromVersion1, type ExportedMessage, type MessageFileHeader } from '@qk/model';

/** The text of a message file. */
export function writeMessageFile(header: MessageFileHeader, messages: readonly ExportedMessage[]): string {
  return [header, ...messages].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** A file name that says what was exported and when. */
export function exportFileName(path: string, now = new Date()): string {
  const queue = path
    .replace(/^\.\\/, '')
    .replace(/[\\/:*?"<>|$;]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const stamp = now.toISOString().replace(/[:]/g, '').replace(/\..*$/, '');
  return `${queue || 'messages'}-${stamp}.jsonl`;
}

function invalid(where: string, issue: { path: PropertyKey[]; message: string } | undefined): Error {
  return new Error(`${where} is not valid: ${issue ? `${issue.path.join('.')} ${issue.message}` : ''}`.trim());
}

/** Reads a message file; throws naming the first line or message that is not valid. */
export function readMessageFile(text: string): { header: MessageFileHeader | null; messages: ExportedMessage[] } {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  let first: unknown;
  try {
    first = JSON.parse(lines[0] ?? '');
  } catch {
    return readVersion1(text);
  }
  const header = first as Partial<MessageFileHeader> & { messages?: unknown };
  if (header.format !== 'queuekeeper.messages') throw new Error('The file is not a Queuekeeper message file.');
  if (header.version !== 2) return readVersion1(text);
  const messages = lines.slice(1).map((line, index) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new Error(`Line ${index + 2} is not JSON.`, { cause: error });
    }
    const parsed = exportedMessageSchema.safeParse(value);
    if (!parsed.success) throw invalid(`Message ${index + 1}`, parsed.error.issues[0]);
    return parsed.data;
  });
  return { header: header as MessageFileHeader, messages };
}

/** The console's first format: one JSON document {format, version: 1, computer, path, messages: MessageInfo[]}. */
function readVersion1(text: string): { header: MessageFileHeader | null; messages: ExportedMessage[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new Error(`The file is not a Queuekeeper message file (${(error as Error).message}).`, { cause: error });
  }
  const d = doc as { format?: unknown; computer?: unknown; path?: unknown; exportedTime?: unknown; messages?: unknown };
  const list = Array.isArray(doc) ? doc : d.messages;
  if (!Array.isArray(list)) throw new Error('The file holds no messages.');
  const messages = list.map((item, index) => {
    const parsed = messageInfoSchema.safeParse(item);
    if (!parsed.success) throw invalid(`Message ${index + 1}`, parsed.error.issues[0]);
    return exportedFromVersion1(parsed.data);
  });
  const header: MessageFileHeader | null =
    typeof d.computer === 'string' && typeof d.path === 'string'
      ? {
          format: 'queuekeeper.messages',
          version: 2,
          computer: d.computer,
          computerId: '',
          path: d.path,
          exportedTime: typeof d.exportedTime === 'string' ? d.exportedTime : '',
        }
      : null;
  return { header, messages };
}
