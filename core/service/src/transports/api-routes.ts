/**
 * `POST /api/v1/<op>` as a Fastify plugin scoped to the API prefix: its hooks run for every request the
 * router matched to it, however the URL was spelled (`/%61pi/v1/…` included), so nothing reaches an
 * operation without the token and a JSON content type. A receive's reply is written out before its removal
 * commits; a client that went away takes nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX, httpStatusFor, type Envelope, type ErrorBody } from '@qk/api';
import { QkError } from '@qk/model';
import { BATCH_REPLY_LIMIT, DEFAULT_LIMITS, utf8Length, type RpcLogger } from '@qk/rpc';
import type { ServiceHost } from '../host/host.js';
import { bearerToken } from '../host/token.js';
import type { Access } from './access.js';

/** How long a reply may take to be written out before its client counts as gone. */
const DELIVERY_STALL_MS = 60_000;

/** 16 MB: an oversize message must reach the engine and get INSUFFICIENT_RESOURCES, not a transport error. */
export const HTTP_BODY_LIMIT = 16 * 1024 * 1024;

/** `application/json`, with or without parameters (a charset): what every operation must be sent as. */
export const isJsonContentType = (contentType: string | undefined): boolean =>
  contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);

/** What a request without a valid token hears, wherever under the API it went. */
export const UNAUTHORIZED: ErrorBody = {
  code: 'UNAUTHORIZED',
  message: 'A valid token is required: Authorization: Bearer <token> (the service keeps it in DIR/token).',
};

/** The refusal every API route gives before its operation runs, or null to go on. */
export function refuseApiRequest(
  request: FastifyRequest,
  access: Access,
): { status: number; envelope: Envelope<never>; bearer?: boolean } | null {
  if (!access.acceptsToken(bearerToken(request.headers.authorization)))
    return { status: 401, bearer: true, envelope: { ok: false, error: UNAUTHORIZED } };
  if (!isJsonContentType(request.headers['content-type'])) {
    return {
      status: 415,
      envelope: failure(
        'INVALID_PARAMETER',
        `Operations take a JSON body: send content-type: application/json (got ${request.headers['content-type'] ?? 'none'}).`,
      ),
    };
  }
  return null;
}

/** Registers the operation route under the API prefix. */
export async function registerApi(
  app: FastifyInstance,
  options: { host: ServiceHost; access: Access; logger: RpcLogger },
): Promise<void> {
  const { host, access, logger } = options;
  await app.register(
    async (api) => {
      api.addHook('onRequest', async (request, reply) => {
        const refused = refuseApiRequest(request, access);
        if (!refused) return;
        if (refused.bearer) reply.header('www-authenticate', 'Bearer');
        return reply.code(refused.status).header('cache-control', 'no-store').send(refused.envelope);
      });

      api.post<{ Params: { op: string } }>('/:op', async (request, reply) => {
        const { op } = request.params;
        // A long-polling receive stops waiting when its client goes away, so no message is taken for nobody.
        const aborter = new AbortController();
        const onClose = (): void => {
          if (!reply.raw.writableFinished) aborter.abort();
        };
        reply.raw.once('close', onClose);
        let delivered = false;
        // A receive's reply: checked here (client still there, serializable, within the limit), written by
        // the step returned once the engine has committed the removal.
        const deliver = async (value: unknown): Promise<() => Promise<void>> => {
          if (aborter.signal.aborted || reply.raw.destroyed || reply.sent)
            throw new QkError('OPERATION_CANCELLED', 'The client went away before the reply left.');
          const prepared = replyText({ ok: true, value });
          if (prepared instanceof QkError) throw prepared;
          delivered = true;
          return () =>
            writeReply(reply, 200, prepared).catch((error: unknown) => {
              logger.error(
                { op, err: { message: (error as Error).message } },
                'a receive reply could not be written after its removal was committed: it is lost to this client',
              );
              throw error;
            });
        };
        const length = Number(request.headers['content-length']);
        const envelope = await host.call(op, request.body, {
          signal: aborter.signal,
          deliver,
          replyLimit: BATCH_REPLY_LIMIT,
          inputBytes: Number.isSafeInteger(length) ? length : undefined,
        });
        reply.raw.off('close', onClose);
        if (delivered && (envelope.ok || reply.sent)) {
          if (!envelope.ok && envelope.error.code !== 'SERVICE_NOT_AVAILABLE')
            logger.warn({ op, error: envelope.error }, 'call failed after its reply was sent');
          return reply;
        }
        // Any other answer (a receive whose removal failed after its reply was prepared included).
        const { status, text } = answerOf(envelope);
        await writeReply(reply, status, text).catch((error: unknown) => {
          logger.info({ op, err: { message: (error as Error).message } }, 'a reply could not be sent');
        });
        return reply;
      });
    },
    { prefix: API_PREFIX },
  );
}

/** The JSON text of a reply, or INSUFFICIENT_RESOURCES when it cannot be serialized or is over the limit. */
function replyText(envelope: Envelope<unknown>): string | QkError {
  let text: string;
  try {
    text = JSON.stringify(envelope);
  } catch (error) {
    return new QkError('INSUFFICIENT_RESOURCES', `The reply could not be serialized (${(error as Error).message}).`);
  }
  const bytes = utf8Length(text);
  if (bytes <= DEFAULT_LIMITS.maxReplyBytes) return text;
  return new QkError(
    'INSUFFICIENT_RESOURCES',
    `The reply is ${bytes.toLocaleString('en-US')} bytes; a reply may be at most ${DEFAULT_LIMITS.maxReplyBytes.toLocaleString('en-US')}. Ask for less.`,
  );
}

/** Status and text of an answer; one too large or not serializable becomes INSUFFICIENT_RESOURCES. */
function answerOf(envelope: Envelope<unknown>): { status: number; text: string } {
  const text = replyText(envelope);
  if (text instanceof QkError)
    return { status: httpStatusFor(text.code), text: JSON.stringify(failure(text.code, text.message)) };
  return { status: envelope.ok ? 200 : httpStatusFor(envelope.error.code), text };
}

/**
 * Writes one reply and resolves once it is handed to the OS; rejects when the client went away first. A
 * client that takes none of it for a minute is cut, so it holds no resources for longer.
 */
function writeReply(reply: FastifyReply, status: number, text: string): Promise<void> {
  if (reply.raw.destroyed || reply.sent)
    return Promise.reject(new QkError('SERVICE_NOT_AVAILABLE', 'The client went away before the reply left.'));
  return new Promise<void>((resolve, reject) => {
    const raw = reply.raw;
    const stalled = setTimeout(() => raw.destroy(), DELIVERY_STALL_MS);
    const onFinish = (): void => {
      clearTimeout(stalled);
      raw.off('close', onClose);
      resolve();
    };
    const onClose = (): void => {
      clearTimeout(stalled);
      raw.off('finish', onFinish);
      if (raw.writableFinished) resolve();
      else reject(new QkError('SERVICE_NOT_AVAILABLE', 'The client went away while the reply was written.'));
    };
    raw.once('finish', onFinish);
    raw.once('close', onClose);
    void reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(text);
  });
}

function failure(code: Parameters<typeof httpStatusFor>[0], message: string): Envelope<never> {
  return { ok: false, error: { code, message } };
}
