/**
 * Named agent tokens: made in Settings > Security, each read-only or
 * read-write, shown once, kept as a SHA-256 digest in `credentials/agent-tokens.json`,
 * revocable, with a last-used time. AGENT_API_TOKEN is separate and unchanged.
 */
import path from 'node:path';
import { firstControl } from '../common/control-characters.js';
import { overGraphemes } from '../common/graphemes.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { MAX_AGENT_TOKENS, MAX_TOKEN_NAME_CHARS, TOKEN_TOUCH_EVERY_MS } from './auth-limits.js';
import { readSecretJson, writeSecretJson } from './secret-file.js';
import { hashSecret, newId, newSecret, type SecretEqual } from './secrets.js';

/** What a token may do: `read` is GET and HEAD only (every write is 403), `write` is everything. */
export type TokenAccess = 'read' | 'write';

/** One named token. Times are ms since the epoch. */
export interface StoredToken {
  id: string;
  name: string;
  access: TokenAccess;
  hash: string;
  /** The last 4 characters of the secret, to tell tokens apart in a list. */
  hint: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** A token as listed to its owner: everything but the digest. */
export type TokenSummary = Omit<StoredToken, 'hash'>;

interface TokenFile {
  version: 1;
  tokens: StoredToken[];
}

/** Every named token starts with this, so secret scanners and people can tell what it is. */
export const TOKEN_PREFIX = 'klebb_';

function isTokenFile(v: unknown): v is TokenFile {
  const list = (v as { tokens?: unknown } | null)?.tokens;
  return (
    Array.isArray(list) &&
    list.every(
      (t) =>
        t &&
        typeof t.id === 'string' &&
        typeof t.hash === 'string' &&
        (t.access === 'read' || t.access === 'write'),
    )
  );
}

/**
 * Checks a create request's body `{name, access}`.
 * @throws 400 naming the field: name missing, not a string, blank, too long or with control
 *   characters; access not `read` or `write`.
 */
export function parseTokenRequest(body: unknown): { name: string; access: TokenAccess } {
  const b = (body ?? {}) as { name?: unknown; access?: unknown };
  if (typeof b.name !== 'string' || b.name.trim() === '') {
    throw badRequest('name is required: a short name for the script or agent that will use the token', [
      { path: 'name', message: 'must be a non-empty string' },
    ]);
  }
  const name = b.name.trim();
  if (overGraphemes(name, MAX_TOKEN_NAME_CHARS) || firstControl(name) !== undefined) {
    throw badRequest(
      `name must be at most ${MAX_TOKEN_NAME_CHARS} characters, one line without control or invisible characters`,
      [{ path: 'name', message: `must be at most ${MAX_TOKEN_NAME_CHARS} visible characters on one line` }],
    );
  }
  if (b.access !== 'read' && b.access !== 'write') {
    throw badRequest('access must be "read" (read-only) or "write" (read-write)', [
      { path: 'access', message: 'must be "read" or "write"' },
    ]);
  }
  return { name, access: b.access };
}

/**
 * A token name as compared for duplicates: case-blind, and the same however its accented letters
 * were typed (a keyboard may send "é" as one code point or as "e" plus a combining accent).
 */
function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** The named tokens of one instance, in memory and written through. */
export class TokenStore {
  readonly file: string;
  private tokens: StoredToken[] = [];
  /** When each token's `lastUsedAt` was last written to disk, ms. */
  private readonly flushedAt = new Map<string, number>();

  /** Loads `<credentialsDir>/agent-tokens.json` (absent or unreadable: no named tokens). */
  constructor(
    credentialsDir: string,
    private readonly now: () => number,
    private readonly equal: SecretEqual,
  ) {
    this.file = path.join(credentialsDir, 'agent-tokens.json');
    const r = readSecretJson(this.file, isTokenFile);
    if (r.state === 'ok') this.tokens = r.value.tokens;
  }

  /** Every token without its digest, oldest first. */
  list(): TokenSummary[] {
    return this.tokens.map(({ hash: _hash, ...rest }) => rest);
  }

  /**
   * Makes a token; returns the secret (shown once, never stored) and its summary.
   * @throws 409 TOKEN_NAME_TAKEN for a name in use; 409 TOO_MANY_TOKENS past the cap.
   */
  create(name: string, access: TokenAccess): { secret: string; token: TokenSummary } {
    if (this.tokens.some((t) => nameKey(t.name) === nameKey(name))) {
      throw conflict(
        `a token named ${JSON.stringify(name)} exists already: revoke it or pick another name`,
        'TOKEN_NAME_TAKEN',
      );
    }
    if (this.tokens.length >= MAX_AGENT_TOKENS) {
      throw conflict(`at most ${MAX_AGENT_TOKENS} named tokens: revoke one first`, 'TOO_MANY_TOKENS');
    }
    const secret = `${TOKEN_PREFIX}${newSecret()}`;
    const token: StoredToken = {
      id: newId(),
      name,
      access,
      hash: hashSecret(secret),
      hint: secret.slice(-4),
      createdAt: this.now(),
      lastUsedAt: null,
    };
    this.save([...this.tokens, token]);
    const { hash: _hash, ...summary } = token;
    return { secret, token: summary };
  }

  /**
   * The token whose secret is `secret`, or undefined; compared in constant time against every
   * stored digest. Records the use (`lastUsedAt` in memory at once, on disk at most once a minute).
   */
  use(secret: string): StoredToken | undefined {
    const given = hashSecret(secret);
    let hit: StoredToken | undefined;
    for (const t of this.tokens) if (this.equal(given, t.hash) && !hit) hit = t;
    if (!hit) return undefined;
    const t = this.now();
    hit.lastUsedAt = t;
    const last = this.flushedAt.get(hit.id);
    if (last === undefined || t - last >= TOKEN_TOUCH_EVERY_MS) {
      try {
        this.save(this.tokens);
        this.flushedAt.set(hit.id, t);
      } catch {
        // bookkeeping only: a full or read-only disk never fails the request it rides on (the
        // next use tries again)
      }
    }
    return hit;
  }

  /**
   * Revokes token `id`: it stops working at once.
   * @throws 404 NOT_FOUND for an unknown id.
   */
  revoke(id: string): TokenSummary {
    const hit = this.tokens.find((t) => t.id === id);
    if (!hit) throw notFound(`no token ${id}`);
    this.save(this.tokens.filter((t) => t.id !== id));
    this.flushedAt.delete(id);
    const { hash: _hash, ...summary } = hit;
    return summary;
  }

  private save(next: StoredToken[]): void {
    writeSecretJson(this.file, { version: 1, tokens: next } satisfies TokenFile);
    this.tokens = next;
  }
}
