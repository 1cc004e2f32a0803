/**
 * The web address the phone posts to (Settings › Health Auto Export, `GET
 * /api/health-auto-export/status`), in this order:
 * 1. HEALTH_ORIGIN, the instance's public origin, when set;
 * 2. behind a reverse proxy listed in KLEBB_TRUSTED_PROXIES (the request came from one of its
 *    addresses): the scheme, host and port the proxy forwards (`X-Forwarded-Proto`, `-Host`,
 *    `-Port`, or RFC 7239 `Forwarded`; the outermost proxy's when a chain lists several, see
 *    src/http/forwarded-base.ts), else the `Host` the proxy passed on, as the browser and the
 *    phone see it;
 * 3. else the loopback Host or the address the request arrived on (src/auth/origin.ts
 *    trustedBase), never an arbitrary Host header from an untrusted client.
 */
import net from 'node:net';
import type { FastifyRequest } from 'fastify';
import { trustedBase } from '../../auth/origin.js';
import { forwardedBase } from '../../http/forwarded-base.js';
import { HAE_WEBHOOK_PATH } from './webhook/routes.js';

const lists = new Map<string, net.BlockList>();

/** A BlockList of KLEBB_TRUSTED_PROXIES entries (addresses or CIDR ranges, checked at start-up). */
function proxyList(entries: readonly string[]): net.BlockList {
  const key = entries.join(',');
  let list = lists.get(key);
  if (list) return list;
  list = new net.BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  lists.set(key, list);
  return list;
}

/** True when `address` (the socket's peer) is one of `entries`. */
export function isTrustedProxy(address: string | undefined, entries: readonly string[]): boolean {
  if (!address || entries.length === 0) return false;
  const plain = address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
  const family = net.isIP(plain);
  if (family === 0) return false;
  return proxyList(entries).check(plain, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The URL the phone should post to (see the module comment).
 * @param origin HEALTH_ORIGIN (config.auth.origin), if set.
 * @param trustedProxies KLEBB_TRUSTED_PROXIES entries.
 */
export function endpointUrl(
  req: Pick<FastifyRequest, 'headers' | 'socket'>,
  origin: string | undefined,
  trustedProxies: readonly string[] = [],
): string {
  if (origin === undefined && isTrustedProxy(req.socket.remoteAddress, trustedProxies)) {
    const base = forwardedBase(req.headers);
    if (base) return `${base}${HAE_WEBHOOK_PATH}`;
  }
  return `${trustedBase(req.headers, req.socket, origin)}${HAE_WEBHOOK_PATH}`;
}
