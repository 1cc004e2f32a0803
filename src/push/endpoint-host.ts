/**
 * Which push endpoints the server must never send to. The endpoint of a subscription comes from
 * the browser, so anyone signed in can send any URL, and the server later POSTs every reminder to
 * it: an endpoint on a link-local address (169.254.169.254 is the cloud metadata service), the
 * "this host" address 0.0.0.0, a multicast address or the metadata service's name would turn
 * reminders into requests the caller could never make from outside. No push service lives on
 * those. Loopback and private addresses are refused too unless the operator allows them
 * (KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS=1: a self-hosted push service on the local network). A URL with a user name or password is refused too (push services
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

/**
 * Addresses of this machine and of private networks: refused unless the operator allows them
 * (KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS=1, for a self-hosted push service on the local network),
 * so a subscription cannot make the server POST to a service only it can reach.
 */
const PRIVATE = new net.BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

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
export function forbiddenPushTarget(url: URL, allowPrivate = false): string | null {
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (METADATA_NAMES.has(host)) return 'must not name the cloud metadata service';
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost')))
    return 'must not name this machine (a push service is on the internet)';
  return forbiddenAddress(host, allowPrivate);
}

/**
 * Why the server must not send to the IP address `ip`, or null when it may (or when `ip` is not
 * an IP address). IPv4-mapped IPv6 addresses are judged as their IPv4 address; the URL parser
 * has already turned bare-decimal and hexadecimal IPv4 forms (`https://2130706433/`) into dotted
 * ones.
 */
export function forbiddenAddress(ip: string, allowPrivate = false): string | null {
  const kind = net.isIP(ip);
  if (kind === 0) return null;
  const v4 = kind === 6 ? mappedIpv4(ip) : ip;
  const check = (list: net.BlockList) => (v4 ? list.check(v4, 'ipv4') : list.check(ip, 'ipv6'));
  if (check(BLOCKED))
    return 'must not be a link-local, multicast or unspecified address (no push service lives there)';
  if (!allowPrivate && check(PRIVATE))
    return 'must not be a loopback or private network address (a push service is on the internet)';
  return null;
}

/**
 * Why `endpoint` cannot be a push endpoint of this server (not an https URL, or a target
 * forbiddenPushTarget refuses), or null when it can. The subscribe route and the sender share it,
 * so a stored row is judged as a new subscription would be.
 */
export function pushEndpointProblem(endpoint: string, allowPrivate = false): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be the https:// URL of a push service';
  }
  if (url.protocol !== 'https:') return 'must be the https:// URL of a push service';
  return forbiddenPushTarget(url, allowPrivate);
}
