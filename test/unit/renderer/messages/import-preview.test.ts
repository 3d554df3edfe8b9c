import { describe, expect, it } from 'vitest';
import type { ExportedMessage } from '@qk/model';
import { previewImport } from '../../../../renderer/src/messages/import-preview.js';
import { readMessageFile, writeMessageFile } from '../../../../renderer/src/messages/message-file.js';
import { message } from '../support/messages.js';

/** An exported message (the file format) made from a plain MessageInfo. */
function exported(lookupId: number, patch: Partial<ExportedMessage> = {}): ExportedMessage {
  // The file keeps what a message is, not the list's conveniences (class name, text body, body size).
  const { class: _name, body: _text, bodySize: _size, ...m } = message(lookupId);
  return { ...m, timerBaseTime: m.sentTime, ...patch };
}

const header = {
  format: 'queuekeeper.messages' as const,
  version: 2 as const,
  computer: 'ALPHA',
  computerId: '00000000-0000-0000-0000-000000000001',
  path: '.\\DEADLETTER$',
  exportedTime: '2026-01-01T00:00:00.000Z',
};

describe('import preview', () => {
  it('says how many, from where, of which classes, and what keeping them as they were would do', () => {
    const base = '2026-01-01T00:00:00.000Z';
    const messages = [
      ...Array.from({ length: 20 }, (_, i) => exported(i + 1, { timerBaseTime: base, timeToBeReceived: 60 })),
      ...Array.from({ length: 6 }, (_, i) => exported(100 + i, { classCode: 0xc002, bodyBase64: 'AAECAwQFBgcICQ==' })),
    ];
    const read = readMessageFile(writeMessageFile(header, messages));
    const preview = previewImport(read.messages, read.header, Date.parse(base) + 3_600_000);
    expect(preview).toMatchObject({
      count: 26,
      bytes: 20 * 5 + 6 * 10,
      source: { computer: 'ALPHA', path: '.\\DEADLETTER$', exportedTime: base },
      expiredIfKept: 20,
      nackClasses: 6,
    });
    expect(preview.classes).toEqual([
      { name: 'NORMAL', code: 0, count: 20 },
      { name: 'NACK_RECEIVE_TIMEOUT', code: 0xc002, count: 6 },
    ]);
  });
});
