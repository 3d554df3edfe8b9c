import { describe, expect, it } from 'vitest';
import {
  exportFileName,
  exportJson,
  parseImport,
  toSendProperties,
} from '../../../../renderer/src/messages/message-transfer.js';
import { message } from '../support/messages.js';

describe('export and import', () => {
  it('round-trips messages losslessly, binary bodies included', () => {
    const original = [
      message(1, {
        body: null,
        bodyBase64: 'AAECA/8=',
        bodySize: 5,
        correlationId: '{00000000-0000-0000-0000-000000000001}\\9',
        timeToBeReceived: 60,
      }),
      message(2),
    ];
    const parsed = parseImport(exportJson('ALPHA', '.\\DEADLETTER$', original));
    expect(parsed).toEqual(original);
    expect(parseImport(JSON.stringify(original))).toEqual(original);
  });

  it('says which message of a file is broken', () => {
    expect(() => parseImport('nope')).toThrow(/not JSON/);
    expect(() => parseImport('{"messages": 3}')).toThrow(/no "messages" list/);
    expect(() => parseImport(JSON.stringify([message(1), { id: 'x' }]))).toThrow(/Message 2 is not valid/);
  });

  it('sends back every property a sender can set, and leaves out absent ones', () => {
    const props = toSendProperties(
      message(3, {
        adminQueue: '.\\private$\\admin',
        timeToBeReceived: null,
        priority: 6,
        journal: 1,
        acknowledge: 0x0e,
      }),
    );
    expect(props).toEqual({
      bodyBase64: 'aGVsbG8=',
      label: 'm3',
      priority: 6,
      delivery: 'express',
      journal: 1,
      acknowledge: 0x0e,
      timeToReachQueue: 345600,
      appSpecific: 0,
      adminQueue: '.\\private$\\admin',
    });
    expect(exportFileName('.\\private$\\orders', new Date('2026-01-02T03:04:05Z'))).toBe(
      'private-orders-2026-01-02T030405.json',
    );
  });
});
