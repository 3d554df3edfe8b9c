/**
 * How a browser console signs in without a token in any URL: whoever holds the token (`qk console`,
 * `npm start`) asks for a one-time code (`POST /console/code`) and opens `/#code=…`; the page exchanges the
 * code once, within a minute, for a session token it keeps in its tab (`POST /console/session`). The code
 * is useless after that, so a URL that lands in a history, a log or a process list opens nothing.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CONSOLE_CODE_PATH, CONSOLE_SESSION_PATH } from '@qk/api';
import { bearerToken } from '../host/token.js';
import { isJsonContentType } from '../transports/api-routes.js';
import { CONSOLE_CODE_TTL_MS, type Access } from '../transports/access.js';

const sessionRequest = z.object({ code: z.string().min(1).max(256) });

export async function registerConsoleSession(
  app: FastifyInstance,
  options: { access: Access; consoleLink: () => string },
): Promise<void> {
  const { access } = options;
  await app.register(async (session) => {
    session.addHook('onRequest', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!isJsonContentType(request.headers['content-type'])) {
        return reply.code(415).send({
          ok: false,
          error: { code: 'INVALID_PARAMETER', message: 'Send content-type: application/json.' },
        });
      }
    });

    session.post(CONSOLE_CODE_PATH, async (request, reply) => {
      if (!access.acceptsToken(bearerToken(request.headers.authorization))) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer')
          .send({ ok: false, error: { code: 'UNAUTHORIZED', message: 'A valid token is required.' } });
      }
      const url = options.consoleLink();
      return { ok: true, value: { url, expiresInSeconds: CONSOLE_CODE_TTL_MS / 1_000 } };
    });

    session.post(CONSOLE_SESSION_PATH, async (request, reply) => {
      const parsed = sessionRequest.safeParse(request.body);
      const token = parsed.success ? access.redeem(parsed.data.code) : undefined;
      if (!token) {
        return reply.code(401).send({
          ok: false,
          error: {
            code: 'UNAUTHORIZED',
            message: 'This console link was used already or has expired: ask for a new one (qk console).',
          },
        });
      }
      return { ok: true, value: { token } };
    });
  });
}
