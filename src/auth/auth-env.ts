/**
 * The environment of accounts and access: the WebAuthn
 * relying party, the public origin, where credentials and sessions live, and the rate limits.
 *
 * `readAuthEnv` holds the rules; src/config.ts calls it while reading the environment, so a bad
 * value stops the start like any other (exit 2, naming the variable).
 */
import os from 'node:os';
import path from 'node:path';
import { AUTH_FAILURES_PER_MIN, MIN_TOKEN_CHARS } from './auth-limits.js';

/** Sign-in and registration requests per client address per minute, by default. */
export const DEFAULT_AUTH_RATE_LIMIT_PER_MIN = 30;
/**
 * Requests per bearer token per minute, by default ("the agent API per token, on by
 * default"). Generous on purpose: the benchmarks make thousands of sequential appends with one
 * token, and a script is not a brute-force attack (tokens are 256-bit secrets).
 */
export const DEFAULT_AGENT_RATE_LIMIT_PER_MIN = 6000;

/** What `readAuthEnv` returns. Paths are absolute. */
export interface AuthEnv {
  /** HEALTH_RP_NAME (alias WEBAUTHN_RP_NAME): the name authenticators show; default the instance name. */
  rpName: string;
  /**
   * HEALTH_RP_ID (alias WEBAUTHN_RP_ID): the WebAuthn relying party id, a host name. Default: the
   * host of HEALTH_ORIGIN when that is set, else `localhost`. Changing it invalidates every passkey.
   */
  rpId: string;
  /**
   * HEALTH_ORIGIN (alias WEBAUTHN_ORIGIN): the public origin (`https://health.example.org`), the
   * only one passkeys and state-changing browser requests are accepted from, and the base of
   * invite links. Undefined when unset: then the loopback origin a request came on is accepted
   * (`http://localhost:<port>`), so a fresh `npm start` works over plain HTTP on this machine.
   */
  origin?: string;
  /** Session cookies carry `Secure` (true when HEALTH_ORIGIN is https). */
  secureCookies: boolean;
  /** HEALTH_CREDENTIALS_DIR (default `<home>/credentials`): passkeys, invites, agent tokens. */
  credentialsDir: string;
  /** HEALTH_SESSIONS_DIR (default `<home>/sessions`): sessions and the auth event log. */
  sessionsDir: string;
  /** KLEBB_AUTH_RATE_LIMIT: sign-in/registration requests per address per minute (0 = off; default 30). */
  authRateLimitPerMin: number;
  /** KLEBB_AUTH_FAILURE_LIMIT: refused credentials per address per minute before 429 (0 = off; default 60). */
  authFailuresPerMin: number;
  /** KLEBB_AGENT_RATE_LIMIT: requests per bearer token per minute (0 = off; default 6000). */
  agentRateLimitPerMin: number;
}

type Env = Record<string, string | undefined>;

/** A bad value; the message starts with the variable's name (config.ts turns it into a ConfigError). */
function bad(name: string, message: string): Error {
  return new Error(`${name}: ${message}`);
}

function first(env: Env, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const v = env[name]?.trim();
    if (v) return { name, value: v };
  }
  return undefined;
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IP_V4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** Parses HEALTH_ORIGIN into its canonical `scheme://host[:port]` form. */
function readOrigin(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad(name, `must be an origin such as https://health.example.org, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw bad(name, `must start with https:// (or http:// for localhost), got ${JSON.stringify(raw)}`);
  }
  if (
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw bad(name, `must be an origin only (scheme, host and port; no path), got ${JSON.stringify(raw)}`);
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOST.test(url.hostname)) {
    throw bad(
      name,
      `passkeys need HTTPS except on localhost: use https://${url.host}, got ${JSON.stringify(raw)}`,
    );
  }
  return url.origin;
}

