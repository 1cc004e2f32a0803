/**
 * Origin rules. Sessions ride on a
 * `SameSite=Lax` cookie; on top of that a state-changing request that carries an `Origin`
 * header must come from HEALTH_ORIGIN, else 403. A request without `Origin` (curl, scripts, the
 * Health Auto Export app) is not a browser acting on someone's behalf and passes.
 *
 * When HEALTH_ORIGIN is unset, the origin accepted is the loopback one the request came on:
 * `Origin` must be `http://` + the request's own `Host`, a loopback host, so that `npm start` on a
 * fresh home works at http://localhost:<port> and http://127.0.0.1:<port> alike, and a page on
 * any other site (or another local port) is refused.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { clipGraphemes } from '../common/graphemes.js';
import { KlebbError } from '../errors.js';

const LOOPBACK_HOSTNAME = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Methods that change nothing (RFC 9110 §9.2.1): no Origin check, allowed to read-only tokens. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

function parseOrigin(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function hostHeader(headers: IncomingHttpHeaders): string | undefined {
  return typeof headers.host === 'string' ? headers.host.toLowerCase() : undefined;
}

/** True when the request's `Host` is a loopback name (localhost, 127.x.x.x, [::1]) with any port. */
export function isLoopbackHost(headers: IncomingHttpHeaders): boolean {
  const host = hostHeader(headers);
  if (!host) return false;
  const url = parseOrigin(`http://${host}`);
  return !!url && LOOPBACK_HOSTNAME.test(url.hostname);
}

/**
 * Whether the browser origin `origin` may act on this server.
 * @param configured HEALTH_ORIGIN in canonical form, or undefined (then: the loopback origin the
 *   request came on).
 */
export function isAllowedOrigin(
  origin: string,
  headers: IncomingHttpHeaders,
  configured: string | undefined,
): boolean {
  const url = parseOrigin(origin);
  if (!url || url.origin === 'null') return false;
  if (configured !== undefined) return url.origin === configured;
  // Klebb itself speaks plain HTTP: the origin a request came on is http://<its Host>
  return url.protocol === 'http:' && LOOPBACK_HOSTNAME.test(url.hostname) && url.host === hostHeader(headers);
}

/**
 * The origin check of a request ("State-changing requests carrying an Origin that is not
 * HEALTH_ORIGIN are refused (403)").
 * @throws 403 BAD_ORIGIN naming the refused origin.
 */
export function checkOrigin(
  method: string,
  headers: IncomingHttpHeaders,
  configured: string | undefined,
): void {
  if (isSafeMethod(method)) return;
  const origin = headers.origin;
  if (origin === undefined) return;
  if (!isAllowedOrigin(origin, headers, configured)) {
    const allowed = configured ?? 'the loopback origin the request came on';
    throw new KlebbError(
      403,
      'BAD_ORIGIN',
      `requests from ${clipGraphemes(origin, 200)} are not accepted here (only ${allowed})`,
    );
  }
}

/**
 * The origins a WebAuthn response may have been made on (`expectedOrigin`): HEALTH_ORIGIN when
 * set; otherwise the request's own loopback origin (its allowed `Origin`, or `http://<Host>`).
 * Empty when none applies (the verify then fails).
 */
export function expectedOrigins(headers: IncomingHttpHeaders, configured: string | undefined): string[] {
  if (configured !== undefined) return [configured];
  const origin = headers.origin;
  if (origin !== undefined)
    return isAllowedOrigin(origin, headers, undefined) ? [new URL(origin).origin] : [];
  return isLoopbackHost(headers) ? [`http://${hostHeader(headers)}`] : [];
}

/**
 * `http://<host>` for a loopback host a request named, with a loopback address (`127.0.0.1`,
 * `[::1]`) turned into `localhost`, port kept: with HEALTH_ORIGIN unset the passkey relying
 * party id is `localhost` (src/auth/auth-env.ts), and a browser refuses passkeys for it on an
 * address, so a link on `127.0.0.1` would open a page where sign-in cannot work.
 * @param host a lower-case loopback `host[:port]`.
 */
function loopbackLink(host: string): string {
  const url = new URL(`http://${host}`);
  return url.hostname === 'localhost'
    ? `http://${host}`
    : `http://localhost${url.port ? `:${url.port}` : ''}`;
}

/**
 * The base URL of links Klebb hands out (invites, the setup link): HEALTH_ORIGIN when set; else
 * the loopback origin the request came on, named `localhost` (loopbackLink); else
 * `http://localhost:<port>`.
 */
export function publicBase(
  headers: IncomingHttpHeaders | undefined,
  configured: string | undefined,
  port: number,
): string {
  if (configured !== undefined) return configured;
  if (headers) {
    const origin = headers.origin;
    if (origin !== undefined && isAllowedOrigin(origin, headers, undefined))
      return loopbackLink(new URL(origin).host);
    if (isLoopbackHost(headers)) return loopbackLink(hostHeader(headers) as string);
  }
  return `http://localhost:${port}`;
}

/**
 * The base URL (`scheme://host[:port]`, no trailing slash) to show for links a device outside
 * the browser must use, such as the Health Auto Export endpoint:
 * HEALTH_ORIGIN when set; else the loopback Host the request named (`localhost:8080`, an address
 * such as `127.0.0.1:8080` named `localhost`, see loopbackLink); else the address and port the
 * request actually arrived on (the socket's local address, which a client cannot choose). Never an arbitrary `Host` header, so `Host: evil.example` cannot make Klebb
 * hand out an attacker's URL.
 * @param socket the request's socket (`localAddress`, `localPort`).
 */
export function trustedBase(
  headers: IncomingHttpHeaders,
  socket: { localAddress?: string; localPort?: number },
  configured: string | undefined,
): string {
  if (configured !== undefined) return configured;
  if (isLoopbackHost(headers)) return loopbackLink(hostHeader(headers) as string);
  let addr = socket.localAddress ?? '127.0.0.1';
  if (addr.startsWith('::ffff:')) addr = addr.slice(7);
  const host = addr.includes(':') ? `[${addr}]` : addr;
  return `http://${host}:${socket.localPort ?? 80}`;
}
