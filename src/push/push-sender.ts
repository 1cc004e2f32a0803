/**
 * Sends one encrypted message to one subscription with the `web-push` library (RFC 8291
 * aes128gcm payload, RFC 8292 VAPID authorisation), TTL PUSH_TTL_SECONDS, urgency high. What the
 * push service answers decides what happens to the subscription: 2xx delivered; 404/410 gone
 * (remove it); 401/403 refused (mark it dead); 408, 429, 5xx or a network failure: tried again after
 * a backoff (the service's Retry-After when it sends one), up to PUSH_MAX_ATTEMPTS tries; a
 * Retry-After longer than PUSH_MAX_RETRY_WAIT_MS ends the tries (the message has failed). Any
 * other answer (a redirect, which RFC 8030 has no use for and web-push does not follow, 400 and
 * the like) is `rejected`: not tried again, and counted against the subscription. 413 says the
 * message is too large for that service, not that the address is wrong: `too-large`, for the
 * caller to send a smaller one. The reason the service gives is kept (push-reason.ts).
 */
import type https from 'node:https';
import type { RequestOptions } from 'web-push';
import { parseRetryAfter } from '../http/retry-after-value.js';
import { lazyRequire } from '../lazy-module.js';
import {
  PUSH_MAX_ATTEMPTS,
  PUSH_MAX_RETRY_WAIT_MS,
  PUSH_REQUEST_TIMEOUT_MS,
  PUSH_RETRY_BASE_MS,
  PUSH_TTL_SECONDS,
} from '../limits.js';
import { pushEndpointProblem } from './endpoint-host.js';
import { guardedAgent, PRIVATE_RESOLUTION } from './guarded-lookup.js';
import { pushReason } from './push-reason.js';
import type { SubscriptionRow } from './subscription-store.js';

/** The guarded agents (src/push/guarded-lookup.ts), made when first needed. */
const agents = new Map<boolean, https.Agent>();
function defaultAgent(allowPrivate: boolean): https.Agent {
  let a = agents.get(allowPrivate);
  if (!a) {
    a = guardedAgent(allowPrivate);
    agents.set(allowPrivate, a);
  }
  return a;
}

/** web-push is loaded with the first push sent, not at start-up. */
const webpush = lazyRequire<typeof import('web-push')>('web-push');

/** The VAPID identity messages are signed with. */
export interface VapidIdentity {
  subject: string;
  publicKey: string;
  privateKey: string;
}

/** How sending is wired: the identity, and for tests an HTTPS agent and a shorter backoff. */
export interface SenderOptions {
  vapid: VapidIdentity;
  /** Signed VAPID headers kept between messages (one map per PushService; see vapidAuthorization). */
  tokens: VapidTokens;
  /** HTTPS agent for the requests (tests pass one that trusts their stand-in's certificate). */
  agent?: https.Agent;
  /** Loopback and private endpoints allowed (KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS). */
  allowPrivate?: boolean;
  /** First retry wait, ms (default PUSH_RETRY_BASE_MS). */
  retryBaseMs?: number;
}

/**
 * What became of one message: `status` is the last HTTP status (0: no answer). `failed` may
 * pass (busy service, network); `rejected` is an answer that will not change by asking again.
 */
