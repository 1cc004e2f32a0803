/**
 * The browser side of passkeys (`@simplewebauthn/browser` 14) and the `/auth/*` routes
 * (docs/API.md "Authentication"): ask the server for options, let the browser and authenticator
 * make or use a passkey, send the answer back. The server sets the session cookie.
 */
import { startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import type { Availability } from '../../src/common/auth-types.js';
import { api } from '../lib/api.js';

/** `GET /auth/status`. */
export interface AuthStatus {
  /** No passkey is registered yet (first run). */
  setup: boolean;
  authenticated: boolean;
  kind: 'session' | 'local' | 'agent-token' | 'named-token' | null;
  label: string | null;
  name: string;
  demo: boolean;
  cloud: boolean;
}

/** `GET /auth/register/available`. */
export type { Availability } from '../../src/common/auth-types.js';

/** Who is here and what the instance is. */
export function authStatus(signal?: AbortSignal): Promise<AuthStatus> {
  return api<AuthStatus>('/auth/status', { signal });
}

/** Whether the code of a link (or, without one, the current session) may register a passkey. */
export function availability(code: string | null, signal?: AbortSignal): Promise<Availability> {
  const q = code ? `?code=${encodeURIComponent(code)}` : '';
  return api<Availability>(`/auth/register/available${q}`, { signal });
}

/**
 * Makes a passkey on this device: with a setup or invite `code`, or (without one) for the
 * signed-in person. @throws ApiError from the server, or an Error with a readable message.
 */
export async function registerPasskey(opts: {
  code?: string;
  nickname?: string;
}): Promise<{ label: string }> {
  const options = await api<Parameters<typeof startRegistration>[0]['optionsJSON']>(
    '/auth/register/options',
    {
      json: opts.code ? { code: opts.code } : {},
    },
  );
  const response = await withReadableErrors(() => startRegistration({ optionsJSON: options }));
  return api<{ label: string }>('/auth/register/verify', {
    json: { response, nickname: opts.nickname || undefined },
  });
}

/** Signs in with a passkey. @throws ApiError or an Error with a readable message. */
export async function signInWithPasskey(): Promise<{ label: string }> {
  const options = await api<Parameters<typeof startAuthentication>[0]['optionsJSON']>('/auth/login/options', {
    method: 'POST',
  });
  const response = await withReadableErrors(() => startAuthentication({ optionsJSON: options }));
  return api<{ label: string }>('/auth/login/verify', { json: { response } });
}

/**
 * Drops the service worker's offline copy of the cards (web/public/sw.js): it leaves with the
 * session, however the session ended, so a browser left signed out never shows them offline.
 */
export async function dropOfflineCopy(): Promise<void> {
  await globalThis.caches?.delete('klebb-data-v1').catch(() => false);
}

/** Ends this browser's session. */
export async function signOut(): Promise<unknown> {
  const res = await api('/auth/logout', { method: 'POST' });
  await dropOfflineCopy();
  return res;
}

/** Signs in as the demo account (demo mode only). */
export function enterDemo(): Promise<unknown> {
  return api('/auth/demo-login', { method: 'POST' });
}

/** Runs a WebAuthn call, turning the browser's errors into sentences a person can act on. */
async function withReadableErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const e = err as Error;
    if (err instanceof WebAuthnError && err.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
      throw new Error('This device already has a passkey for this account.');
    }
    if (e.name === 'NotAllowedError' || e.name === 'AbortError') {
      throw new Error('The passkey request was cancelled or timed out. Try again.');
    }
    if (e.name === 'SecurityError') {
      throw new Error(
        'Passkeys do not work at this address: open Klebb at its HTTPS address (or localhost).',
      );
    }
    if (/does not support WebAuthn/i.test(e.message ?? ''))
      throw new Error('This browser does not support passkeys.');
    throw err;
  }
}
