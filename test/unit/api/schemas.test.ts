import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { Bounds, eventSchema, operations, serviceFileSchema, toErrorBody, type OperationName } from '@qk/api';
import { Limits } from '@qk/model';

type JsonSchema = { [key: string]: unknown };

/** Every string without maxLength and every array without maxItems in a JSON schema, by where they are. */
function unbounded(schema: unknown, where: string, found: string[] = []): string[] {
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => unbounded(item, `${where}[${i}]`, found));
    return found;
  }
  if (typeof schema !== 'object' || schema === null) return found;
  const node = schema as JsonSchema;
  const isEnum = Array.isArray(node['enum']) || 'const' in node;
  const types: unknown[] = Array.isArray(node['type']) ? node['type'] : [node['type']];
  if (types.includes('string') && !isEnum && typeof node['maxLength'] !== 'number') found.push(where);
  if (types.includes('array') && typeof node['maxItems'] !== 'number') found.push(where);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const [name, property] of Object.entries(value)) unbounded(property, `${where}.${name}`, found);
    } else if (typeof value === 'object') unbounded(value, `${where}/${key}`, found);
  }
  return found;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): unknown {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' });
}

/**
 * Outputs that list what the store holds, as long as it is: MSMQ has no limit on the number of queues, nor on
 * the places one message ID can be found (a copy per destination, journal and dead-letter queue). Nothing a
 * client sends is in this list.
 */
const STORE_SIZED_OUTPUTS = new Set<string>([
  'queueList.output',
  'messageFind.output',
  'acknowledgmentsFor.output',
  // Trusted peers, routes and outgoing queues: configuration and queues of the store, as many as it holds.
  'peerList.output',
  'routeList.output',
  'outgoingList.output',
  'messagesSearch.output.queues',
  'serviceRestartImpact.output.queues',
]);

