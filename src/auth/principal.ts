/**
 * Who is making a request: an agent with the AGENT_API_TOKEN bearer or a named agent token, a
 * person signed in with a passkey (session cookie), or a person on this machine (loopback, no
 * credentials; only until the first passkey exists, see src/auth/auth-service.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { notFound, unauthorized } from '../errors.js';
import { safeEqual } from './safe-equal.js';

/**
 * An authenticated caller; `actor` is what the change log records (`agent-token`,
 * `token:<name>`, `web`, `local`).
 * - `agent-token`: AGENT_API_TOKEN, full access.
 * - `named-token`: a token made in Settings > Security; `access: 'read'` may only read.
 * - `session`: a person signed in with a passkey (`credentialId` null for the demo account).
 * - `local`: a program or browser on this machine, while no passkey exists.
 */
export type Principal =
  | { kind: 'agent-token'; actor: 'agent-token' }
  | { kind: 'named-token'; actor: string; tokenId: string; name: string; access: 'read' | 'write' }
  | { kind: 'session'; actor: 'web'; label: string; sessionId: string; credentialId: string | null }
  | { kind: 'local'; actor: 'local' };

/** The token of an `Authorization: Bearer <token>` header (scheme in any case), or null. */
export function bearerOf(header: string | undefined): string | null {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1] : null;
}

/**
 * The 401 for an `Authorization` header that was refused: what a caller may send, the same
 * whichever token came (it tells nothing about the token itself). A header of another scheme
 * (`Basic …`, the bare token) is told how to write it.
 */
export function refusedCredential(header: string | undefined) {
  if (bearerOf(header) === null) {
    return unauthorized('Unauthorized: send the token as the header Authorization: Bearer <token>');
  }
  return unauthorized(
    'Unauthorized: this bearer token is not accepted: send AGENT_API_TOKEN or an agent token made in Settings › Security (a revoked one stops working; the Health Auto Export token is taken only by POST /api/health-auto-export)',
  );
}

/**
 * Headers a reverse proxy, CDN or load balancer adds: a request carrying any of them did not
 * start on this machine. Every `X-Forwarded-*` header counts too
 * (FORWARDING_PREFIX), whatever comes after the dash.
 */
const FORWARDING_HEADERS = [
  'forwarded',
  'via',
  'x-real-ip',
  'x-original-forwarded-for',
  'x-client-ip',
  'client-ip',
  'x-cluster-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'akamai-origin-hop',
  'x-proxyuser-ip',
  'proxy-client-ip',
  'wl-proxy-client-ip',
  'x-envoy-external-address',
  'x-azure-clientip',
  'x-appengine-user-ip',
];
const FORWARDING_PREFIX = 'x-forwarded-';

/** True when `headers` carry any forwarding header (FORWARDING_HEADERS, `X-Forwarded-*`). */
export function isProxied(headers: IncomingHttpHeaders): boolean {
  if (FORWARDING_HEADERS.some((h) => headers[h] !== undefined)) return true;
  return Object.keys(headers).some((h) => h.startsWith(FORWARDING_PREFIX));
}

const LOOPBACK_HOSTNAME = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

/**
 * Whether a credential-less request really comes from a program on this machine and not from a
 * web page the person happens to be visiting: the Host must name a loopback host (a DNS-rebinding
 * page sends its own name), a browser's Origin (when sent) must be a loopback origin, and the
 * browser must not label it cross-site (`Sec-Fetch-Site`).
 */
export function isLocalRequest(headers: IncomingHttpHeaders): boolean {
  if (isProxied(headers)) return false;
  const host = headers.host;
  if (typeof host !== 'string' || !LOOPBACK_HOSTNAME.test(host)) return false;
  const origin = headers.origin;
  if (origin !== undefined) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (!LOOPBACK_HOSTNAME.test(url.host)) return false;
  }
  return headers['sec-fetch-site'] !== 'cross-site';
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/**
 * The token-or-loopback part of deciding who the caller is; the server's gate
 * (AuthService.authenticate) adds named tokens and sessions in front of it and calls this only
 * while no passkey exists:
 * - `Authorization: Bearer <AGENT_API_TOKEN>`, compared with `equal` (constant time) → agent.
 * - any other Authorization header (a wrong or unexpected bearer) → 401, from anywhere.
 * - no credentials → allowed only from a loopback address, with a loopback Host, no proxy
 *   forwarding headers (a reverse proxy on the same host would otherwise make every visitor look
 *   local) and no cross-site browser origin (isLocalRequest); and only while `trustLoopback`
 *   (KLEBB_TRUST_LOOPBACK, default on).
 * @param equal the constant-time comparison (safeEqual; tests pass a spy around it).
 * @throws 401 Unauthorized.
 */
export function authenticate(
  headers: IncomingHttpHeaders,
  remoteAddress: string | undefined,
  agentApiToken: string | undefined,
  trustLoopback = true,
  equal: (given: string, expected: string) => boolean = safeEqual,
): Principal {
  const auth = headers.authorization;
  if (auth !== undefined) {
    const token = bearerOf(auth);
    if (token !== null && agentApiToken !== undefined && equal(token, agentApiToken)) {
      return { kind: 'agent-token', actor: 'agent-token' };
    }
    throw refusedCredential(auth);
  }
  if (trustLoopback && isLoopbackAddress(remoteAddress) && isLocalRequest(headers))
    return { kind: 'local', actor: 'local' };
  throw unauthorized(untrustedLocalReason(headers, remoteAddress, trustLoopback));
}

/**
 * The 401's message for a request without credentials that came from this machine but was not
 * trusted as local: naming the reason (a proxy's forwarding headers, a Host or Origin that is not
 * a loopback name) saves whoever sets up a reverse proxy from guessing; the rule itself is in the
 * documentation, so the message gives nothing away.
 */
function untrustedLocalReason(
  headers: IncomingHttpHeaders,
  remoteAddress: string | undefined,
  trustLoopback: boolean,
): string | undefined {
  if (!trustLoopback || !isLoopbackAddress(remoteAddress)) return undefined;
  const fix = 'sign in with a passkey or send Authorization: Bearer <token>';
  if (isProxied(headers))
    return `Unauthorized: the request came through a proxy (it carries forwarding headers such as X-Forwarded-For), so it is not taken as one from this machine; ${fix}`;
  return `Unauthorized: a request without credentials is taken as one from this machine only with a loopback Host and no cross-site Origin; ${fix}`;
}

/**
 * The admin gate for `/api/admin/*`: the API is
 * off (404) unless KLEBB_ADMIN_TOKEN is set; then only `Bearer <KLEBB_ADMIN_TOKEN>` passes
 * (compared with `equal`, constant time), anything else is 401.
 */
export function authenticateAdmin(
  headers: IncomingHttpHeaders,
  adminToken: string | undefined,
  equal: (given: string, expected: string) => boolean = safeEqual,
): void {
  if (adminToken === undefined) throw notFound('the admin API is off (KLEBB_ADMIN_TOKEN is not set)');
  const token = bearerOf(headers.authorization);
  if (token === null || !equal(token, adminToken)) throw unauthorized();
}
