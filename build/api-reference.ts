/**
 * The API half of docs/cli.md, generated from core/api (the one contract): the shapes that cross a process
 * boundary with their fields, every operation with its input and output, and the error codes. Used by
 * cli-reference.ts; hand-written notes stay in the keep blocks it carries over.
 */
import {
  messageInfoSchema,
  operations,
  outgoingQueueInfoSchema,
  peerInfoSchema,
  routeInfoSchema,
  queueInfoSchema,
  sendPropertiesSchema,
  serviceStatusSchema,
  settingInfoSchema,
  type OperationName,
} from '@qk/api';
import { errorCodes, type ErrorCode } from '@qk/model';
import type { z } from 'zod';

/** The shapes named in the docs, with their headings (anchors are derived from these). */
const NAMED_SHAPES: ReadonlyArray<{ name: string; heading: string; schema: z.ZodType }> = [
  { name: 'queue', heading: 'A queue', schema: queueInfoSchema },
  { name: 'message', heading: 'A message', schema: messageInfoSchema },
  { name: 'setting', heading: 'A setting', schema: settingInfoSchema },
  { name: 'status', heading: "The service's status", schema: serviceStatusSchema },
  { name: 'send properties', heading: 'Send properties', schema: sendPropertiesSchema },
  { name: 'peer', heading: 'A peer', schema: peerInfoSchema },
  { name: 'route', heading: 'A route', schema: routeInfoSchema },
  { name: 'outgoing queue', heading: 'An outgoing queue', schema: outgoingQueueInfoSchema },
];

/** What each error code means; MSMQ's own MQ_ERROR_… name where there is one. */
const ERROR_MEANINGS: Readonly<Partial<Record<ErrorCode, string>>> = {
  QUEUE_NOT_FOUND: 'the queue does not exist (MQ_ERROR_QUEUE_NOT_FOUND)',
  QUEUE_EXISTS: 'a queue of that name exists already (MQ_ERROR_QUEUE_EXISTS)',
  QUEUE_DELETED: 'the queue was deleted while the call waited (MQ_ERROR_QUEUE_DELETED)',
  ILLEGAL_QUEUE_PATHNAME: 'the path name breaks the naming rules (MQ_ERROR_ILLEGAL_QUEUE_PATHNAME)',
  ILLEGAL_FORMATNAME: 'the format name cannot be parsed (MQ_ERROR_ILLEGAL_FORMATNAME)',
  UNSUPPORTED_FORMATNAME_OPERATION:
    'the operation is not possible on this kind of name (MQ_ERROR_UNSUPPORTED_FORMATNAME_OPERATION)',
  LABEL_TOO_LONG: 'a label longer than 250 characters (MQ_ERROR_LABEL_TOO_LONG)',
  ILLEGAL_PROPERTY_SIZE: 'a property of the wrong size, such as a correlation ID (MQ_ERROR_ILLEGAL_PROPERTY_SIZE)',
  ILLEGAL_PROPERTY_VALUE: 'a property value out of range, such as priority 8 (MQ_ERROR_ILLEGAL_PROPERTY_VALUE)',
  PROPERTIES_CONFLICT: 'properties that exclude each other (MQ_ERROR_PROPERTIES_CONFLICT)',
  PROPERTY_NOTALLOWED: 'a property that cannot change, such as the transactional type (MQ_ERROR_PROPERTY_NOTALLOWED)',
  TOO_MANY_PROPERTIES: 'more properties than the operation takes',
  TRANSACTION_USAGE:
    'a transactional call on a nontransactional queue or the other way round (MQ_ERROR_TRANSACTION_USAGE)',
  TRANSACTION_SEQUENCE: 'a transaction used after it ended (MQ_ERROR_TRANSACTION_SEQUENCE)',
  INSUFFICIENT_RESOURCES:
    'a message over MaxMessageSize, a request or reply over the service limits, or a full computer quota (MQ_ERROR_INSUFFICIENT_RESOURCES; HTTP 413)',
  MESSAGE_STORAGE_FAILED: 'a recoverable message could not be stored (MQ_ERROR_MESSAGE_STORAGE_FAILED)',
  INVALID_PARAMETER: 'the input is not what the operation takes; also a wrong command line (exit 2)',
  MESSAGE_NOT_FOUND: 'no message with that lookup ID (MQ_ERROR_MESSAGE_NOT_FOUND)',
  MESSAGE_ALREADY_RECEIVED: 'another receiver took the message first (MQ_ERROR_MESSAGE_ALREADY_RECEIVED)',
  MESSAGE_LOCKED_UNDER_TRANSACTION:
    'the message is held by an open transaction (MQ_ERROR_MESSAGE_LOCKED_UNDER_TRANSACTION)',
  IO_TIMEOUT: 'nothing arrived within the timeout (MQ_ERROR_IO_TIMEOUT; `qk` exits 3)',
  ACCESS_DENIED: 'the operation is not allowed here, such as receiving from a remote queue (MQ_ERROR_ACCESS_DENIED)',
  QUOTA_EXCEEDED: 'a queue or journal quota refuses the message',
  SERVICE_NOT_AVAILABLE: 'no service runs on that data folder or address (MQ_ERROR_SERVICE_NOT_AVAILABLE)',
  SERVICE_ALREADY_RUNNING: 'a service runs on that data folder already',
  STORE_VERSION_TOO_NEW: 'the data folder was written by a newer Queuekeeper; it is left untouched',
  STORE_CORRUPT: 'the store cannot be read; it is left untouched for recovery',
  OPERATION_CANCELLED: 'the call was cancelled before it finished; nothing was taken (MQ_ERROR_OPERATION_CANCELLED)',
  TOO_MANY_CALLS:
    'the connection already has as many calls in flight as the service accepts (256); retry when some have answered (HTTP 429)',
  UNAUTHORIZED: 'no token, or a wrong one (HTTP 401)',
  PEER_NOT_FOUND: 'no trusted peer of that name (`qk peer remove`)',
  ROUTE_NOT_FOUND: 'no route for that computer (`qk route remove`)',
  INTERNAL: 'a bug in Queuekeeper: the service logs it; please report it',
  INVALID_HANDLE: 'the cursor is not open: closed, or idle too long (MQ_ERROR_INVALID_HANDLE)',
};

