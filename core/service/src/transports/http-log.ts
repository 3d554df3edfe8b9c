/**
 * Fastify's own log lines through the service's logger (host/logger.ts): a line per request only at debug
 * (at info, a busy queue would write two lines per message), failures always.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Per-request lines at debug; errors at error as Fastify writes them. */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
