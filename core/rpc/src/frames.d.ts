/**
 * The frames of the call protocol, validated by schema on both ends (CLI.md, "The service's API and files").
 * Client → service: `auth` (first frame, when the token did not come in a header), `call`, `cancel`,
 * `subscribe`, `unsubscribe`. Service → client: `result` (exactly one per call), `event`, `ready` (the
 * answer to `auth`), `error` (a frame that could not be tied to a call), `eventsLost` (events dropped while
 * the reader was behind). New types may be added; these keep their meaning.
 */
import { z } from 'zod';
export declare const authFrameSchema: z.ZodObject<
  {
    type: z.ZodLiteral<'auth'>;
    token: z.ZodString;
  },
  z.core.$strip
>;
export declare const callFrameSchema: z.ZodObject<
  {
    type: z.ZodLiteral<'call'>;
    id: z.ZodNumber;
    op: z.ZodString;
    input: z.ZodUnknown;
  },
  z.core.$strip
>;
export declare const clientFrameSchema: z.ZodDiscriminatedUnion<
  [
    z.ZodObject<
      {
        type: z.ZodLiteral<'auth'>;
        token: z.ZodString;
      },
      z.core.$strip
    >,
    z.ZodObject<
      {
        type: z.ZodLiteral<'call'>;
        id: z.ZodNumber;
        op: z.ZodString;
        input: z.ZodUnknown;
      },
      z.core.$strip
    >,
    z.ZodObject<
      {
        type: z.ZodLiteral<'cancel'>;
        id: z.ZodNumber;
      },
      z.core.$strip
    >,
    z.ZodObject<
      {
        type: z.ZodLiteral<'subscribe'>;
      },
      z.core.$strip
    >,
    z.ZodObject<
      {
        type: z.ZodLiteral<'unsubscribe'>;
      },
      z.core.$strip
    >,
  ],
  'type'
>;
export type ClientFrame = z.infer<typeof clientFrameSchema>;
export declare const errorBodySchema: z.ZodObject<
  {
    code: z.ZodEnum<{
      QUEUE_NOT_FOUND: 'QUEUE_NOT_FOUND';
      QUEUE_EXISTS: 'QUEUE_EXISTS';
      QUEUE_DELETED: 'QUEUE_DELETED';
      ILLEGAL_QUEUE_PATHNAME: 'ILLEGAL_QUEUE_PATHNAME';
      ILLEGAL_FORMATNAME: 'ILLEGAL_FORMATNAME';
      UNSUPPORTED_FORMATNAME_OPERATION: 'UNSUPPORTED_FORMATNAME_OPERATION';
      LABEL_TOO_LONG: 'LABEL_TOO_LONG';
      ILLEGAL_PROPERTY_SIZE: 'ILLEGAL_PROPERTY_SIZE';
      ILLEGAL_PROPERTY_VALUE: 'ILLEGAL_PROPERTY_VALUE';
      PROPERTIES_CONFLICT: 'PROPERTIES_CONFLICT';
      PROPERTY_NOTALLOWED: 'PROPERTY_NOTALLOWED';
      TOO_MANY_PROPERTIES: 'TOO_MANY_PROPERTIES';
      TRANSACTION_USAGE: 'TRANSACTION_USAGE';
      TRANSACTION_SEQUENCE: 'TRANSACTION_SEQUENCE';
      INSUFFICIENT_RESOURCES: 'INSUFFICIENT_RESOURCES';
      MESSAGE_STORAGE_FAILED: 'MESSAGE_STORAGE_FAILED';
      INVALID_PARAMETER: 'INVALID_PARAMETER';
      MESSAGE_NOT_FOUND: 'MESSAGE_NOT_FOUND';
      MESSAGE_ALREADY_RECEIVED: 'MESSAGE_ALREADY_RECEIVED';
      MESSAGE_LOCKED_UNDER_TRANSACTION: 'MESSAGE_LOCKED_UNDER_TRANSACTION';
      IO_TIMEOUT: 'IO_TIMEOUT';
      ACCESS_DENIED: 'ACCESS_DENIED';
      QUOTA_EXCEEDED: 'QUOTA_EXCEEDED';
      SERVICE_NOT_AVAILABLE: 'SERVICE_NOT_AVAILABLE';
      SERVICE_ALREADY_RUNNING: 'SERVICE_ALREADY_RUNNING';
      STORE_VERSION_TOO_NEW: 'STORE_VERSION_TOO_NEW';
      STORE_CORRUPT: 'STORE_CORRUPT';
      OPERATION_CANCELLED: 'OPERATION_CANCELLED';
      TOO_MANY_CALLS: 'TOO_MANY_CALLS';
      UNAUTHORIZED: 'UNAUTHORIZED';
      INTERNAL: 'INTERNAL';
    }>;
    message: z.ZodString;
  },
  z.core.$strip
