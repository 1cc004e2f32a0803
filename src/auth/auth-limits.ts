/**
 * Lifetimes and caps of accounts and access, each name carrying its unit (STYLE "Limits and
 * defaults"). Where a number comes is documented in docs/API.md, the comment says so.
 */

/** Session lifetime, ms (30 days; also the cookie's Max-Age). */
export const SESSION_LIFETIME_MS = 30 * 24 * 3600_000;
/** A session's `lastSeenAt` is written to disk at most this often, ms (not on every request). */
export const SESSION_TOUCH_EVERY_MS = 3600_000;
/** Most sessions kept; creating one more drops the oldest. */
export const MAX_SESSIONS = 1000;
/** How long a WebAuthn challenge stays valid, ms (120 s). */
export const CHALLENGE_TTL_MS = 120_000;
/** Most pending WebAuthn ceremonies held in memory; more drop the oldest. */
export const MAX_PENDING_CHALLENGES = 500;
/** Invite lifetime by default, days, and the range a caller may ask for (3; 1–30). */
export const DEFAULT_INVITE_DAYS = 3;
export const MIN_INVITE_DAYS = 1;
export const MAX_INVITE_DAYS = 30;
/** Used or expired invites are forgotten this long after they expired, ms. */
export const INVITE_KEEP_AFTER_EXPIRY_MS = 30 * 24 * 3600_000;
/** Most invites kept (live or recently dead); more drop the oldest. */
export const MAX_INVITES = 200;
/** Most named agent tokens. */
export const MAX_AGENT_TOKENS = 100;
/** A token's `lastUsedAt` is written to disk at most this often, ms (memory is always current). */
export const TOKEN_TOUCH_EVERY_MS = 60_000;
/** Longest agent token name and passkey nickname, characters (shared with the web app). */
export { MAX_NICKNAME_CHARS, MAX_TOKEN_NAME_CHARS } from '../common/limits.js';
/** Account labels (`[a-z0-9-]`, at most 32 characters); the default one. */
export const LABEL_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
export const DEFAULT_LABEL = 'user';
/** The demo account's label. */
export const DEMO_LABEL = 'demo';
/** The auth event log is rotated (one previous file kept) past this size, bytes. */
export const AUTH_EVENT_LOG_MAX_BYTES = 1024 * 1024;
/** Name of the session cookie. */
export const SESSION_COOKIE = 'klebb_session';
/** Refused credentials (wrong bearer or admin token) per client address per minute before 429. */
export const AUTH_FAILURES_PER_MIN = 60;
/** AGENT_API_TOKEN / KLEBB_ADMIN_TOKEN shorter than this, characters, draw a warning at start. */
export const MIN_TOKEN_CHARS = 16;
