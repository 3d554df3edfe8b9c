import { describe, expect, test } from 'vitest';
import {
  computerNameProblem,
  parseQueueName,
  printableName,
  tryParseMessageId,
  parseCorrelationId,
  formatMessageId,
  messageClassName,
  formatClassCode,
  MessageClass,
  Acknowledgment,
} from '@qk/model';

describe('path names (§3.2)', () => {
  test('private, public, journal and system shorthands', () => {
    expect(parseQueueName('.\\private$\\Orders')).toEqual({
      computer: { by: 'local' },
      target: { kind: 'private', name: 'Orders' },
      journal: false,
    });
    expect(parseQueueName('HOST\\orders').target).toEqual({ kind: 'public', name: 'orders' });
    expect(parseQueueName('.\\private$\\orders\\JOURNAL$').journal).toBe(true);
    expect(parseQueueName('.\\deadletter$').target).toEqual({ kind: 'system', queue: 'DEADLETTER' });
    expect(parseQueueName('.\\XACTDEADLETTER$').target).toEqual({ kind: 'system', queue: 'DEADXACT' });
    expect(parseQueueName('.\\JOURNAL$').target).toEqual({ kind: 'system', queue: 'JOURNAL' });
    expect(parseQueueName('.\\system$;DEADXACT').target).toEqual({ kind: 'system', queue: 'DEADXACT' });
  });

  test.each([
    ['.\\private$\\', 'empty'],
    [`.\\private$\\${'a'.repeat(125)}`, '124'],
    ['.\\private$\\a;b;c', ';'],
    [`.\\private$\\a;${'s'.repeat(33)}`, '32'],
    ['.\\private$\\a;', 'empty'],
    ['.\\private$\\a\\JOURNAL$;poison', 'R-S5'],
    ['.\\DEADLETTER$;poison', 'R-S5'],
    ['.\\private$\\a+b', '+'],
    ['.\\private$\\a,b', ','],
    ['.\\private$\\a"b', '"'],
    ['.\\private$\\a\\b', 'parts'],
    ['.\\private$\\abc$', '$'],
    ['orders', 'COMPUTER'],
  ])('illegal name %s is refused with ILLEGAL_QUEUE_PATHNAME', (name) => {
    expect(() => parseQueueName(name)).toThrow(expect.objectContaining({ code: 'ILLEGAL_QUEUE_PATHNAME' }));
  });

  test('R-S* a subqueue is the queue path and ;NAME (up to 32 characters), in a path or a format name', () => {
    expect(parseQueueName('.\\private$\\orders;Poison')).toEqual({
      computer: { by: 'local' },
      target: { kind: 'private', name: 'orders' },
      journal: false,
      subqueue: 'Poison',
    });
    expect(parseQueueName(`.\\orders;${'s'.repeat(32)}`).subqueue).toHaveLength(32);
    expect(parseQueueName('DIRECT=OS:.\\private$\\orders;retry')).toMatchObject({
      target: { kind: 'private', name: 'orders' },
      journal: false,
      subqueue: 'retry',
    });
    expect(parseQueueName('DIRECT=OS:.\\private$\\orders;journal')).toMatchObject({ journal: true });
    expect(parseQueueName('.\\system$;DEADXACT').subqueue).toBeUndefined();
  });

  test.each([
    ['RIGHT-TO-LEFT OVERRIDE', '\u202e'],
    ['LEFT-TO-RIGHT ISOLATE', '\u2066'],
    ['ARABIC LETTER MARK', '\u061c'],
    ['RIGHT-TO-LEFT MARK', '\u200f'],
    ['LINE SEPARATOR', '\u2028'],
    ['a C1 control', '\u0085'],
    ['DEL', '\u007f'],
    ['TAB', '\t'],
    ['a lone surrogate', '\ud800'],
  ])('a queue name with %s is refused, and the message shows it escaped', (_what, char) => {
    const name = `.\\private$\\invoice${char}fdp.exe`;
    expect(() => parseQueueName(name)).toThrow(expect.objectContaining({ code: 'ILLEGAL_QUEUE_PATHNAME' }));
    try {
      parseQueueName(name);
    } catch (error) {
      expect((error as Error).message).not.toContain(char);
      expect((error as Error).message).toMatch(/\\u\{[0-9A-F]+\}/);
    }
    expect(() => parseQueueName(`DIRECT=OS:alpha\\private$\\a${char}b`)).toThrow(
      expect.objectContaining({ code: 'ILLEGAL_FORMATNAME' }),
    );
  });

  test('letters of any script stay legal in queue names (only invisible and bidi controls are refused)', () => {
    for (const name of ['заказы', 'طلبات', '注文', 'café-ü']) {
      expect(parseQueueName(`.\\private$\\${name}`).target).toEqual({ kind: 'private', name });
    }
  });

  test('computer names are visible ASCII: control and bidi characters are refused, and so is 257 characters', () => {
    expect(computerNameProblem('ALPHA-1.example.com')).toBeNull();
    expect(computerNameProblem('A'.repeat(256))).toBeNull();
    expect(computerNameProblem('A'.repeat(257))).toMatch(/longer than 256/);
    expect(computerNameProblem('AL\u202ePHA')).toMatch(/U\+202E/);
    expect(computerNameProblem('AL PHA')).toMatch(/visible ASCII/);
    expect(() => parseQueueName('AL\u202ePHA\\private$\\q')).toThrow(
      expect.objectContaining({ code: 'ILLEGAL_QUEUE_PATHNAME' }),
    );
  });

  test('an error message repeats at most the first 160 characters of a refused name', () => {
    const name = `.\\private$\\${'n'.repeat(5_000)}`;
    expect(() => parseQueueName(name)).toThrow(expect.objectContaining({ code: 'ILLEGAL_QUEUE_PATHNAME' }));
    try {
      parseQueueName(name);
    } catch (error) {
      expect((error as Error).message.length).toBeLessThan(400);
      expect(printableName(name)).toContain('(5011 characters)');
    }
  });

  test('a 124-character name is legal', () => {
    expect(parseQueueName(`.\\private$\\${'a'.repeat(124)}`).target).toMatchObject({ kind: 'private' });
  });
});

