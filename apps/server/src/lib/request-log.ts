import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Delivery routes: no info line per request (they answer thousands a second); errors still logged. */
    quietLog?: boolean;
  }
}

/**
 * Fastify's per-request lines ("incoming request", "request completed") at info for the API, at debug
 * for routes marked `quietLog` (the delivery tree marks all of its routes). Errors are logged for all.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply) {
    if (request.routeOptions.config?.quietLog) {
      request.log.debug({ req: request }, 'incoming request');
      return;
    }
    super.incomingRequest(request, reply);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (request.routeOptions.config?.quietLog) {
      if (error)
        reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
      else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
      return;
    }
    super.requestCompleted(error, request, reply);
  }
}
