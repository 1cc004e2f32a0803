/**
 * Copy for a request that reached no model: the host name is unknown, nothing listens at the
 * address, the certificate is not trusted, or https:// was written for a server that speaks
 * plain http. Each is fixed by a change of settings or by starting the model's server, not by
 * waiting, so each names the address and what to check instead of "try again in a little while".
 */
import type { GatewayError } from '../gateway/gateway-error.js';

/** Certificate codes of a certificate signed by nobody this server trusts (self-signed, a company CA). */
const UNTRUSTED_CERT = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

function causeOf(err: GatewayError): { code?: string; hostname?: string } {
  const cause = (err as { cause?: unknown }).cause;
  return cause && typeof cause === 'object' ? (cause as { code?: string; hostname?: string }) : {};
}

/** The address as the person wrote it, `endpoint` (an origin) or the host the lookup named. */
function addressOf(err: GatewayError): string {
  return err.endpoint ?? causeOf(err).hostname ?? 'the chat endpoint';
}

/** True when `origin` names this machine: localhost, 127.x, ::1 or 0.0.0.0. */
function isLoopback(origin: string | undefined): boolean {
  if (!origin) return false;
  try {
    const host = new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    return (
      host === 'localhost' ||
      host.endsWith('.localhost') ||
      /^127\./.test(host) ||
      host === '::1' ||
      host === '0.0.0.0'
    );
  } catch {
    return false;
  }
}

/**
 * For an address on this machine: inside a container (Klebb's Docker image, compose) localhost
 * is the container itself, not the computer the model runs on, which is the commonest reason
 * nothing listens there.
 */
function loopbackHint(err: GatewayError): string {
  if (!isLoopback(err.endpoint)) return '';
  return " If Klebb runs in a container, localhost there is the container itself: name the model's host instead (host.docker.internal for the computer Docker runs on, adding --add-host=host.docker.internal:host-gateway on Linux, or the model's service name in the same compose file).";
}

/** Why the certificate was refused, in a person's words, with what to do about it. */
function certificateCopy(err: GatewayError): string {
  const code = causeOf(err).code ?? '';
  const at = addressOf(err);
  if (code === 'CERT_HAS_EXPIRED')
    return `The TLS certificate of ${at} has expired, so this server does not trust it with the API key. Whoever runs that endpoint needs to renew it.`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `The TLS certificate of ${at} is made out to another name, so this server does not trust it with the API key. Check the host name in CHAT_ENDPOINT_URL: it must be a name the certificate covers.`;
  const why = UNTRUSTED_CERT.has(code)
    ? 'is not signed by an authority this server trusts (a self-signed or company certificate)'
    : 'could not be checked';
  return (
    `The TLS certificate of ${at} ${why}, so no request was sent. Give this server the authority's certificate ` +
    '(NODE_EXTRA_CA_CERTS=/path/to/ca.pem in its environment), or, on a network you trust, set CHAT_TLS_VERIFY=0. ' +
    'Trying again will not help until then.'
  );
}

/** Copy for a failure before any response, or undefined when it is none of these. */
export function connectionFailureCopy(err: GatewayError): string | undefined {
  if (err.reason === 'bad_proxy')
    return `The proxy setting cannot be used: ${err.message}. Write an http:// proxy there, or unset it to connect directly.`;
  if (err.kind !== 'unavailable') return undefined;
  switch (err.reason) {
    case 'proxy_auth':
      return `The chat endpoint is reached through a proxy, and ${err.message}. Write its user and password into that variable (http://user:password@host:port); trying again will not help until then.`;
    case 'proxy_refused':
    case 'proxy_unreachable':
      return `The chat endpoint is reached through a proxy, and ${err.message}. Check that proxy and the variable naming it, or list the endpoint's host in NO_PROXY to connect directly.`;
    case 'dns':
      if (err.retryable) return undefined; // a lookup that failed for now, not a name nobody knows
      return `No host named ${causeOf(err).hostname ?? 'as written'} could be found (${addressOf(err)}). Check the host name in CHAT_ENDPOINT_URL in the server's settings; trying again will not help until it is fixed.`;
    case 'connection_refused':
      return `Nothing is listening at ${addressOf(err)}: the model's server may not be running, or CHAT_ENDPOINT_URL names another port. Start the model's server or correct the address, then try again.${loopbackHint(err)}`;
    case 'not_tls': {
      const plain = err.endpoint?.replace(/^https:/, 'http:') ?? 'http://';
      return `The server at ${addressOf(err)} speaks plain http, not https. Write ${plain} in CHAT_ENDPOINT_URL (or put TLS in front of that server); trying again will not help until then.`;
    }
    case 'tls':
      return certificateCopy(err);
    default:
      return undefined;
  }
}
