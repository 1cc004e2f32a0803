/**
 * Sign-in sessions, `sessions/webauthn.json`. The cookie carries a 256-bit random token; the file
 * keeps only its SHA-256 digest, so a copy of the file cannot be replayed as a cookie. A
 * presented token is compared with every stored digest by the constant-time checker.
 */
import path from 'node:path';
import { MAX_SESSIONS, SESSION_LIFETIME_MS, SESSION_TOUCH_EVERY_MS } from './auth-limits.js';
import { readSecretJson, writeSecretJson } from './secret-file.js';
import { hashSecret, newId, newSecret, type SecretEqual } from './secrets.js';

/** One session. Times are ms since the epoch. */
export interface StoredSession {
  /** Public id (to list and end a session without knowing its token). */
  id: string;
  /** SHA-256 hex of the cookie token. */
  hash: string;
  /** The account signed in. */
  label: string;
  /** The passkey used to sign in (removing it ends the session), or null (demo sessions). */
  credentialId: string | null;
  createdAt: number;
  expiresAt: number;
  lastSeenAt: number;
}

interface SessionFile {
  version: 1;
  sessions: StoredSession[];
}

function isSessionFile(v: unknown): v is SessionFile {
  const list = (v as { sessions?: unknown } | null)?.sessions;
  return (
    Array.isArray(list) &&
    list.every(
      (s) =>
        s &&
        typeof s.id === 'string' &&
        typeof s.hash === 'string' &&
        typeof s.label === 'string' &&
        typeof s.expiresAt === 'number',
    )
  );
}

/** The sessions of one instance, in memory and written through. */
export class SessionStore {
  readonly file: string;
  private sessions: StoredSession[] = [];

  /**
   * Loads `<sessionsDir>/webauthn.json`. An unreadable file means no sessions (everyone signs in
   * again), never an open door.
   */
  constructor(
    sessionsDir: string,
    private readonly now: () => number,
    private readonly equal: SecretEqual,
  ) {
    this.file = path.join(sessionsDir, 'webauthn.json');
    const r = readSecretJson(this.file, isSessionFile);
    if (r.state === 'ok') this.sessions = r.value.sessions.filter((s) => s.expiresAt > this.now());
  }

  /** Starts a session for `label`; returns the cookie token (shown once, never stored) and the record. */
  create(label: string, credentialId: string | null): { token: string; session: StoredSession } {
    const token = newSecret();
    const t = this.now();
    const session: StoredSession = {
      id: newId(),
      hash: hashSecret(token),
      label,
      credentialId,
      createdAt: t,
      expiresAt: t + SESSION_LIFETIME_MS,
      lastSeenAt: t,
    };
    const live = this.sessions.filter((s) => s.expiresAt > t);
    this.save([...live.slice(Math.max(0, live.length - (MAX_SESSIONS - 1))), session]);
    return { token, session };
  }

  /**
   * The live session whose token is `token`, or undefined. Every stored digest is compared in
   * constant time (no early exit on a digest prefix). Writes `lastSeenAt` at most hourly.
   */
  find(token: string): StoredSession | undefined {
    const given = hashSecret(token);
    const t = this.now();
    let hit: StoredSession | undefined;
    for (const s of this.sessions) if (this.equal(given, s.hash) && !hit) hit = s;
    if (!hit || hit.expiresAt <= t) return undefined;
    if (t - hit.lastSeenAt >= SESSION_TOUCH_EVERY_MS) {
      const id = hit.id;
      try {
        this.save(this.sessions.map((s) => (s.id === id ? { ...s, lastSeenAt: t } : s)));
      } catch {
        // bookkeeping only: a full or read-only disk never fails the request it rides on (the
        // next request tries again)
        return hit;
      }
      return this.sessions.find((s) => s.id === id);
    }
    return hit;
  }

  /** True while the session with public id `id` is live. */
  has(id: string): boolean {
    const t = this.now();
    return this.sessions.some((s) => s.id === id && s.expiresAt > t);
  }

  /** Ends the session with public id `id` (no-op when gone). */
  end(id: string): void {
    if (this.sessions.some((s) => s.id === id)) this.save(this.sessions.filter((s) => s.id !== id));
  }

  /** Ends every session that signed in with passkey `credentialId`; returns how many ended. */
  endForCredential(credentialId: string): number {
    const keep = this.sessions.filter((s) => s.credentialId !== credentialId);
    const ended = this.sessions.length - keep.length;
    if (ended > 0) this.save(keep);
    return ended;
  }

  /** Live sessions of `label` (for listing). */
  forLabel(label: string): StoredSession[] {
    const t = this.now();
    return this.sessions.filter((s) => s.label === label && s.expiresAt > t);
  }

  private save(next: StoredSession[]): void {
    writeSecretJson(this.file, { version: 1, sessions: next } satisfies SessionFile);
    this.sessions = next;
  }
}
