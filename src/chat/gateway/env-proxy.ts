/**
 * The proxy a request to the chat endpoint goes through, from the environment as curl and most
 * tools read it: `https_proxy` / `HTTPS_PROXY` for an https:// endpoint, `http_proxy` /
 * `HTTP_PROXY` for an http:// one (the lower-case name first), `ALL_PROXY` for either when
 * neither is set, and `no_proxy` / `NO_PROXY` naming hosts to reach directly. Node's own HTTP
 * client ignores these variables, so a server that may only reach the internet through a proxy
 * could never reach a hosted model. A loopback address (localhost, 127.x, ::1) is always reached
 * directly: a model on the same machine is never behind the proxy.
 */

/** Where to send a request for `target`, or undefined to connect directly. */
export interface ProxyRoute {
  /** The proxy's URL (credentials included when it had any); undefined when it is none Klebb can use. */
  proxy?: URL;
  /** The value as written in the environment. */
  written: string;
  /** The environment variable it came from, to name in messages. */
  variable: string;
}

type Env = Record<string, string | undefined>;

/** The first of `names` set to something other than blanks, with its name. */
function firstSet(env: Env, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** A host without IPv6 brackets, lower case, without a trailing dot. */
function bareHost(host: string): string {
  return host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** True for localhost (and names under it), 127.0.0.0/8 and ::1. */
function isLoopback(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '::1' ||
    host === '0:0:0:0:0:0:0:1'
  );
}

/** The port `url` connects to. */
function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/**
 * True when a `no_proxy` list (comma- or space-separated) names `url`'s host: `*` names every
 * host; `example.com` or `.example.com` names it and every name under it; an entry with
 * `:port` names that port only; an IP address names itself.
 */
export function bypassesProxy(url: URL, noProxy: string): boolean {
  const host = bareHost(url.hostname);
  const port = portOf(url);
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1];
      entryPort = bracketed[2];
    } else {
      const withPort = /^([^:]+):(\d+)$/.exec(entry);
      if (withPort) {
        entry = withPort[1];
        entryPort = withPort[2];
      }
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    const name = entry.replace(/^\*?\./, '').replace(/\.$/, '');
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/**
 * The proxy for a request to `target` by the environment `env` (process.env by default), or
 * undefined to connect directly. A proxy written without a scheme is taken as http:// (as curl
 * does); one with another scheme (socks5://) or that is no URL comes back without `proxy`, for
 * the caller to refuse naming the variable rather than to connect around it.
 */
export function proxyFor(target: URL, env: Env = process.env): ProxyRoute | undefined {
  const host = bareHost(target.hostname);
  if (isLoopback(host)) return undefined;
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY']);
  if (noProxy && bypassesProxy(target, noProxy.value)) return undefined;
  const names =
    target.protocol === 'https:'
      ? ['https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY']
      : ['http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'];
  const set = firstSet(env, names);
  if (!set) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(set.value) ? set.value : `http://${set.value}`;
  const route: ProxyRoute = { written: set.value, variable: set.name };
  try {
    const proxy = new URL(withScheme);
    if ((proxy.protocol === 'http:' || proxy.protocol === 'https:') && proxy.hostname !== '')
      route.proxy = proxy;
  } catch {
    // no URL: left without `proxy`
  }
  return route;
}
