import { describe, expect, it } from 'vitest';
import {
  parseAcknowledge,
  parseMessageJournal,
  parseNumber,
  parseOnOff,
  parseQuota,
  parseTimeoutSeconds,
  UsageError,
} from '../../../core/cli/src/index.js';
import { sendPropertiesFrom } from '../../../core/cli/src/send-options.js';

describe('option values', () => {
  it('reads numbers in decimal and hex, and refuses text', () => {
    expect(parseNumber('42', 'N')).toBe(42);
    expect(parseNumber('0x0C', 'N')).toBe(12);
    expect(parseNumber('-3', 'N')).toBe(-3);
    expect(() => parseNumber('12abc', '--priority')).toThrow(UsageError);
    expect(() => parseNumber('', '--priority')).toThrow(/--priority must be a number/);
  });

  it('maps --ack words to MSMQ levels and passes numbers through, even out of range', () => {
    expect(parseAcknowledge('none')).toBe(0);
    expect(parseAcknowledge('full-reach-queue')).toBe(5);
    expect(parseAcknowledge('nack-receive')).toBe(12);
    expect(parseAcknowledge('FULL-RECEIVE')).toBe(14);
    expect(parseAcknowledge('15')).toBe(15);
    expect(parseAcknowledge('99')).toBe(99);
    expect(() => parseAcknowledge('sometimes')).toThrow(UsageError);
  });

  it('maps --journal words to the message journal bits (journal = 2, not the queue value 1)', () => {
    expect(parseMessageJournal('none')).toBe(0);
    expect(parseMessageJournal('deadletter')).toBe(1);
    expect(parseMessageJournal('journal')).toBe(2);
    expect(parseMessageJournal('both')).toBe(3);
    expect(parseMessageJournal('2')).toBe(2);
    expect(() => parseMessageJournal('all')).toThrow(UsageError);
  });

  it('reads on/off, unlimited quotas and fractional timeouts', () => {
    expect(parseOnOff('on', '--journal')).toBe(true);
    expect(parseOnOff('OFF', '--journal')).toBe(false);
    expect(() => parseOnOff('maybe', '--journal')).toThrow(UsageError);
    expect(parseQuota('unlimited', '--quota')).toBeNull();
    expect(parseQuota('512', '--quota')).toBe(512);
    expect(parseTimeoutSeconds('1.5')).toBe(1_500);
    expect(parseTimeoutSeconds('0')).toBe(0);
    expect(parseTimeoutSeconds('0.25')).toBe(250);
  });

  it('builds SendProperties from send options', () => {
    expect(
      sendPropertiesFrom({
        body: 'b',
        label: 'l',
        priority: '7',
        recoverable: true,
        journal: 'both',
        ack: 'full-receive',
        ttrq: '10',
        ttbr: '2',
        appSpecific: '5',
        adminQueue: '.\\private$\\admin',
        correlationId: '{x}\\1',
        conversation: 'c',
        from: '.\\private$\\me',
      }),
    ).toEqual({
      body: 'b',
      label: 'l',
      priority: 7,
      delivery: 'recoverable',
      journal: 3,
      acknowledge: 14,
      timeToReachQueue: 10,
      timeToBeReceived: 2,
      appSpecific: 5,
      adminQueue: '.\\private$\\admin',
      correlationId: '{x}\\1',
      conversation: 'c',
      from: '.\\private$\\me',
    });
    expect(sendPropertiesFrom({})).toEqual({});
    expect(() => sendPropertiesFrom({ body: 'a', bodyFile: '/x' })).toThrow(UsageError);
    expect(() => sendPropertiesFrom({ express: true, recoverable: true })).toThrow(UsageError);
    expect(() => sendPropertiesFrom({ bodyFile: '/nonexistent/file' })).toThrow(/no such file/);
  });
});