function rateVar(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > 1_000_000) {
    throw bad(
      name,
      `must be a whole number of requests per minute from 0 (off) to 1000000, got ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw);
}

/**
 * Reads the variables of accounts and access.
 * @param home HEALTH_HOME (absolute), for the default folders.
 * @param instanceName the default relying party name.
 * @throws Error whose message starts with the variable's name: an origin that is not an
 *   origin, plain HTTP on a non-loopback host, an RP id that is not a host name or does not
 *   cover the origin's host (localhost when HEALTH_ORIGIN is unset), a rate that is not a whole
 *   number.
 */
export function readAuthEnv(env: Env, home: string, instanceName: string): AuthEnv {
  const originVar = first(env, ['HEALTH_ORIGIN', 'WEBAUTHN_ORIGIN']);
  const origin = originVar ? readOrigin(originVar.name, originVar.value) : undefined;
  const originHost = origin ? new URL(origin).hostname : undefined;
  const rpVar = first(env, ['HEALTH_RP_ID', 'WEBAUTHN_RP_ID']);
  const rpId = (rpVar?.value ?? originHost ?? 'localhost').toLowerCase();
  const rpVarName = rpVar?.name ?? (originHost ? 'HEALTH_ORIGIN' : 'HEALTH_RP_ID');
  if (!HOST_NAME.test(rpId) || IP_V4.test(rpId)) {
    throw bad(
      rpVarName,
      `the passkey relying party id must be a host name such as health.example.org (not an address, no scheme or port), got ${JSON.stringify(rpId)}`,
    );
  }
  if (originHost && originHost !== rpId && !originHost.endsWith(`.${rpId}`)) {
    throw bad(
      rpVarName,
      `${JSON.stringify(rpId)} must be the host of HEALTH_ORIGIN (${originHost}) or a parent domain of it`,
    );
  }
  // without HEALTH_ORIGIN the app is opened on http://localhost:<port>, where a browser makes
  // passkeys only for the relying party localhost: any other id fails every registration
  if (!originHost && rpId !== 'localhost') {
    throw bad(
      rpVarName,
      `${JSON.stringify(rpId)} needs HEALTH_ORIGIN: without it Klebb is opened on http://localhost, whose passkeys belong to localhost only; set HEALTH_ORIGIN to the address people open (such as https://${rpId}), or leave ${rpVarName} out`,
    );
  }
  const dir = (names: string[], fallback: string) => {
    const v = first(env, names)?.value;
    return path.resolve(v ? v.replace(/^~(?=$|\/)/, os.homedir()) : fallback);
  };
  return {
    rpName: first(env, ['HEALTH_RP_NAME', 'WEBAUTHN_RP_NAME'])?.value ?? instanceName,
    rpId,
    origin,
    secureCookies: origin?.startsWith('https:') ?? false,
    credentialsDir: dir(['HEALTH_CREDENTIALS_DIR'], path.join(home, 'credentials')),
    sessionsDir: dir(['HEALTH_SESSIONS_DIR'], path.join(home, 'sessions')),
    authRateLimitPerMin: rateVar(env, 'KLEBB_AUTH_RATE_LIMIT', DEFAULT_AUTH_RATE_LIMIT_PER_MIN),
    authFailuresPerMin: rateVar(env, 'KLEBB_AUTH_FAILURE_LIMIT', AUTH_FAILURES_PER_MIN),
    agentRateLimitPerMin: rateVar(env, 'KLEBB_AGENT_RATE_LIMIT', DEFAULT_AGENT_RATE_LIMIT_PER_MIN),
  };
}

/**
 * Whether HEALTH_ORIGIN names a public (non-loopback) origin. Then Klebb sits behind a reverse
 * proxy, where every visitor's request reaches it from 127.0.0.1 with a rewritten Host, so the
 * credential-less loopback allowance is off unless KLEBB_TRUST_LOOPBACK=1 says otherwise.
 * @param origin the validated HEALTH_ORIGIN, or undefined when unset.
 */
export function publicOriginSet(origin: string | undefined): boolean {
  if (origin === undefined) return false;
  const host = new URL(origin).hostname;
  return !(host === 'localhost' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host));
}

/**
 * Start-up warnings for bearer secrets too short to resist guessing:
 * AGENT_API_TOKEN and KLEBB_ADMIN_TOKEN under MIN_TOKEN_CHARS characters.
 * @returns one message per short variable (never the value).
 */
export function shortTokenWarnings(tokens: Record<string, string | undefined>): string[] {
  return Object.entries(tokens)
    .filter(([, v]) => v !== undefined && v.length < MIN_TOKEN_CHARS)
    .map(
      ([name]) =>
        `${name} is shorter than ${MIN_TOKEN_CHARS} characters: use a long random value (e.g. openssl rand -hex 32)`,
    );
}
