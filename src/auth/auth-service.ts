/**
 * Accounts and access of one instance: who a request comes
 * from, passkey registration and sign-in, sessions, invites, named agent tokens. Plain methods a
 * test can call; the HTTP routes (src/auth/*-routes.ts) only parse and shape.
 *
 * Storage: small JSON files under HEALTH_HOME, not the SQLite database, written atomically with
 * mode 0600 in 0700 folders: `credentials/` (webauthn.json, invites.json, agent-tokens.json) and
 * `sessions/` (webauthn.json, auth-events.log). Why files: the home's layout keeps them there
 * (README.md layout), they stay out of the card database that backups and exports
 * copy ("Never exported: credentials/, sessions/"), they get their own
 * restrictive modes, and there are a handful of records, not millions. Every secret is stored as
 * its SHA-256 digest and every comparison goes through one injectable constant-time checker.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { Availability } from '../common/auth-types.js';
import { firstControl } from '../common/control-characters.js';
import { overGraphemes } from '../common/graphemes.js';
import type { Config } from '../config.js';
import { badRequest, forbidden, KlebbError, unauthorized } from '../errors.js';
import { AuthEventLog } from './auth-events.js';
import {
  DEFAULT_INVITE_DAYS,
  DEFAULT_LABEL,
  DEMO_LABEL,
  LABEL_PATTERN,
  MAX_INVITE_DAYS,
  MAX_NICKNAME_CHARS,
  MIN_INVITE_DAYS,
  SESSION_COOKIE,
} from './auth-limits.js';
import { Ceremonies, challengeOf, type RegistrationGrant } from './ceremonies.js';
import { InviteStore, inviteRefused } from './invite-store.js';
import { expectedOrigins, publicBase } from './origin.js';
import { PasskeyStore, type StoredPasskey } from './passkey-store.js';
import {
  authenticateAdmin,
  authenticate as authenticateBearerOrLocal,
  bearerOf,
  type Principal,
  refusedCredential,
} from './principal.js';
import {
  authenticationOptions,
  type RelyingParty,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
} from './relying-party.js';
import { safeEqual } from './safe-equal.js';
import { newSecret, type SecretEqual } from './secrets.js';
import { SessionStore, type StoredSession } from './session-store.js';
import { SetupCode } from './setup-code.js';
import { parseTokenRequest, TokenStore, type TokenSummary } from './token-store.js';

/** What the service needs besides the config; tests inject a clock and a spy around the checker. */
export interface AuthDeps {
  /** Current time, ms since the epoch (default Date.now). */
  now?: () => number;
  /** The constant-time comparison every secret check goes through (default safeEqual). */
  equal?: SecretEqual;
}

/** The parts of a request the service reads (a FastifyRequest has them). */
export interface AuthRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
  /**
   * The client address for logs, events and rate limits: the socket's, or the address a trusted
   * reverse proxy (KLEBB_TRUSTED_PROXIES) reports. Never used to decide who may enter.
   */
  ip?: string;
  cookies?: Record<string, string | undefined>;
}

/** A signed-in person (passkey session). */
export type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

/** One passkey as its owner sees it: no key, no counter. Times ISO 8601. */
export interface PasskeySummary {
  id: string;
  nickname: string | null;
  deviceType: StoredPasskey['deviceType'];
  backedUp: boolean;
  registeredAt: string;
  lastUsedAt: string | null;
  /** True for the passkey the current session signed in with. */
  current: boolean;
}

/** An invite as handed out: the code appears here once and nowhere else. */
export interface IssuedInvite {
  code: string;
  label: string;
  expiresAt: string;
  registerUrl: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** 410 GONE: the route is switched off in demo mode. */
export function goneInDemo(): KlebbError {
  return new KlebbError(410, 'DEMO_MODE', 'Passkeys, invites and tokens are switched off in this demo');
}

/** 403 SIGN_IN_REQUIRED: only a person signed in with a passkey may do this. */
function signInRequired(): KlebbError {
  return forbidden('Sign in with a passkey to manage passkeys and invites', 'SIGN_IN_REQUIRED');
}

/**
 * Reads an optional label from a body field.
 * @throws 400 naming `field` when it is not `[a-z0-9-]`, 1–32 characters, starting and ending
 *   with a letter or digit.
 */
export function parseLabel(value: unknown, field: string): string {
  if (value === undefined || value === null) return DEFAULT_LABEL;
  if (typeof value !== 'string' || !LABEL_PATTERN.test(value)) {
    throw badRequest(`${field} must be 1-32 lower-case letters, digits and hyphens (like "user" or "sam")`, [
      { path: field, message: 'must match [a-z0-9-], at most 32 characters' },
    ]);
  }
  return value;
}

/**
 * Reads an optional invite lifetime in days: default 3, clamped to 1–30.
 * @throws 400 naming `expiresInDays` when it is not a number.
 */
export function parseInviteDays(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_INVITE_DAYS;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw badRequest('expiresInDays must be a number of days (1 to 30)', [
      { path: 'expiresInDays', message: 'must be a number' },
    ]);
  }
  return Math.min(MAX_INVITE_DAYS, Math.max(MIN_INVITE_DAYS, Math.round(value)));
}

