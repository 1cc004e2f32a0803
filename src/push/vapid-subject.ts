/**
 * The VAPID `sub` claim (RFC 8292 §2.1): a contact for the push service's operator, from
 * HEALTH_OPERATOR_EMAIL. Apple's push service refuses a JWT whose subject is a `localhost` URL or
 * a mailto: of a host that cannot receive mail, so those forms are refused at start-up rather
 * than failing every push to an iPhone later.
 */

/** The subject used when HEALTH_OPERATOR_EMAIL is unset; push services accept it. */
export const DEFAULT_VAPID_SUBJECT = 'mailto:noreply@klebb.app';

/**
 * Endings of names that never resolve on the public internet: reserved for tests and examples'
 * own use (RFC 2606/6761: `.test`, `.invalid`, `.localhost`), multicast DNS (`.local`), home
 * networks (`.home.arpa`, and the `.lan` / `.home` routers hand out), private networks
 * (`.internal`), and the `localhost.localdomain` of many Linux installs. A self-hosted server's
 * admin address (`root@nas.lan`) is often one of them; Apple's push service checks that the
 * contact can be reached and refuses the whole signature otherwise.
 */
const PRIVATE_ENDINGS = [
  '.localhost',
  '.local',
  '.localdomain',
  '.test',
  '.invalid',
  '.example',
  '.internal',
  '.intranet',
  '.home.arpa',
  '.lan',
  '.home',
  '.corp',
  '.private',
];

/** True for a host name no push service will take as a contact (loopback, a bare IP, no dot, a private name). */
function unreachableHost(host: string): boolean {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (h === 'localhost' || PRIVATE_ENDINGS.some((e) => h.endsWith(e))) return true;
  if (/^[\d.]+$/.test(h) || h.includes(':')) return true;
  return !h.includes('.');
}

/**
 * The VAPID subject for a HEALTH_OPERATOR_EMAIL value: `mailto:<address>` for an address
 * (with or without `mailto:`), an `https:` URL as given, the default when unset.
 * @throws Error with a sentence saying what is wrong (the config turns it into a ConfigError).
 */
export function vapidSubject(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return DEFAULT_VAPID_SUBJECT;
  const v = raw.trim();
  if (/^https:\/\//i.test(v)) {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      throw new Error(`must be an e-mail address or an https:// URL, got ${JSON.stringify(v)}`);
    }
    if (unreachableHost(url.hostname)) {
      throw new Error(
        `push services (Apple's among them) refuse a contact URL on ${url.hostname}, a name that is not public: use a public e-mail address`,
      );
    }
    return url.href;
  }
  const address = v.replace(/^mailto:\s*/i, '');
  const m = /^[^\s@<>()]+@([^\s@<>()]+)$/.exec(address);
  if (!m) throw new Error(`must be an e-mail address (or mailto:/https: URL), got ${JSON.stringify(v)}`);
  if (unreachableHost(m[1])) {
    throw new Error(
      `push services (Apple's among them) refuse a contact address at ${m[1]}, a name that is not public: use a public e-mail domain`,
    );
  }
  return `mailto:${address}`;
}
