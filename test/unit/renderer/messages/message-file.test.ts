import { describe, expect, it } from 'vitest';
import type { ExportedMessage } from '@qk/model';
import { exportFileName, readMessageFile, writeMessageFile } from '../../../../renderer/src/messages/message-file.js';
import { message } from '../support/messages.js';

const header = {
  format: 'queuekeeper.messages' as const,
  version: 2 as const,
  computer: 'ALPHA',
  computerId: '00000000-0000-0000-0000-000000000001',
  path: '.\\private$\\orders',
  exportedTime: '2026-01-02T03:04:05.000Z',
};

function exported(lookupId: number, patch: Partial<ExportedMessage> = {}): ExportedMessage {
  // The file keeps what a message is, not the list's conveniences (class name, text body, body size).
  const { class: _name, body: _text, bodySize: _size, ...m } = message(lookupId);
  return { ...m, timerBaseTime: m.sentTime, ...patch };
}

describe('message file (docs/message-file-format.md)', () => {
  it('is JSON Lines: the header, then one message per line, binary bodies byte for byte', () => {
    const messages = [
      exported(1, { bodyBase64: 'AAECA/8=' }),
      exported(2, { correlationId: '{00000000-0000-0000-0000-000000000001}\\9' }),
    ];
    const text = writeMessageFile(header, messages);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] ?? '')).toEqual(header);
    const read = readMessageFile(text);
    expect(read.header).toEqual(header);
    expect(read.messages).toEqual(messages);
  });

  it("reads the console's first format (one JSON document of MessageInfo), timers from the send", () => {
    const m = message(3);
    const read = readMessageFile(
      JSON.stringify({
        format: 'queuekeeper.messages',
        version: 1,
        computer: 'BETA',
        path: '.\\DEADLETTER$',
        messages: [m],
      }),
    );
    expect(read.header).toMatchObject({ computer: 'BETA', path: '.\\DEADLETTER$' });
    expect(read.messages[0]).toMatchObject({ id: m.id, timerBaseTime: m.sentTime, bodyBase64: m.bodyBase64 });
  });

  it('says which line or message of a file is broken', () => {
    expect(() => readMessageFile('nope')).toThrow(/not a Queuekeeper message file/);
    expect(() => readMessageFile('{"format":"other"}')).toThrow(/not a Queuekeeper message file/);
    const bad = writeMessageFile(header, [exported(1)]) + '{"id": 3}\n';
    expect(() => readMessageFile(bad)).toThrow(/Message 2 is not valid/);
    expect(exportFileName('.\\private$\\orders;poison', new Date('2026-01-02T03:04:05Z'))).toBe(
      'private-orders-poison-2026-01-02T030405.jsonl',
    );
  });
});
