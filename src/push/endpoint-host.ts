/**
 * Which push endpoints the server must never send to. The endpoint of a subscription comes from
 * the browser, so anyone signed in can send any URL, and the server later POSTs every reminder to
 * it: an endpoint on a link-local address (169.254.169.254 is the cloud metadata service), the
 * "this host" address 0.0.0.0, a multicast address or the metadata service's name would turn
 * reminders into requests the caller could never make from outside. No push service lives on
 * those. Loopback and private addresses stay allowed: a self-hosted push service on the local
 * network is a real setup. A URL with a user name or password is refused too (push services
 * take none, and it would be sent along).
 */
import net from 'node:net';

const BLOCKED = new net.BlockList();
BLOCKED.addSubnet('0.0.0.0', 8, 'ipv4');
BLOCKED.addSubnet('169.254.0.0', 16, 'ipv4');
BLOCKED.addSubnet('224.0.0.0', 4, 'ipv4');
BLOCKED.addAddress('255.255.255.255', 'ipv4');
BLOCKED.addAddress('::', 'ipv6');
BLOCKED.addSubnet('fe80::', 10, 'ipv6');
BLOCKED.addSubnet('ff00::', 8, 'ipv6');

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:169.254.169.254`), else null. */
function mappedIpv4(ip: string): string | null {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (m) return m[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (!hex) return null;
  const [hi, lo] = [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Why the server must not send to `url`, or null when it may. `url` is a parsed https URL.
 * Only the address as written is judged (no DNS look-up).
 */
export function forbiddenPushTarget(url: URL): string | null {
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (METADATA_NAMES.has(host)) return 'must not name the cloud metadata service';
  const kind = net.isIP(host);
  if (kind === 0) return null;
  const v4 = kind === 6 ? mappedIpv4(host) : host;
  const blocked = v4 ? BLOCKED.check(v4, 'ipv4') : BLOCKED.check(host, 'ipv6');
  return blocked
    ? 'must not be a link-local, multicast or unspecified address (no push service lives there)'
    : null;
}

/**
 * Why `endpoint` cannot be a push endpoint of this server (not an https URL, or a target
 * forbiddenPushTarget refuses), or null when it can. The subscribe route and the sender share it,
 * so a stored row is judged as a new subscription would be.
 */
export function pushEndpointProblem(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be the https:// URL of a push service';
  }
  if (url.protocol !== 'https:') return 'must be the https:// URL of a push service';
  return forbiddenPushTarget(url);
}
