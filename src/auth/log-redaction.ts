/**
 * Keeps secrets out of the request log (issue 8: credentials "never appear in logs"). Fastify
 * logs each request's URL; an invite or setup code in a query string (`/auth/register/available
 * ?code=...`, a hand-typed `/register?code=...`) would be written there. Headers are not logged
 * (and `Authorization` and `Cookie` are redacted besides, src/app.ts).
 */
import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are never logged. */
const SECRET_PARAMS = /([?&](?:code|token|secret|key|access_token)=)[^&#]*/gi;

/** `url` with the values of secret-looking query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Fastify's request log serializer, with the URL redacted. */
export function requestLogFields(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
