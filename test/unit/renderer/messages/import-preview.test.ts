import { describe, expect, it } from 'vitest';
import { previewImport } from '../../../../renderer/src/messages/import-preview.js';
import { exportJson, readImport } from '../../../../renderer/src/messages/message-transfer.js';
import { message } from '../support/messages.js';

describe('import preview', () => {
  it('says how many, from where, of which classes, and what keeping them as they were would do', () => {
    const sent = '2026-01-01T00:00:00.000Z';
    const messages = [
      ...Array.from({ length: 20 }, (_, i) => message(i + 1, { sentTime: sent, timeToBeReceived: 60 })),
      ...Array.from({ length: 6 }, (_, i) =>
        message(100 + i, { classCode: 0xc002, class: 'NACK_RECEIVE_TIMEOUT', bodySize: 10 }),
      ),
    ];
    const { messages: read, source } = readImport(exportJson('ALPHA', '.\\DEADLETTER$', messages, new Date(sent)));
    const preview = previewImport(read, source, Date.parse(sent) + 3_600_000);
    expect(preview).toMatchObject({
      count: 26,
      bytes: 20 * 5 + 6 * 10,
      source: { computer: 'ALPHA', path: '.\\DEADLETTER$', exportedTime: sent },
      expiredIfKept: 20,
      nackClasses: 6,
    });
    expect(preview.classes).toEqual([
      { name: 'NORMAL', code: 0, count: 20 },
      { name: 'NACK_RECEIVE_TIMEOUT', code: 0xc002, count: 6 },
    ]);
    expect(readImport(JSON.stringify(messages)).source).toBeNull();
  });
});