describe('bounds on every string and list of the contract (issue 7, item 7)', () => {
  test('the walker finds an unbounded string or list wherever it is nested', () => {
    const schema = z.object({
      a: z.string(),
      b: z.array(z.number()).optional(),
      c: z.object({ d: z.string().max(3), e: z.string().nullable() }),
      f: z.enum(['x', 'y']),
    });
    expect(unbounded(jsonSchema(schema, 'input'), 'x')).toEqual(['x.a', 'x.b', 'x.c.e']);
  });

  test('every input string and array of every operation has a maximum', () => {
    const missing = (Object.keys(operations) as OperationName[]).flatMap((name) =>
      unbounded(jsonSchema(operations[name].input, 'input'), `${name}.input`),
    );
    expect(missing).toEqual([]);
  });

  test('every output string and array has a maximum, except lists as long as the store', () => {
    const missing = (Object.keys(operations) as OperationName[])
      .flatMap((name) => unbounded(jsonSchema(operations[name].output, 'output'), `${name}.output`))
      .filter((where) => !STORE_SIZED_OUTPUTS.has(where));
    expect(missing).toEqual([]);
    expect(unbounded(jsonSchema(eventSchema, 'output'), 'event')).toEqual([]);
    expect(unbounded(jsonSchema(serviceFileSchema, 'output'), 'service.json')).toEqual([]);
  });

  test('the path bound is the longest legal format name, which the schema accepts; one more is refused', () => {
    const longest = `FORMATNAME:DIRECT=TCP:${'h'.repeat(256)}\\private$\\${'q'.repeat(124)};${'s'.repeat(32)}`;
    expect(longest).toHaveLength(Bounds.PATH);
    expect(operations.queueShow.input.safeParse({ path: longest }).success).toBe(true);
    const result = operations.queueShow.input.safeParse({ path: `${longest}x` });
    expect(result.success).toBe(false);
    expect(toErrorBody(result.error).code).toBe('ILLEGAL_QUEUE_PATHNAME');
  });

  test('R-V0a a label over 250 characters is LABEL_TOO_LONG at the schema, as MSMQ names it; 250 passes', () => {
    const send = (label: string) => operations.send.input.safeParse({ path: '.\\private$\\q', message: { label } });
    expect(send('l'.repeat(Limits.MAX_MESSAGE_LABEL_LENGTH)).success).toBe(true);
    const refused = send('l'.repeat(100_000));
    expect(refused.success).toBe(false);
    expect(toErrorBody(refused.error)).toMatchObject({ code: 'LABEL_TOO_LONG' });
    const queueLabel = operations.queueCreate.input.safeParse({ path: '.\\private$\\q', label: 'l'.repeat(125) });
    expect(toErrorBody(queueLabel.error).code).toBe('LABEL_TOO_LONG');
  });

  test('R-V0a a correlation ID longer than any message ID is ILLEGAL_PROPERTY_SIZE', () => {
    const refused = operations.send.input.safeParse({
      path: '.\\private$\\q',
      message: { correlationId: '1'.repeat(Bounds.MESSAGE_ID_TEXT + 1) },
    });
    expect(toErrorBody(refused.error).code).toBe('ILLEGAL_PROPERTY_SIZE');
  });

  test('R-V0b a body longer than the largest MaxMessageSize is INSUFFICIENT_RESOURCES before it is decoded', () => {
    const refused = operations.send.input.safeParse({
      path: '.\\private$\\q',
      message: { bodyBase64: 'A'.repeat(Bounds.BODY_BASE64 + 4) },
    });
    expect(toErrorBody(refused.error).code).toBe('INSUFFICIENT_RESOURCES');
  });

  test('a huge classCodes list is INVALID_PARAMETER (it used to reach the store and fail with a 500)', () => {
    const classCodes = Array.from({ length: 40_000 }, (_, i) => i % 0x10000);
    const refused = operations.browse.input.safeParse({ path: '.\\private$\\q', filter: { classCodes } });
    expect(refused.success).toBe(false);
    expect(toErrorBody(refused.error).code).toBe('INVALID_PARAMETER');
    const fine = operations.browse.input.safeParse({ path: '.\\private$\\q', filter: { classCodes: [0, 0x8000] } });
    expect(fine.success).toBe(true);
  });

  test('messageArrive.sourceMachine is a computer name: bounded, visible ASCII, no bidi characters', () => {
    const arrive = (sourceMachine: string) =>
      operations.messageArrive.input.safeParse({
        path: '.\\private$\\q',
        message: { id: '{1b4e28ba-2fa1-11d2-883f-0016d3cca427}\\1', sourceMachineId: 'x', sourceMachine },
      });
    expect(arrive('ALPHA').success).toBe(true);
    expect(arrive('A'.repeat(256)).success).toBe(true);
    for (const bad of ['A'.repeat(257), 'A'.repeat(15_000_000), 'AL\u202ePHA', 'AL\nPHA', '']) {
      const result = arrive(bad);
      expect(result.success).toBe(false);
      expect(toErrorBody(result.error).code).toBe('INVALID_PARAMETER');
    }
  });

  test('an error message is cut to its bound, so a reply never breaks the contract it reports under', () => {
    const body = toErrorBody(new Error('x'.repeat(100_000)));
    expect(body.code).toBe('INTERNAL');
    expect(body.message.length).toBeLessThanOrEqual(Bounds.ERROR_MESSAGE);
  });
});

describe('lookup IDs in inputs', () => {
  test('R-L2 receive and peek take lookup ID 0 (MSMQ passes it with first and last); a message operation does not', () => {
    for (const op of ['receive', 'peek'] as const) {
      expect(
        operations[op].input.safeParse({ path: '.\\private$\\q', lookupId: 0, lookupAction: 'first' }).success,
      ).toBe(true);
      expect(operations[op].input.safeParse({ path: '.\\private$\\q', lookupId: -1 }).success).toBe(false);
    }
    expect(operations.messageDelete.input.safeParse({ path: '.\\private$\\q', lookupId: 0 }).success).toBe(false);
  });
});