>;
export declare const serverFrameSchema: z.ZodUnion<
  readonly [
    z.ZodObject<
      {
        type: z.ZodLiteral<'result'>;
        id: z.ZodNumber;
        ok: z.ZodLiteral<true>;
        value: z.ZodUnknown;
      },
      z.core.$strip
    >,
    z.ZodObject<
      {
        type: z.ZodLiteral<'result'>;
        id: z.ZodNumber;
        ok: z.ZodLiteral<false>;
        error: z.ZodObject<
          {
            code: z.ZodEnum<{
              QUEUE_NOT_FOUND: 'QUEUE_NOT_FOUND';
              QUEUE_EXISTS: 'QUEUE_EXISTS';
              QUEUE_DELETED: 'QUEUE_DELETED';
              ILLEGAL_QUEUE_PATHNAME: 'ILLEGAL_QUEUE_PATHNAME';
              ILLEGAL_FORMATNAME: 'ILLEGAL_FORMATNAME';
              UNSUPPORTED_FORMATNAME_OPERATION: 'UNSUPPORTED_FORMATNAME_OPERATION';
              LABEL_TOO_LONG: 'LABEL_TOO_LONG';
              ILLEGAL_PROPERTY_SIZE: 'ILLEGAL_PROPERTY_SIZE';
              ILLEGAL_PROPERTY_VALUE: 'ILLEGAL_PROPERTY_VALUE';
              PROPERTIES_CONFLICT: 'PROPERTIES_CONFLICT';
              PROPERTY_NOTALLOWED: 'PROPERTY_NOTALLOWED';
              TOO_MANY_PROPERTIES: 'TOO_MANY_PROPERTIES';
              TRANSACTION_USAGE: 'TRANSACTION_USAGE';
              TRANSACTION_SEQUENCE: 'TRANSACTION_SEQUENCE';
              INSUFFICIENT_RESOURCES: 'INSUFFICIENT_RESOURCES';
              MESSAGE_STORAGE_FAILED: 'MESSAGE_STORAGE_FAILED';
              INVALID_PARAMETER: 'INVALID_PARAMETER';
              MESSAGE_NOT_FOUND: 'MESSAGE_NOT_FOUND';
              MESSAGE_ALREADY_RECEIVED: 'MESSAGE_ALREADY_RECEIVED';
              MESSAGE_LOCKED_UNDER_TRANSACTION: 'MESSAGE_LOCKED_UNDER_TRANSACTION';
              IO_TIMEOUT: 'IO_TIMEOUT';
              ACCESS_DENIED: 'ACCESS_DENIED';
              QUOTA_EXCEEDED: 'QUOTA_EXCEEDED';
              SERVICE_NOT_AVAILABLE: 'SERVICE_NOT_AVAILABLE';
              SERVICE_ALREADY_RUNNING: 'SERVICE_ALREADY_RUNNING';
              STORE_VERSION_TOO_NEW: 'STORE_VERSION_TOO_NEW';
              STORE_CORRUPT: 'STORE_CORRUPT';
              OPERATION_CANCELLED: 'OPERATION_CANCELLED';
              TOO_MANY_CALLS: 'TOO_MANY_CALLS';
              UNAUTHORIZED: 'UNAUTHORIZED';
              INTERNAL: 'INTERNAL';
            }>;
            message: z.ZodString;
          },
          z.core.$strip
        >;
      },
      z.core.$strip
    >,
    z.ZodObject<
      {
        type: z.ZodLiteral<'event'>;
        event: z.ZodUnknown;
      },
      z.core.$strip
    >,
    z.ZodObject<
      {
        type: z.ZodLiteral<'ready'>;
      },
      z.core.$strip
    >,
    z.ZodObject<
      {
        type: z.ZodLiteral<'error'>;
        error: z.ZodObject<
          {
            code: z.ZodEnum<{
              QUEUE_NOT_FOUND: 'QUEUE_NOT_FOUND';
              QUEUE_EXISTS: 'QUEUE_EXISTS';
              QUEUE_DELETED: 'QUEUE_DELETED';
              ILLEGAL_QUEUE_PATHNAME: 'ILLEGAL_QUEUE_PATHNAME';
              ILLEGAL_FORMATNAME: 'ILLEGAL_FORMATNAME';
              UNSUPPORTED_FORMATNAME_OPERATION: 'UNSUPPORTED_FORMATNAME_OPERATION';
              LABEL_TOO_LONG: 'LABEL_TOO_LONG';
              ILLEGAL_PROPERTY_SIZE: 'ILLEGAL_PROPERTY_SIZE';
              ILLEGAL_PROPERTY_VALUE: 'ILLEGAL_PROPERTY_VALUE';
              PROPERTIES_CONFLICT: 'PROPERTIES_CONFLICT';
              PROPERTY_NOTALLOWED: 'PROPERTY_NOTALLOWED';
              TOO_MANY_PROPERTIES: 'TOO_MANY_PROPERTIES';
              TRANSACTION_USAGE: 'TRANSACTION_USAGE';
              TRANSACTION_SEQUENCE: 'TRANSACTION_SEQUENCE';
              INSUFFICIENT_RESOURCES: 'INSUFFICIENT_RESOURCES';
              MESSAGE_STORAGE_FAILED: 'MESSAGE_STORAGE_FAILED';
              INVALID_PARAMETER: 'INVALID_PARAMETER';
              MESSAGE_NOT_FOUND: 'MESSAGE_NOT_FOUND';
              MESSAGE_ALREADY_RECEIVED: 'MESSAGE_ALREADY_RECEIVED';
              MESSAGE_LOCKED_UNDER_TRANSACTION: 'MESSAGE_LOCKED_UNDER_TRANSACTION';
              IO_TIMEOUT: 'IO_TIMEOUT';
              ACCESS_DENIED: 'ACCESS_DENIED';
              QUOTA_EXCEEDED: 'QUOTA_EXCEEDED';
              SERVICE_NOT_AVAILABLE: 'SERVICE_NOT_AVAILABLE';
              SERVICE_ALREADY_RUNNING: 'SERVICE_ALREADY_RUNNING';
              STORE_VERSION_TOO_NEW: 'STORE_VERSION_TOO_NEW';
              STORE_CORRUPT: 'STORE_CORRUPT';
              OPERATION_CANCELLED: 'OPERATION_CANCELLED';
              TOO_MANY_CALLS: 'TOO_MANY_CALLS';
              UNAUTHORIZED: 'UNAUTHORIZED';
              INTERNAL: 'INTERNAL';
            }>;
            message: z.ZodString;
          },
          z.core.$strip
        >;
      },
      z.core.$strip
    >,
    z.ZodObject<
      {
        type: z.ZodLiteral<'eventsLost'>;
        count: z.ZodNumber;
      },
      z.core.$strip
    >,
  ]
>;
export type ServerFrame = z.infer<typeof serverFrameSchema>;
/** Parses a frame's text as JSON; undefined when it is not JSON. */
export declare function parseJson(text: string): unknown;
/** The id of a frame that failed validation, when it has a usable one (to answer that call). */
export declare function idOf(raw: unknown): number | undefined;