/** Marks what a code's meaning is missing; the docs test fails on it and says where to write the meaning. */
export const UNDESCRIBED = '(not yet described: add it to ERROR_MEANINGS in build/api-reference.ts)';

function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

function named(schema: z.ZodType): string | null {
  const shape = NAMED_SHAPES.find((entry) => entry.schema === schema);
  return shape ? `[${shape.name}](#${anchorOf(shape.heading)})` : null;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { def: Def }).def;
}

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  return defOf(schema).type === 'object' && shape ? shape : null;
}

/** A compact type: `string`, `integer | null`, `[queue…]`, `{purged}`, `"express" \| "recoverable"`. */
function typeText(schema: z.ZodType, depth = 0): string {
  const name = named(schema);
  if (name) return name;
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'readonly':
      return def.innerType ? typeText(def.innerType, depth) : 'unknown';
    case 'pipe':
      return def.in ? typeText(def.in, depth) : 'unknown';
    case 'union':
      return (def.options ?? []).map((option) => typeText(option, depth)).join(' or ');
    case 'record':
      return 'object';
    case 'nullable':
      return def.innerType ? `${typeText(def.innerType, depth)} or null` : 'null';
    case 'array': {
      // A list whose elements are many names (a message's properties) says what they are instead.
      if (schema.description) return schema.description;
      const element = def.element ? typeText(def.element, depth + 1) : '';
      return element.startsWith('[') && element.includes('](') ? `list of ${element}` : `[${element}…]`;
    }
    case 'literal':
      return (def.values ?? []).map((value) => JSON.stringify(value)).join(' or ');
    case 'enum':
      return Object.values(def.entries ?? {})
        .map((value) => `"${String(value)}"`)
        .join(' or ');
    case 'object': {
      const shape = shapeOf(schema) ?? {};
      const keys = Object.entries(shape).map(([key, field]) => (field.isOptional() ? `${key}?` : key));
      if (keys.length === 0) return '{}';
      if (depth > 0) return `{${keys.join(', ')}}`;
      return `{${Object.entries(shape)
        .map(([key, field]) => {
          const inner = typeText(field, depth + 1);
          const nested = inner.startsWith('[') || inner.startsWith('{') || inner.startsWith('list of');
          return `${key}${field.isOptional() ? '?' : ''}${nested ? `: ${inner}` : ''}`;
        })
        .join(', ')}}`;
    }
    case 'number':
      return (schema as unknown as { isInt?: boolean }).isInt ? 'integer' : 'number';
    // A value the contract checks elsewhere (sendEach's sends are each checked as a send) says what it is.
    case 'unknown':
      return schema.description ?? 'unknown';
    default:
      return def.type;
  }
}

const cell = (value: string) => value.replace(/\|/g, '\\|');

/** `## Shapes`: one table of fields per named shape, with the hand-written notes after each. */
export function shapesSection(keep: (name: string) => string): string[] {
  const lines = [
    '## JSON shapes',
    '',
    'Field lists generated from the schemas in core/api; optional fields end in `?`.',
    '',
  ];
  for (const { name, heading, schema } of NAMED_SHAPES) {
    lines.push(`### ${heading}`, '', '| field | type |', '| --- | --- |');
    for (const [key, field] of Object.entries(shapeOf(schema) ?? {})) {
      lines.push(`| \`${key}${field.isOptional() ? '?' : ''}\` | ${cell(typeText(field, 1))} |`);
    }
    lines.push('', keep(`shape:${name.replace(/ /g, '-')}`), '');
  }
  return lines;
}

/** `## Operations`: every operation of the contract, what it takes and gives, and whether it is audited. */
export function operationsSection(): string[] {
  const rows = (Object.keys(operations) as OperationName[]).map((name) => {
    const def = operations[name];
    return `| \`${name}\` | ${def.admin ? 'yes' : ''} | ${cell(def.summary)} | ${cell(typeText(def.input))} | ${cell(typeText(def.output))} |`;
  });
  return [
    '## Operations',
    '',
    'Every operation of the contract (`core/api`), as `POST /api/v1/<operation>` takes it and as a WebSocket',
    '`call` frame names it. "Admin" operations change configuration or destroy messages; the service audits them.',
    '',
    '| operation | admin | what it does | input | output |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
}

/** `## Error codes`: the stable codes of `{"error":{"code","message"}}`. */
export function errorCodesSection(): string[] {
  return [
    '## Error codes',
    '',
    'The `code` of every error, whichever way it travels (`qk --json` on stderr, the HTTP and WebSocket',
    'envelopes, the console). Codes are stable; messages are for people.',
    '',
    '| code | meaning |',
    '| --- | --- |',
    ...errorCodes.map((code) => `| \`${code}\` | ${ERROR_MEANINGS[code] ?? UNDESCRIBED} |`),
    '',
  ];
}