export interface SendOutcome {
  id: string;
  status: number;
  result: 'sent' | 'gone' | 'refused' | 'failed' | 'rejected' | 'too-large';
  attempts: number;
  /** What the service said, when it said something (`BadJwtToken`); see pushReason. */
  reason?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The wait the service's Retry-After asks for, ms; null without one or when it is unreadable. */
function retryAfterMs(headers: Record<string, unknown> | undefined): number | null {
  const raw = headers?.['retry-after'];
  return (typeof raw === 'string' ? parseRetryAfter(raw) : undefined) ?? null;
}

/** How long one signed VAPID token is used for a push service, ms (it is valid for 12 h). */
const VAPID_REUSE_MS = 3_600_000;

/** Signed `Authorization` headers by push service origin and identity, each with its expiry (ms since the epoch). */
export type VapidTokens = Map<string, { authorization: string; until: number }>;

/**
 * The `Authorization: vapid t=…, k=…` header for a push service's origin. Signing the ES256 JWT
 * is most of the cost of a push, so one token per service is kept for an hour (RFC 8292 lets a
 * token be reused until it expires; `web-push` makes them valid for 12 hours).
 */
export function vapidAuthorization(
  endpoint: string,
  vapid: VapidIdentity,
  vapidTokens: VapidTokens,
  now = Date.now(),
): string {
  const audience = new URL(endpoint).origin;
  const key = `${audience} ${vapid.publicKey} ${vapid.subject}`;
  const hit = vapidTokens.get(key);
  if (hit && hit.until > now) return hit.authorization;
  const headers = webpush().getVapidHeaders(
    audience,
    vapid.subject,
    vapid.publicKey,
    vapid.privateKey,
    'aes128gcm',
  );
  const authorization = String(headers.Authorization);
  if (vapidTokens.size > 200) vapidTokens.clear();
  vapidTokens.set(key, { authorization, until: now + VAPID_REUSE_MS });
  return authorization;
}

function requestOptions(opts: SenderOptions, topic: string, endpoint: string): RequestOptions {
  return {
    // no vapidDetails: the header is signed once per service and hour (vapidAuthorization)
    headers: { Authorization: vapidAuthorization(endpoint, opts.vapid, opts.tokens) },
    TTL: PUSH_TTL_SECONDS,
    urgency: 'high',
    topic,
    timeout: PUSH_REQUEST_TIMEOUT_MS,
    agent: opts.agent ?? defaultAgent(opts.allowPrivate === true),
  };
}

/**
 * The size in bytes of `body` once encrypted for `sub` (what the push service counts against
 * its 4096-byte limit: header, ciphertext and tag), measured by encrypting it.
 */
export function encryptedSize(sub: SubscriptionRow, body: string, opts: SenderOptions): number {
  const details = webpush().generateRequestDetails(
    { endpoint: sub.endpoint, keys: sub.keys },
    body,
    requestOptions(opts, 'size', sub.endpoint),
  );
  return (details.body as Buffer | null)?.length ?? 0;
}

/**
 * Sends `body` to `sub`, retrying a busy or failing service; never throws. An endpoint the
 * server must not send to (src/push/endpoint-host.ts) is not tried and comes back `gone`.
 */
export async function sendPush(
  sub: SubscriptionRow,
  body: string,
  topic: string,
  opts: SenderOptions,
): Promise<SendOutcome> {
  // a row stored before the subscribe route checked endpoints: never sent to, and forgotten
  if (pushEndpointProblem(sub.endpoint, opts.allowPrivate) !== null)
    return { id: sub.id, status: 0, result: 'gone', attempts: 0 };
  const base = opts.retryBaseMs ?? PUSH_RETRY_BASE_MS;
  let status = 0;
  let reason: string | undefined;
  const outcome = (result: SendOutcome['result'], attempts: number): SendOutcome => ({
    id: sub.id,
    status,
    result,
    attempts,
    ...(reason ? { reason } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    let wait: number | null = null;
    try {
      const res = await webpush().sendNotification(
        { endpoint: sub.endpoint, keys: sub.keys },
        body,
        requestOptions(opts, topic, sub.endpoint),
      );
      return { id: sub.id, status: res.statusCode, result: 'sent', attempts: attempt };
    } catch (err) {
      const e = err as {
        statusCode?: number;
        headers?: Record<string, unknown>;
        code?: string;
        body?: unknown;
      };
      // the host resolved to an address the server must not send to: not tried again
      if (e.code === PRIVATE_RESOLUTION)
        return { id: sub.id, status: 0, result: 'refused', attempts: attempt };
      status = typeof e.statusCode === 'number' ? e.statusCode : 0;
      // no answer at all: the network's own code (ECONNREFUSED, ETIMEDOUT) is the reason
      reason = pushReason(e.body) ?? (status === 0 && typeof e.code === 'string' ? e.code : undefined);
      if (status === 404 || status === 410) return outcome('gone', attempt);
      if (status === 401 || status === 403) return outcome('refused', attempt);
      if (status === 413) return outcome('too-large', attempt);
      const transient = status === 0 || status === 408 || status === 429 || status >= 500;
      if (!transient) return outcome('rejected', attempt);
      if (attempt >= PUSH_MAX_ATTEMPTS) return outcome('failed', attempt);
      wait = retryAfterMs(e.headers);
      // asked to wait longer than we ever wait: a try before then only prolongs the throttling
      if (wait !== null && wait > PUSH_MAX_RETRY_WAIT_MS) return outcome('failed', attempt);
    }
    await sleep(wait ?? Math.min(base * 2 ** (attempt - 1), PUSH_MAX_RETRY_WAIT_MS));
  }
}
