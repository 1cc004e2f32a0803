/**
 * The HTTP steps of registering a passkey and signing in, as a browser page would make them
 * (test/auth only). Each step is a real request to the real server; nothing is skipped.
 */
import { type ApiResponse, request, type TestServer } from '../helpers/server.js';
import type { SoftAuthenticator } from './soft-authenticator.js';

/** The `klebb_session` value a response sets, or undefined. */
export function sessionCookieOf(res: ApiResponse): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const m = /^klebb_session=([^;]*)/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** The raw `Set-Cookie` line for `klebb_session`, or undefined. */
export function sessionSetCookie(res: ApiResponse): string | undefined {
  return res.headers.getSetCookie().find((l) => l.startsWith('klebb_session='));
}

/** Headers of a browser request from `origin`, with the session cookie when given. */
export function browser(origin: string, cookie?: string): Record<string, string> {
  return { origin, ...(cookie ? { cookie: `klebb_session=${cookie}` } : {}) };
}

/** Options then verify of a registration; `cookie` for adding a device while signed in. */
export async function register(
  s: TestServer,
  authn: SoftAuthenticator,
  body: { code?: string; label?: string; nickname?: string } = {},
  cookie?: string,
): Promise<{ options: ApiResponse; verify?: ApiResponse; cookie?: string }> {
  const headers = browser(authn.origin, cookie);
  const { nickname, ...optionsBody } = body;
  const options = await request(s.url, '/auth/register/options', { json: optionsBody, headers });
  if (options.status !== 200) return { options };
  const verify = await request(s.url, '/auth/register/verify', {
    json: { response: authn.create(options.body), nickname },
    headers,
  });
  return { options, verify, cookie: sessionCookieOf(verify) };
}

/** Options then verify of a sign-in; returns the verify answer and the new session cookie. */
export async function signIn(
  s: TestServer,
  authn: SoftAuthenticator,
  which?: string,
): Promise<{ verify: ApiResponse; cookie?: string }> {
  const headers = browser(authn.origin);
  const options = await request(s.url, '/auth/login/options', { method: 'POST', headers });
  if (options.status !== 200) return { verify: options };
  const verify = await request(s.url, '/auth/login/verify', {
    json: { response: authn.get(options.body, which) },
    headers,
  });
  return { verify, cookie: sessionCookieOf(verify) };
}

/** The code in a setup or invite link (`...#code=<code>`). */
export function codeOf(link: string): string {
  return decodeURIComponent(new URL(link).hash.replace(/^#code=/, ''));
}

/**
 * A new demo visitor's headers (KLEBB_DEMO=1): signs in through `POST /auth/demo-login` from off
 * the machine (an X-Forwarded-For address, so the loopback allowance plays no part) and returns
 * that address with the visitor's own session cookie and the instance's Origin.
 */
export async function demoVisitor(s: {
  url: string;
  api: TestServer['api'];
}): Promise<Record<string, string>> {
  const off = { 'x-forwarded-for': '203.0.113.9' };
  const r = await s.api('/auth/demo-login', { method: 'POST', headers: { ...off, origin: s.url } });
  const cookie = /klebb_session=([^;]+)/.exec(r.headers.getSetCookie().join())?.[1] as string;
  return { ...off, ...browser(s.url, cookie) };
}
