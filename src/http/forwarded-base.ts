/**
 * The public base URL (`https://health.example.org`) a reverse proxy says a request was made to,
 * read from the headers proxies send. Only for a request whose peer is a trusted proxy (the caller
 * checks); the answer is shown to the person who asked, so a value they forge misleads only them.
 *
 * Proxies write these headers in more ways than one, and each must give the address the browser
 * used:
 * - `X-Forwarded-Proto`, `X-Forwarded-Host`, `X-Forwarded-Port`; a chain of proxies that appends
 *   makes a list (`https, http`), whose first value is the outermost proxy's, the one the browser
 *   reached. Several header lines count as one list.
 * - RFC 7239 `Forwarded: for=…;proto=https;host="health.example.org:8443"`, its first element,
 *   when no `X-Forwarded-Proto` / `-Host` says otherwise.
 * - `X-Forwarded-Ssl: on` and `Front-End-Https: on` for https when no scheme is named.
 * - A host without a port takes `X-Forwarded-Port` (nginx's `$host` drops the port a site on 8443
 *   was reached on); the scheme's default port is left out (`:443` on https).
 */
import type { IncomingHttpHeaders } from 'node:http';

/** `host` or `host:port`, a name or an IP literal (IPv6 in brackets). */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The comma-separated values of a header, over all its lines, trimmed, empty ones left out. */
function values(h: string | string[] | undefined): string[] {
  const lines = Array.isArray(h) ? h : h === undefined ? [] : [h];
  return lines.flatMap((l) => l.split(',').map((v) => v.trim())).filter((v) => v !== '');
}

/** The first value of a header list, or undefined. */
function first(h: string | string[] | undefined): string | undefined {
  return values(h)[0];
}

/**
 * The parameters of the first element of an RFC 7239 `Forwarded` header, names lower-cased,
 * quoted values unquoted (`proto`, `host`, `for`, `by`).
 */
export function forwardedElement(h: string | string[] | undefined): Record<string, string> {
  const text = Array.isArray(h) ? h.join(',') : h;
  const out: Record<string, string> = {};
  if (!text) return out;
  // the first element ends at the first comma outside quotes
  const re = /\s*([A-Za-z][\w-]*)\s*=\s*("(?:[^"\\]|\\.)*"|[^;,\s]*)\s*(;|,|$)/y;
  for (;;) {
    const m = re.exec(text);
    if (!m) break;
    const raw = m[2];
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    const name = m[1].toLowerCase();
    if (!(name in out)) out[name] = value;
    if (m[3] !== ';') break;
  }
  return out;
}

function isOn(h: string | string[] | undefined): boolean {
  return first(h)?.toLowerCase() === 'on';
}

/** The scheme the browser used, or undefined when the headers do not say. */
function schemeOf(headers: IncomingHttpHeaders, fwd: Record<string, string>): string | undefined {
  const named = first(headers['x-forwarded-proto']) ?? first(headers['x-forwarded-scheme']) ?? fwd.proto;
  if (named !== undefined) return named.toLowerCase();
  if (isOn(headers['x-forwarded-ssl']) || isOn(headers['front-end-https'])) return 'https';
  return undefined;
}

/**
 * The base URL the headers name, or undefined when they name none (no forwarded scheme, host
 * or port), or what they name is not an http(s) URL with a plain host.
 * @param headers the request's headers (lower-case names, as Node gives them).
 */
export function forwardedBase(headers: IncomingHttpHeaders): string | undefined {
  const fwd = forwardedElement(headers.forwarded);
  const proto = schemeOf(headers, fwd);
  const forwardedHost = first(headers['x-forwarded-host']) ?? fwd.host;
  const port = first(headers['x-forwarded-port']);
  if (proto === undefined && forwardedHost === undefined && port === undefined) return undefined;
  if (proto !== undefined && proto !== 'http' && proto !== 'https') return undefined;
  const host = forwardedHost ?? first(headers.host);
  if (!host || !HOST.test(host)) return undefined;
  if (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) <= 65535)) return undefined;
  try {
    const url = new URL(`${proto ?? 'http'}://${host.toLowerCase().replace(/\.(?=:|$)/, '')}`);
    // a host without a port was reached on the forwarded one (the default port drops out)
    if (url.port === '' && port !== undefined && !/:\d+$/.test(host)) url.port = port;
    return url.origin;
  } catch {
    return undefined;
  }
}
