/**
 * Keeps secrets out of the request log (credentials "never appear in logs"). Fastify
 * logs each request's URL; an invite or setup code in a query string (`/auth/register/available
 * ?code=...`, a hand-typed `/register?code=...`) would be written there. Headers are not logged
 * (and `Authorization` and `Cookie` are redacted besides, src/app.ts).
 */
import type { FastifyRequest } from 'fastify';

/** A query parameter name that marks its value secret (case-insensitive, after percent-decoding). */
const SECRET_NAME = /token|secret|code|key|password|api/i;

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * `url` with the value of every query parameter whose name contains token, secret, code, key,
 * password or api (any case, after percent-decoding: `%74oken` counts) replaced by `[redacted]`.
 * Path and fragment are kept.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  const query = url
    .slice(q + 1, end)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      return SECRET_NAME.test(decoded(name)) ? `${name}=[redacted]` : part;
    })
    .join('&');
  return `${url.slice(0, q + 1)}${query}${url.slice(end)}`;
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
