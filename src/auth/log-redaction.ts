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

/** A path segment shaped like a credential: 24+ URL-safe characters mixing letters and digits. */
const SECRET_SEGMENT = /^(?=[^/]*[A-Za-z])(?=[^/]*\d)[A-Za-z0-9_\-.~%+=]{24,}$/;
/** A path segment of 24 or more characters: only those can be shaped like a credential. */
const LONG_SEGMENT = /[^/]{24}/;

/**
 * `url` with every path segment shaped like a token (24 or more URL-safe characters with both
 * letters and digits, as our tokens, setup codes and invite codes are) replaced by `[redacted]`,
 * and the query redacted as by redactUrl. A token pasted into a path by mistake
 * (`/api/health-auto-export/<token>`) never reaches the log; card ids and route names are kept.
 */
export function redactPathAndQuery(url: string): string {
  const q = url.search(/[?#]/);
  const pathPart = q < 0 ? url : url.slice(0, q);
  // the common case, written once per request: no segment long enough to be a secret, no query
  if (!LONG_SEGMENT.test(pathPart) && !url.includes('?')) return url;
  const rest = q < 0 ? '' : url.slice(q);
  const redacted = pathPart
    .split('/')
    .map((seg) => (SECRET_SEGMENT.test(seg) ? '[redacted]' : seg))
    .join('/');
  return redactUrl(`${redacted}${rest}`);
}

/** Fastify's request log serializer, with the URL redacted. */
export function requestLogFields(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactPathAndQuery(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