/**
 * A body that may be left out: undefined becomes `{}`.
 * @throws 400 when a body is present but is not a JSON object.
 */
export function optionalObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('the body must be a JSON object', [{ path: 'body', message: 'must be an object' }]);
  }
  return body as Record<string, unknown>;
}

function parseNickname(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (
    typeof value !== 'string' ||
    overGraphemes(value.trim(), MAX_NICKNAME_CHARS) ||
    firstControl(value) !== undefined
  ) {
    throw badRequest(`nickname must be text of at most ${MAX_NICKNAME_CHARS} characters`, [
      { path: 'nickname', message: `must be at most ${MAX_NICKNAME_CHARS} visible characters on one line` },
    ]);
  }
  return value.trim() || null;
}

function parseCode(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 512) {
    throw badRequest('code must be the code of an invite or setup link', [
      { path: 'code', message: 'must be a string' },
    ]);
  }
  return value;
}

/** Everything about accounts and access for one instance. */
export class AuthService {
  readonly passkeys: PasskeyStore;
  readonly sessions: SessionStore;
  readonly invites: InviteStore;
  readonly tokens: TokenStore;
  readonly ceremonies: Ceremonies;
  readonly setup: SetupCode;
  readonly events: AuthEventLog;
  readonly rp: RelyingParty;
  private readonly now: () => number;
  private readonly equal: SecretEqual;

  /** Opens the stores of `config.auth` and, on a home without passkeys, issues the setup code. */
  constructor(
    readonly config: Config,
    deps: AuthDeps = {},
  ) {
    this.now = deps.now ?? Date.now;
    this.equal = deps.equal ?? safeEqual;
    const { credentialsDir, sessionsDir } = config.auth;
    this.passkeys = new PasskeyStore(credentialsDir);
    this.sessions = new SessionStore(sessionsDir, this.now, this.equal);
    this.invites = new InviteStore(credentialsDir, this.now, this.equal);
    this.tokens = new TokenStore(credentialsDir, this.now, this.equal);
    this.ceremonies = new Ceremonies(this.now);
    this.setup = new SetupCode(this.equal);
    this.events = new AuthEventLog(sessionsDir, this.now);
    this.rp = { name: config.auth.rpName, id: config.auth.rpId };
    if (!this.passkeys.any() && !config.cloud && !config.demo) this.setup.issue();
  }

  /** True once a passkey exists (or the passkey file is unreadable: fail closed). */
  hasPasskeys(): boolean {
    return this.passkeys.any();
  }

  /**
   * The one-time first-run link (`<origin>/setup#code=<code>`), or null once a passkey exists
   * (and always with KLEBB_CLOUD or KLEBB_DEMO). The code rides in the fragment, which browsers
   * never send to the server, so it does not end up in access logs.
   */
  setupLink(headers?: IncomingHttpHeaders): string | null {
    if (this.passkeys.any()) this.setup.close();
    const code = this.setup.current();
    if (code === null) return null;
    return `${publicBase(headers, this.config.auth.origin, this.config.port)}/setup#code=${code}`;
  }

  // ---- who is asking ----

  /** The session of the request's cookie, as a principal, or null (no cookie, unknown or expired). */
  sessionOf(req: AuthRequest): SessionPrincipal | null {
    const token = req.cookies?.[SESSION_COOKIE];
    if (!token || token.length > 200) return null;
    const s = this.sessions.find(token);
    return s ? sessionPrincipal(s) : null;
  }

