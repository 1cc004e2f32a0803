/**
 * One log line per request. Fastify's default writes two at `info` (`incoming request` with the
 * request, `request completed` with the status and time); serialising and writing the second
 * costs as much as the first, a measurable share of a small request's CPU. Here the request's
 * fields (method, redacted URL, host, client address: src/auth/log-redaction.ts) go on the
 * `request completed` line with its status and time, and `incoming request` is written at
 * `debug` only (KLEBB_LOG_LEVEL=debug: for finding a request that never ends). Error lines
 * (`request errored`, 5xx, stream errors) are Fastify's own, unchanged.
 */
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** pino's level check (Fastify's logger type does not declare it; a logger without it logs). */
function enabled(log: FastifyBaseLogger, level: 'debug' | 'info'): boolean {
  return (log as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled?.(level) ?? true;
}

/** Fastify's log controller with one `info` line per request (see the module comment). */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request) || !enabled(request.log, 'debug')) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply, metadata);
      return;
    }
    // the level check first, so a quieter level builds nothing
    if (this.isLogDisabled(request) || !enabled(reply.log, 'info')) return;
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
