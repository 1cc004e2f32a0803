/**
 * The Health Auto Export token ("generated/rotated in Settings and stored in
 * `$HEALTH_HOME/config.json` under `hae.token`; the legacy `HEALTH_AUTO_EXPORT_TOKEN` env is
 * migrated once at boot, then ignored"; docs/API.md "The token").
 *
 * config.json is shared with other settings (invites, ...): every write re-reads the file, changes
 * only the `hae` key and replaces the file atomically with mode 0600.
 * A config.json that is not a JSON object is never overwritten (it may hold someone's invites).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { safeEqual } from '../../auth/safe-equal.js';
import { conflict } from '../../errors.js';
import { writeFileAtomic } from '../../home/atomic-write.js';

/** What `GET /api/health-auto-export/token` answers. */
export interface TokenState {
  /** The token, or null when none is set (the webhook then answers 501). */
  token: string | null;
  /** ISO time the current token was generated, or null. */
  lastRegeneratedAt: string | null;
}

/** How a webhook request's credentials compare with the stored token. */
export type TokenCheck = 'no-token' | 'ok' | 'wrong' | 'config-invalid';

interface HaeConfig {
  token?: unknown;
  lastRegeneratedAt?: unknown;
  /** Set once the legacy env token was looked at, so it is migrated at most once. */
  legacyEnvMigrated?: unknown;
}

/** A new random token: 32 bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The HAE token in one config.json. */
export class HaeTokenStore {
  private cache: { stamp: string; config: Record<string, unknown> } | undefined;
  /**
   * Why config.json could not be read the last time it was not (`cannot be read as JSON (…)`,
   * the parser's words without its quote of the file, which holds the token), for the webhook's
   * answer to a caller who is not signed in.
   */
  problem = '';

  /** @param file absolute path of config.json (`$HEALTH_HOME/config.json`). */
  constructor(readonly file: string) {}

  private stamp(): string | undefined {
    const st = fs.statSync(this.file, { bigint: true, throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeNs}` : undefined;
  }

  /**
   * The whole config.json as an object ({} when the file does not exist).
   * @throws 409 CONFIG_INVALID when the file is not a JSON object.
   */
  private readConfig(): Record<string, unknown> {
    const stamp = this.stamp();
    if (stamp === undefined) return {};
    if (this.cache?.stamp === stamp) return this.cache.config;
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch (err) {
      this.problem = `cannot be read as JSON (${withoutQuote((err as Error).message)})`;
      throw conflict(
        `${this.file} cannot be read as JSON (${(err as Error).message}); fix or remove it first`,
        'CONFIG_INVALID',
      );
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      this.problem = 'is not a JSON object';
      throw conflict(`${this.file} is not a JSON object; fix or remove it first`, 'CONFIG_INVALID');
    }
    this.cache = { stamp, config: parsed as Record<string, unknown> };
    return this.cache.config;
  }

  private hae(): HaeConfig {
    const h = this.readConfig().hae;
    return h !== null && typeof h === 'object' && !Array.isArray(h) ? (h as HaeConfig) : {};
  }

  private writeHae(next: HaeConfig): void {
    const config = { ...this.readConfig(), hae: next };
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileAtomic(this.file, `${JSON.stringify(config, null, 2)}\n`, 0o600);
    this.cache = undefined;
  }

  /** The current token and when it was made. @throws 409 CONFIG_INVALID (see readConfig). */
  read(): TokenState {
    const h = this.hae();
    const token = typeof h.token === 'string' && h.token !== '' ? h.token : null;
    return {
      token,
      lastRegeneratedAt: token && typeof h.lastRegeneratedAt === 'string' ? h.lastRegeneratedAt : null,
    };
  }

  /**
   * `POST /api/health-auto-export/token`: makes the first token.
   * @throws 409 TOKEN_EXISTS when one is already set (use regenerate).
   */
  generate(now = new Date()): TokenState {
    if (this.read().token)
      throw conflict('a Health Auto Export token already exists; regenerate it instead', 'TOKEN_EXISTS');
    return this.regenerate(now);
  }

  /** `POST .../token/regenerate`: replaces the token; the old one stops working at once. */
  regenerate(now = new Date()): TokenState {
    const state = { token: newToken(), lastRegeneratedAt: now.toISOString() };
    this.writeHae({ ...this.hae(), ...state });
    return state;
  }

  /** `DELETE .../token`: removes the token (the webhook then answers 501). */
  clear(): void {
    const { token: _t, lastRegeneratedAt: _l, ...rest } = this.hae();
    this.writeHae(rest);
  }

  /**
   * Boot: moves the legacy HEALTH_AUTO_EXPORT_TOKEN into config.json once (when no token is set
   * yet), and marks it done so the variable is ignored from then on, even after a DELETE.
   * @returns true when the token was migrated now.
   */
  migrateLegacy(legacyToken: string | undefined, now = new Date()): boolean {
    if (!legacyToken) return false;
    const h = this.hae();
    if (h.legacyEnvMigrated === true) return false;
    const take = !(typeof h.token === 'string' && h.token !== '');
    this.writeHae({
      ...h,
      ...(take ? { token: legacyToken, lastRegeneratedAt: now.toISOString() } : {}),
      legacyEnvMigrated: true,
    });
    return take;
  }

  /**
   * Compares a request's `Authorization` header with the token in constant time (safeEqual).
   * An unreadable config.json is `config-invalid` (`problem` says why): the token cannot be
   * checked, and "no token" would send the person to create one.
   */
  check(authorization: string | undefined): TokenCheck {
    let token: string | null;
    try {
      token = this.read().token;
    } catch {
      return 'config-invalid';
    }
    if (!token) return 'no-token';
    const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
    return m && safeEqual(m[1], token) ? 'ok' : 'wrong';
  }
}

/** A JSON.parse message without the part that quotes the text (from its first `"` on). */
function withoutQuote(message: string): string {
  return message.split('"')[0].replace(/[,\s]+$/, '');
}
