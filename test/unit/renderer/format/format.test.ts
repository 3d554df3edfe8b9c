import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  bodyKind,
  hexDump,
  prettyBody,
  prettyXml,
  textToBase64,
} from '../../../../renderer/src/format/body-view.js';
import { formatBytes, formatDuration, formatPercent, usageFraction } from '../../../../renderer/src/format/format.js';
import { classLabel, classMeaning, classTone } from '../../../../renderer/src/format/message-class.js';

describe('formatting', () => {
  it('sizes, durations and usage', () => {
    expect(formatBytes(1023)).toBe('1,023 B');
    expect(formatBytes(2.5 * 1024 * 1024)).toBe('2.5 MB');
    expect(formatDuration(345_600)).toBe('4 d 0 h');
    expect(formatDuration(125)).toBe('2 min 5 s');
    expect(formatDuration(null)).toBe('Unlimited');
    expect(formatDuration(0xffffffff)).toBe('Unlimited');
    expect(usageFraction(512, null)).toBeNull();
    expect(usageFraction(512, 1024)).toBe(0.5);
    expect(formatPercent(0.001)).toBe('<1 %');
  });

  it('message classes by name and code, with tone and meaning', () => {
    expect(classLabel(0xc001)).toBe('NACK_Q_PURGED 0xC001');
    expect(classTone(0xc001)).toBe('nack');
    expect(classTone(0x4000)).toBe('ack');
    expect(classTone(0)).toBe('normal');
    expect(classMeaning(0xc002)).toMatch(/time-to-be-received/);
    expect(classMeaning(0x1234)).toContain('0x1234');
  });

  it('body views: base64 round trip, hex dump, JSON and XML pretty print', () => {
    const b64 = textToBase64('{"a":1,"é":[2]}');
    expect(new TextDecoder().decode(base64ToBytes(b64))).toBe('{"a":1,"é":[2]}');
    expect(hexDump(new TextEncoder().encode('ABCDEFGHIJKLMNOPQ'))).toBe(
      '00000000  41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP\n00000010  51                                               Q',
    );
    expect(hexDump(new Uint8Array(40), 16)).toContain('24 more bytes not shown');
    expect(bodyKind('{"a":1}')).toBe('json');
    expect(bodyKind('<a/>')).toBe('xml');
    expect(bodyKind('{not json')).toBe('text');
    expect(bodyKind(null)).toBe('binary');
    expect(prettyBody('{"a":[1]}', 'json')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyXml('<order id="1"><line sku="A">2</line><note/></order>')).toBe(
      '<order id="1">\n  <line sku="A">2</line>\n  <note/>\n</order>',
    );
  });
});