describe('format names (§3.3)', () => {
  const guid = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
  test('DIRECT, PRIVATE, PUBLIC, MACHINE', () => {
    expect(parseQueueName('DIRECT=OS:alpha\\private$\\q')).toEqual({
      computer: { by: 'name', name: 'alpha' },
      target: { kind: 'private', name: 'q' },
      journal: false,
    });
    expect(parseQueueName('DIRECT=TCP:127.0.0.1\\q;JOURNAL').journal).toBe(true);
    expect(parseQueueName(`PRIVATE=${guid}\\0000000a`).target).toEqual({ kind: 'privateNumber', number: 10 });
    expect(parseQueueName(`MACHINE=${guid.toUpperCase()};DEADLETTER`)).toEqual({
      computer: { by: 'guid', guid },
      target: { kind: 'system', queue: 'DEADLETTER' },
      journal: false,
    });
    expect(parseQueueName(`FORMATNAME:PUBLIC=${guid}`).target).toEqual({ kind: 'publicGuid', guid });
  });

  test('malformed format names are ILLEGAL_FORMATNAME', () => {
    expect(() => parseQueueName('MACHINE=nope;JOURNAL')).toThrow(
      expect.objectContaining({ code: 'ILLEGAL_FORMATNAME' }),
    );
    expect(() => parseQueueName(`MACHINE=${guid}`)).toThrow(expect.objectContaining({ code: 'ILLEGAL_FORMATNAME' }));
    expect(() => parseQueueName('DIRECT=OS:host')).toThrow(expect.objectContaining({ code: 'ILLEGAL_FORMATNAME' }));
  });
});

describe('message IDs (§1.2) and classes (§2.1)', () => {
  const guid = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
  test('braced and brace-less forms parse to the same ID', () => {
    expect(tryParseMessageId(`{${guid}}\\42`)).toEqual({ computerGuid: guid, sequence: 42 });
    expect(tryParseMessageId(`${guid}\\42`)).toEqual({ computerGuid: guid, sequence: 42 });
    expect(formatMessageId({ computerGuid: guid, sequence: 42 })).toBe(`{${guid}}\\42`);
  });

  test('§1.2 System.Messaging prints sequences of 2^31 and more as a negative Int32: read as the same 32 bits', () => {
    expect(tryParseMessageId(`${guid}\\-2147483648`)).toEqual({ computerGuid: guid, sequence: 0x8000_0000 });
    expect(tryParseMessageId(`{${guid}}\\-1`)).toEqual({ computerGuid: guid, sequence: 0xffff_ffff });
    expect(tryParseMessageId(`${guid}\\-2147483649`)).toBeNull();
    expect(tryParseMessageId(`${guid}\\4294967296`)).toBeNull();
  });

  test('§1.2 40 hex digits are the 20 raw bytes as Windows lays them out: GUID fields and sequence little-endian', () => {
    // {1b4e28ba-2fa1-11d2-883f-0016d3cca427}\\1 in memory: ba284e1b a12f d211 883f0016d3cca427 01000000.
    expect(tryParseMessageId('ba284e1ba12fd211883f0016d3cca42701000000')).toEqual({ computerGuid: guid, sequence: 1 });
    expect(tryParseMessageId('BA284E1BA12FD211883F0016D3CCA427FFFFFFFF')?.sequence).toBe(0xffff_ffff);
  });

  test('R-V0a a correlation ID that is not 20 bytes is ILLEGAL_PROPERTY_SIZE', () => {
    expect(() => parseCorrelationId('abcd')).toThrow(expect.objectContaining({ code: 'ILLEGAL_PROPERTY_SIZE' }));
    expect(parseCorrelationId('00'.repeat(20))).toEqual({
      computerGuid: '00000000-0000-0000-0000-000000000000',
      sequence: 0,
    });
  });

  test('receive NACKs have the SDK values, not the renumbered third-party ones', () => {
    expect(MessageClass.NACK_Q_DELETED).toBe(49152);
    expect(MessageClass.NACK_RECEIVE_REJECTED).toBe(49156);
    expect(messageClassName(0xc002)).toBe('NACK_RECEIVE_TIMEOUT');
    expect(formatClassCode(0xc002)).toBe('0xC002');
    expect(Acknowledgment.FULL_RECEIVE).toBe(0x0e);
  });
});

describe('parsed names are kept', () => {
  test('the same name parses to one frozen result, which nobody can change under another caller', () => {
    const first = parseQueueName('.\\private$\\kept-orders');
    expect(parseQueueName('.\\private$\\kept-orders')).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.computer) && Object.isFrozen(first.target)).toBe(true);
    expect(() => {
      (first as { journal: boolean }).journal = true;
    }).toThrow(TypeError);
    expect(parseQueueName('.\\private$\\kept-orders').journal).toBe(false);
  });

  test('a refused name is refused every time (failures are not kept)', () => {
    for (let i = 0; i < 2; i++)
      expect(() => parseQueueName('.\\private$\\bad;')).toThrow(
        expect.objectContaining({ code: 'ILLEGAL_QUEUE_PATHNAME' }),
      );
  });

  test('more names than are kept still parse right', () => {
    for (let i = 0; i < 2_500; i++)
      expect(parseQueueName(`.\\private$\\many-${i}`).target).toMatchObject({ name: `many-${i}` });
  });
});
