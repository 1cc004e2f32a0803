/**
 * Retried writes answered once, by their `Idempotency-Key` request header (docs/API.md
 * "Sending a write again"). A phone that loses its connection after the server stored an entry,
 * but before the answer arrived, sends the same request again; without a key that stores the
 * reading twice, and on a card keeping N readings a day the copy even pushes the day's oldest
 * reading out. With the same key (and the same body) the second request gets the first answer
 * (status, body and ETag, marked `Idempotent-Replayed: true`) and writes nothing.
 *
 * - Only successful answers are kept: a refused write changed nothing and may be sent again.
 * - Keys are kept per sender (the principal's actor), method and resource (the route with its
 *   decoded path parameters: `/api/manifests/w%65ight/entries` is the weight card's), in the
 *   database (`idempotent_replies`), for IDEMPOTENCY_KEEP_MS and at most IDEMPOTENCY_MAX_KEYS (the
 *   oldest go first). They outlive a restart: a server stopped after it stored the write and
 *   before the answer left (an upgrade, a crash, a reboot) is sent the write again once it is
 *   back, and that retry must not store it twice.
 * - A retry is the same write when its body and its query parameters are the same as data: the
 *   order of a JSON object's keys and of the query's parameters does not matter, since HTTP
 *   clients rebuild both on a retry and may order them differently.
 * - The same key with another body or other query parameters is 422 IDEMPOTENCY_KEY_REUSED (a
 *   client bug: one key, two different writes); a key that is not 1 to 255 visible ASCII
 *   characters is 400 naming `headers.idempotency-key`. A key may be sent quoted (`"…"`, a
 *   structured-field string).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canonicalJson } from '../common/canonical-json.js';
import { badRequest, invalid } from '../errors.js';
import { IDEMPOTENCY_KEEP_MS, IDEMPOTENCY_MAX_KEYS } from '../limits.js';
import type { Db } from '../store/database.js';

/** The request header naming a write's key. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The answer header marking a replayed answer. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** A kept answer. */
interface Kept {
  fingerprint: string;
  status: number;
  body: unknown;
  etag?: string;
  at: number;
}

/** The key of a request (undefined: no header), unquoted. @throws 400 naming the header. */
function keyOf(req: FastifyRequest): string | undefined {
  const h = req.headers[IDEMPOTENCY_HEADER];
  if (h === undefined) return undefined;
  const raw = (Array.isArray(h) ? h.join(',') : h).trim();
  const key = /^"[^"]*"$/.test(raw) ? raw.slice(1, -1) : raw;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)', [
      { path: `headers.${IDEMPOTENCY_HEADER}`, message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  return key;
}

/**
 * The resource a request writes to: its route (`/api/manifests/:id/entries`) and the decoded
 * values of the route's parameters, so spellings of one URL that differ only in percent-encoding
 * or query string name one resource.
 */
function resourceOf(req: FastifyRequest): string {
  const route = req.routeOptions.url ?? req.url.split('?')[0];
  return `${route} ${canonicalJson(req.params ?? {})}`;
}

/** One pending write with a key: `replay` holds the kept answer of an earlier send of it. */
export interface OnceWrite {
  replay?: Kept;
  /** Keeps a successful answer for later sends with the key (no-op without a key). */
  keep(status: number, body: unknown, etag?: string): void;
}

/** A kept answer as the database holds it. */
interface KeptRow {
  fingerprint: string;
  status: number;
  body: string;
  etag: string | null;
  at: number;
}

/**
 * The answers of writes sent with an `Idempotency-Key`, of one home, kept in its database so a
 * retry after a restart is still answered once.
 */
export class IdempotentReplies {
  private readonly find: ReturnType<Db['prepare']>;
  private readonly save: (id: string, kept: Kept) => void;

  /** `db`: the home's database (migration 19 made its table); `now`: ms since 1970. */
  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.find = db.prepare('SELECT fingerprint, status, body, etag, at FROM idempotent_replies WHERE id = ?');
    const put = db.prepare(
      'INSERT OR REPLACE INTO idempotent_replies (id, fingerprint, status, body, etag, at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const expire = db.prepare('DELETE FROM idempotent_replies WHERE at < ?');
    const cap = db.prepare(
      'DELETE FROM idempotent_replies WHERE id NOT IN (SELECT id FROM idempotent_replies ORDER BY at DESC LIMIT ?)',
    );
    this.save = db.transaction((id: string, k: Kept) => {
      put.run(id, k.fingerprint, k.status, JSON.stringify(k.body ?? null), k.etag ?? null, k.at);
      expire.run(k.at - IDEMPOTENCY_KEEP_MS);
      cap.run(IDEMPOTENCY_MAX_KEYS);
    });
  }

  /**
   * Looks `req` up by its key. Without a key, `replay` is undefined and `keep` does nothing.
   * @throws 400 for a malformed key, 422 IDEMPOTENCY_KEY_REUSED for a key kept with another body.
   */
  begin(req: FastifyRequest): OnceWrite {
    const key = keyOf(req);
    if (key === undefined) return { keep: () => {} };
    const id = `${req.principal?.actor ?? 'local'}\n${req.method} ${resourceOf(req)}\n${key}`;
    const fingerprint = createHash('sha256')
      .update(canonicalJson({ body: req.body ?? null, query: req.query ?? {} }))
      .digest('base64');
    const found = this.lookUp(id);
    if (found && found.fingerprint !== fingerprint) {
      throw invalid(
        'this Idempotency-Key was already used for another write; send a new key with each new write',
        [
          {
            path: `headers.${IDEMPOTENCY_HEADER}`,
            message: 'was used for a request with another body or other query parameters',
          },
        ],
        'IDEMPOTENCY_KEY_REUSED',
      );
    }
    if (found) return { replay: found, keep: () => {} };
    return {
      keep: (status, body, etag) => {
        if (status < 200 || status > 299) return;
        try {
          this.save(id, { fingerprint, status, body, etag, at: this.now() });
        } catch {
          // the write itself is stored; a key that could not be kept (a full disk) only means a
          // retry is written again, as without a key, so the person still gets the write's answer
        }
      },
    };
  }

  /** The answer kept under `id` within IDEMPOTENCY_KEEP_MS, if any. */
  private lookUp(id: string): Kept | undefined {
    const row = this.find.get(id) as KeptRow | undefined;
    if (!row || row.at < this.now() - IDEMPOTENCY_KEEP_MS) return undefined;
    return {
      fingerprint: row.fingerprint,
      status: row.status,
      body: JSON.parse(row.body),
      etag: row.etag ?? undefined,
      at: row.at,
    };
  }
}

/** Sends a kept answer again, marked as replayed. */
export function sendReplay(reply: FastifyReply, kept: Kept): FastifyReply {
  reply.status(kept.status).header(REPLAYED_HEADER, 'true');
  if (kept.etag) reply.header('ETag', kept.etag);
  return reply.send(kept.body);
}