  /**
   * Decides who the caller of a signed-in route is:
   * - an `Authorization` header: `Bearer <AGENT_API_TOKEN>` or `Bearer <named token>`; anything
   *   else is 401, from anywhere (credentials presented must be right);
   * - else a live session cookie;
   * - else, while no passkey exists, a credential-less request from this machine (the loopback
   *   rules of principal.ts, and KLEBB_TRUST_LOOPBACK); it ends once the first passkey exists.
   * @throws 401 Unauthorized.
   */
  authenticate(req: AuthRequest): Principal {
    const header = req.headers.authorization;
    if (header !== undefined) {
      const token = bearerOf(header);
      if (
        token !== null &&
        this.config.agentApiToken !== undefined &&
        this.equal(token, this.config.agentApiToken)
      ) {
        return { kind: 'agent-token', actor: 'agent-token' };
      }
      const named = token === null ? undefined : this.tokens.use(token);
      if (named) {
        return {
          kind: 'named-token',
          actor: `token:${named.name}`,
          tokenId: named.id,
          name: named.name,
          access: named.access,
        };
      }
      throw refusedCredential(req.headers.authorization);
    }
    const session = this.sessionOf(req);
    if (session) return session;
    if (this.passkeys.any()) throw unauthorized();
    return authenticateBearerOrLocal(
      req.headers,
      req.socket.remoteAddress,
      this.config.agentApiToken,
      this.config.trustLoopback,
      this.equal,
    );
  }

  /**
   * Whether the credential `p` was made from still holds, without touching it: its session is
   * live (not signed out, ended with its passkey, or expired), its named token is not revoked,
   * and a credential-less caller from this machine is still let in (no passkey yet). For what
   * a request keeps open after its check (the live event stream).
   */
  stillHolds(p: Principal): boolean {
    switch (p.kind) {
      case 'session':
        return this.sessions.has(p.sessionId);
      case 'named-token':
        return this.tokens.list().some((t) => t.id === p.tokenId);
      case 'local':
        return !this.passkeys.any();
      default:
        return true;
    }
  }

  /** Like authenticate, but null instead of 401 (for `/auth/status`). */
  identify(req: AuthRequest): Principal | null {
    try {
      return this.authenticate(req);
    } catch {
      return null;
    }
  }

  /** The admin gate (KLEBB_ADMIN_TOKEN; 404 while unset, 401 otherwise). */
  authenticateAdmin(headers: IncomingHttpHeaders): void {
    authenticateAdmin(headers, this.config.adminToken, this.equal);
  }

  // ---- registration ----

  /**
   * Says whether a registration page can go ahead (`GET /auth/register/available`): with a
   * valid setup code (`bootstrap`) or invite (`invite`), or for a signed-in person adding a
   * device (`add-device`); else `closed` or `invalid-invite`.
   */
  availability(req: AuthRequest, rawCode: unknown): Availability {
    if (this.config.demo) return { available: false, reason: 'closed' };
    const code = parseCode(rawCode);
    if (code !== undefined) {
      if (this.setup.matches(code)) {
        return this.passkeys.any()
          ? { available: false, reason: 'closed' }
          : { available: true, reason: 'bootstrap' };
      }
      const inv = this.invites.check(code);
      if (inv.status === 'valid') return { available: true, reason: 'invite', label: inv.invite.label };
      return { available: false, reason: 'invalid-invite', why: inv.status };
    }
    const s = this.sessionOf(req);
    if (s && s.credentialId !== null) return { available: true, reason: 'add-device', label: s.label };
    return { available: false, reason: 'closed' };
  }

  /**
   * What a registration may do, from the body's `code` (setup code or invite) or else the
   * caller's session (adding a device to their own account).
   * @throws 410 in demo mode; 403 INVITE_* for a bad invite, SETUP_CLOSED when the setup code
   *   is used after a passkey exists, REGISTRATION_CLOSED with neither code nor session.
   */
  private grant(req: AuthRequest, body: { code?: unknown; label?: unknown }): RegistrationGrant {
    if (this.config.demo) throw goneInDemo();
    const code = parseCode(body.code);
    if (code !== undefined) {
      if (this.setup.matches(code)) {
        if (this.passkeys.any()) {
          this.setup.close();
          throw forbidden(
            'This setup link is spent: a passkey exists. Sign in, or ask for an invite.',
            'SETUP_CLOSED',
          );
        }
        return { via: 'setup', label: parseLabel(body.label, 'label') };
      }
      const inv = this.invites.check(code);
      if (inv.status !== 'valid') throw inviteRefused(inv.status);
      return { via: 'invite', label: inv.invite.label, inviteId: inv.invite.id };
    }
    const s = this.sessionOf(req);
    if (s && s.credentialId !== null) return { via: 'add-device', label: s.label, sessionId: s.sessionId };
    throw forbidden(
      'Registering a passkey needs an invite link, or on first start the setup link printed in the server log',
      'REGISTRATION_CLOSED',
    );
  }

