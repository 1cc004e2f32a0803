/**
 * The auth event log, `sessions/auth-events.log` (register and sign-in
 * successes, refused codes, unknown credentials, invite creation): one JSON object per line,
 * mode 0600, rotated to `auth-events.log.1` past 1 MB. Events name accounts, passkey ids and
 * addresses, never a secret (no token, code or cookie is ever passed in).
 */
import fs from 'node:fs';
import path from 'node:path';
import { AUTH_EVENT_LOG_MAX_BYTES } from './auth-limits.js';
import { ensureSecretDir, SECRET_FILE_MODE } from './secret-file.js';

/** What happened. */
export type AuthEventKind =
  | 'passkey-registered'
  | 'passkey-removed'
  | 'login'
  | 'login-failed'
  | 'logout'
  | 'demo-login'
  | 'registration-refused'
  | 'invite-created'
  | 'token-created'
  | 'token-revoked';

/** One event: its kind plus non-secret facts (`label`, `credentialId`, `address`, `reason`, ...). */
export type AuthEvent = { event: AuthEventKind } & Record<string, string | number | null | undefined>;

/** Appends events to the log. Failures to write are swallowed: the log must never stop a sign-in. */
export class AuthEventLog {
  readonly file: string;

  constructor(
    sessionsDir: string,
    private readonly now: () => number,
  ) {
    this.file = path.join(sessionsDir, 'auth-events.log');
  }

  /** Appends one line `{at, event, ...facts}`. */
  record(e: AuthEvent): void {
    try {
      ensureSecretDir(path.dirname(this.file));
      try {
        if (fs.statSync(this.file).size > AUTH_EVENT_LOG_MAX_BYTES)
          fs.renameSync(this.file, `${this.file}.1`);
      } catch {
        // no log yet
      }
      fs.appendFileSync(this.file, `${JSON.stringify({ at: new Date(this.now()).toISOString(), ...e })}\n`, {
        mode: SECRET_FILE_MODE,
      });
    } catch {
      // a full disk must not lock people out
    }
  }
}
