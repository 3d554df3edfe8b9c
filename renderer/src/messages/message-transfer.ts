/** Lossless export/import of messages as JSON (MessageInfo[], bodies in base64). */
import { messageInfoSchema } from '@qk/api';
import type { MessageInfo, SendProperties } from '@qk/model';
import type { ImportSource } from './import-preview.js';

/** The file format written by Export and read by Import. */
export interface MessageExport {
  format: 'queuekeeper.messages';
  version: 1;
  computer: string;
  path: string;
  exportedTime: string;
  messages: MessageInfo[];
}

/** Serializes an export; bodies travel as base64 so binary messages survive byte for byte. */
export function exportJson(computer: string, path: string, messages: MessageInfo[], now = new Date()): string {
  const doc: MessageExport = {
    format: 'queuekeeper.messages',
    version: 1,
    computer,
    path,
    exportedTime: now.toISOString(),
    messages,
  };
  return JSON.stringify(doc, null, 2);
}

/** A file name that says what was exported and when. */
export function exportFileName(path: string, now = new Date()): string {
  const queue = path
    .replace(/^\.\\/, '')
    .replace(/[\\/:*?"<>|$]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const stamp = now.toISOString().replace(/[:]/g, '').replace(/\..*$/, '');
  return `${queue || 'messages'}-${stamp}.json`;
}

/** Reads an export (or a bare MessageInfo[]); throws with the index of the first bad message. */
export function parseImport(text: string): MessageInfo[] {
  return readImport(text).messages;
}

/** Reads an export with where it came from (null for a bare list); throws with the first bad message. */
export function readImport(text: string): { messages: MessageInfo[]; source: ImportSource | null } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new Error(`The file is not JSON (${error instanceof Error ? error.message : String(error)}).`, {
      cause: error,
    });
  }
  const list = Array.isArray(doc) ? doc : (doc as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(list)) throw new Error('The file holds no "messages" list.');
  const meta = Array.isArray(doc) ? null : (doc as Partial<MessageExport>);
  const source =
    meta && typeof meta.computer === 'string' && typeof meta.path === 'string'
      ? { computer: meta.computer, path: meta.path, exportedTime: String(meta.exportedTime ?? '') }
      : null;
  const messages = list.map((item, index) => {
    const parsed = messageInfoSchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `Message ${index + 1} is not valid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
      );
    }
    return parsed.data;
  });
  return { messages, source };
}

/** The send properties that reproduce a message (everything a sender can set). */
export function toSendProperties(m: MessageInfo): SendProperties {
  const props: SendProperties = {
    bodyBase64: m.bodyBase64,
    label: m.label,
    priority: m.priority,
    delivery: m.delivery,
    journal: m.journal,
    acknowledge: m.acknowledge,
    timeToReachQueue: m.timeToReachQueue,
    appSpecific: m.appSpecific,
  };
  if (m.adminQueue) props.adminQueue = m.adminQueue;
  if (m.responseQueue) props.responseQueue = m.responseQueue;
  if (m.timeToBeReceived !== null) props.timeToBeReceived = m.timeToBeReceived;
  if (m.correlationId) props.correlationId = m.correlationId;
  if (m.conversation) props.conversation = m.conversation;
  return props;
}