  /** Starts a registration (`POST /auth/register/options`): the options for the browser. */
  async startRegistration(req: AuthRequest, body: unknown): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const b = optionalObject(body) as { code?: unknown; label?: unknown };
    let grant: RegistrationGrant;
    try {
      grant = this.grant(req, b);
    } catch (err) {
      if (err instanceof KlebbError && err.status === 403) {
        this.events.record({
          event: 'registration-refused',
          reason: err.code,
          address: req.ip ?? req.socket.remoteAddress,
        });
      }
      throw err;
    }
    const user = this.passkeys.user(grant.label);
    const userId = user?.userId ?? newSecret(16);
    const options = await registrationOptions(this.rp, grant.label, userId, user?.credentials ?? []);
    this.ceremonies.open(options.challenge, { kind: 'register', grant, userId });
    return options;
  }

  /**
   * Finishes a registration (`POST /auth/register/verify`, body `{response, nickname?}`):
   * verifies the browser's answer against its pending challenge and the accepted origins,
   * stores the passkey, spends the invite, and (for setup and invites) starts a session.
   * @returns the account, the new passkey's id, and a session cookie token unless the caller
   *   was already signed in (adding a device).
   * @throws 400 CHALLENGE_EXPIRED (unknown, spent or older than 120 s), 400
   *   VERIFICATION_FAILED, 403 when the grant no longer holds, 409 PASSKEY_EXISTS.
   */
  async finishRegistration(
    req: AuthRequest,
    body: unknown,
  ): Promise<{ label: string; credentialId: string; sessionToken: string | null }> {
    if (this.config.demo) throw goneInDemo();
    const b = (body ?? {}) as { response?: unknown; nickname?: unknown };
    const nickname = parseNickname(b.nickname);
    const challenge = challengeOf(b.response);
    const c = this.ceremonies.take(challenge, 'register');
    if (!c || challenge === undefined) throw challengeExpired();
    const { grant } = c;
    this.checkGrant(grant);
    const verified = await verifyRegistration(
      this.rp,
      b.response,
      challenge,
      expectedOrigins(req.headers, this.config.auth.origin),
    );
    // from here on no await: the grant check, the write and the invite spend happen together
    this.checkGrant(grant);
    const t = this.now();
    this.passkeys.add(grant.label, c.userId, {
      ...verified,
      nickname,
      registeredAt: iso(t),
      lastUsedAt: null,
    });
    if (grant.via === 'invite') this.invites.consume(grant.inviteId);
    if (grant.via === 'setup') {
      this.setup.close();
      // none can exist (requirePerson), but a home from an older version might hold some
      for (const t of this.tokens.list()) this.revokeToken(t.id, 'first-passkey');
    }
    this.events.record({
      event: 'passkey-registered',
      label: grant.label,
      credentialId: verified.id,
      via: grant.via,
      address: req.ip ?? req.socket.remoteAddress,
    });
    const sessionToken =
      grant.via === 'add-device' ? null : this.sessions.create(grant.label, verified.id).token;
    return { label: grant.label, credentialId: verified.id, sessionToken };
  }

  /** @throws 403 when a registration's grant no longer holds (setup spent, invite spent or expired, session ended). */
  private checkGrant(grant: RegistrationGrant): void {
    if (grant.via === 'setup' && this.passkeys.any()) {
      throw forbidden(
        'This setup link is spent: a passkey exists. Sign in, or ask for an invite.',
        'SETUP_CLOSED',
      );
    }
    if (grant.via === 'invite') this.invites.assertSpendable(grant.inviteId);
    if (grant.via === 'add-device' && grant.sessionId !== null && !this.sessions.has(grant.sessionId)) {
      throw unauthorized('Your session has ended: sign in again to add a device');
    }
  }

  // ---- sign-in ----

  /**
   * Starts a sign-in (`POST /auth/login/options`): options listing every registered passkey.
   * @throws 410 in demo mode; 400 NO_PASSKEYS when none is registered yet.
   */
  async startLogin(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    if (this.config.demo) throw goneInDemo();
    if (this.passkeys.count() === 0) {
      throw badRequest(
        'No passkey is registered yet: open the setup link printed in the server log',
        undefined,
        'NO_PASSKEYS',
      );
    }
    const options = await authenticationOptions(this.rp, this.passkeys.all());
    this.ceremonies.open(options.challenge, { kind: 'login' });
    return options;
  }

  /**
   * Finishes a sign-in (`POST /auth/login/verify`, body `{response}`): verifies the assertion,
   * records the counter and time, starts a session.
   * @returns the account and the session cookie token.
   * @throws 400 CHALLENGE_EXPIRED, 400 UNKNOWN_PASSKEY, 400 VERIFICATION_FAILED.
   */
  async finishLogin(req: AuthRequest, body: unknown): Promise<{ label: string; sessionToken: string }> {
    if (this.config.demo) throw goneInDemo();
    const response = (body as { response?: unknown } | null)?.response;
    const challenge = challengeOf(response);
    const c = this.ceremonies.take(challenge, 'login');
    if (!c || challenge === undefined) throw challengeExpired();
    const id = (response as { id?: unknown }).id;
    const found = typeof id === 'string' ? this.passkeys.find(id) : undefined;
    const address = req.ip ?? req.socket.remoteAddress;
    if (!found) {
      this.events.record({ event: 'login-failed', reason: 'unknown passkey', address });
      throw badRequest('This passkey is not registered here', undefined, 'UNKNOWN_PASSKEY');
    }
    let counter: number;
    try {
      counter = await verifyAuthentication(
        this.rp,
        response,
        challenge,
        expectedOrigins(req.headers, this.config.auth.origin),
        found.passkey,
      );
    } catch (err) {
      this.events.record({
        event: 'login-failed',
        label: found.label,
        credentialId: found.passkey.id,
        reason: 'verification failed',
        address,
      });
      throw err;
    }
    const t = this.now();
    if (!this.passkeys.touch(found.passkey.id, counter, iso(t))) {
      // another sign-in with this passkey stored a counter at or past this one meanwhile
      this.events.record({
        event: 'login-failed',
        label: found.label,
        credentialId: found.passkey.id,
        reason: 'signature counter went back',
        address,
      });
      throw badRequest(
        'This sign-in was refused: the passkey signature counter went back',
        undefined,
        'COUNTER_REPLAY',
      );
    }
    this.events.record({ event: 'login', label: found.label, credentialId: found.passkey.id, address });
    return { label: found.label, sessionToken: this.sessions.create(found.label, found.passkey.id).token };
  }

  /** Ends the request's session, if any (`POST /auth/logout`). */
  logout(req: AuthRequest): void {
    const s = this.sessionOf(req);
    if (!s) return;
    this.sessions.end(s.sessionId);
    this.events.record({ event: 'logout', label: s.label, address: req.ip ?? req.socket.remoteAddress });
  }

  /**
   * Signs in as the demo account (`POST /auth/demo-login`).
   * @throws 404 NOT_FOUND outside demo mode.
   */
  demoLogin(req: AuthRequest): string {
    if (!this.config.demo) throw new KlebbError(404, 'NOT_FOUND', 'no route POST /auth/demo-login');
    this.events.record({ event: 'demo-login', address: req.ip ?? req.socket.remoteAddress });
    return this.sessions.create(DEMO_LABEL, null).token;
  }

  // ---- self-service ----

  /** @throws 403 SIGN_IN_REQUIRED unless `p` is a passkey session; 410 in demo mode. */
  requireSession(p: Principal | null): SessionPrincipal {
    if (this.config.demo) throw goneInDemo();
    if (p?.kind !== 'session' || p.credentialId === null) throw signInRequired();
    return p;
  }

  /**
   * @throws 403 PERSON_REQUIRED unless `p` is a person signed in with a passkey: tokens do not
   *   mint or list tokens, and neither does this machine without credentials (`local`, before
   *   the first passkey): behind a reverse proxy a stranger can look local, and a token minted
   *   then would outlive the first passkey. So no named token
   *   can exist before a passkey does. 410 in demo mode.
   */
  requirePerson(p: Principal | null): Principal {
    if (this.config.demo) throw goneInDemo();
    if (p?.kind === 'session' && p.credentialId !== null) return p;
    throw forbidden(
      'Agent tokens are managed by a person: sign in with a passkey in Settings > Security',
      'PERSON_REQUIRED',
    );
  }

  /** The passkeys of the session's account (`GET /api/credentials`). */
  listPasskeys(p: SessionPrincipal): PasskeySummary[] {
    return (this.passkeys.user(p.label)?.credentials ?? []).map((c) => ({
      id: c.id,
      nickname: c.nickname,
      deviceType: c.deviceType,
      backedUp: c.backedUp,
      registeredAt: c.registeredAt,
      lastUsedAt: c.lastUsedAt,
      current: c.id === p.credentialId,
    }));
  }

  /**
   * Removes one of the session's own passkeys and ends every session that signed in with it
   * (`DELETE /api/credentials/:id`).
   * @returns how many sessions ended and whether the caller's own was one of them.
   * @throws 404 for a passkey that is not the caller's; 409 LAST_PASSKEY for their only one.
   */
  removePasskey(
    p: SessionPrincipal,
    credentialId: string,
    address?: string,
  ): { endedSessions: number; signedOut: boolean } {
    this.passkeys.remove(p.label, credentialId);
    const endedSessions = this.sessions.endForCredential(credentialId);
    this.events.record({ event: 'passkey-removed', label: p.label, credentialId, endedSessions, address });
    return { endedSessions, signedOut: credentialId === p.credentialId };
  }

  /**
   * Makes a single-use invite for account `label` (`POST /api/invites`, `POST /api/admin/invites`).
   * @param headers the request's, for the link's origin when HEALTH_ORIGIN is unset.
   */
  createInvite(label: string, days: number, createdBy: string, headers?: IncomingHttpHeaders): IssuedInvite {
    if (this.config.demo) throw goneInDemo();
    const { code, invite } = this.invites.create(label, days, createdBy);
    this.events.record({ event: 'invite-created', label, by: createdBy, expiresAt: iso(invite.expiresAt) });
    return {
      code,
      label,
      expiresAt: iso(invite.expiresAt),
      registerUrl: `${publicBase(headers, this.config.auth.origin, this.config.port)}/register#code=${encodeURIComponent(code)}`,
    };
  }

  /** The named tokens, without digests, times ISO (`GET /api/tokens`). */
  listTokens(): ReturnType<typeof tokenView>[] {
    return this.tokens.list().map(tokenView);
  }

  /**
   * Makes a named token from `{name, access}` (`POST /api/tokens`).
   * @returns the secret (shown this once) and the token's summary.
   * @throws 400 naming a bad field; 409 TOKEN_NAME_TAKEN / TOO_MANY_TOKENS.
   */
  createToken(body: unknown, by: string): { secret: string; token: ReturnType<typeof tokenView> } {
    const { name, access } = parseTokenRequest(body);
    const { secret, token } = this.tokens.create(name, access);
    this.events.record({ event: 'token-created', tokenId: token.id, name, access, by });
    return { secret, token: tokenView(token) };
  }

  /** Revokes a named token (`DELETE /api/tokens/:id`). @throws 404 for an unknown id. */
  revokeToken(id: string, by: string): ReturnType<typeof tokenView> {
    const token = this.tokens.revoke(id);
    this.events.record({ event: 'token-revoked', tokenId: id, name: token.name, by });
    return tokenView(token);
  }
}

function sessionPrincipal(s: StoredSession): SessionPrincipal {
  return { kind: 'session', actor: 'web', label: s.label, sessionId: s.id, credentialId: s.credentialId };
}

function challengeExpired(): KlebbError {
  return badRequest(
    'This sign-in attempt has expired or was already used: start again',
    undefined,
    'CHALLENGE_EXPIRED',
  );
}

/** A token summary with ISO times. */
function tokenView(t: TokenSummary) {
  return {
    id: t.id,
    name: t.name,
    access: t.access,
    hint: t.hint,
    createdAt: iso(t.createdAt),
    lastUsedAt: t.lastUsedAt === null ? null : iso(t.lastUsedAt),
  };
}
