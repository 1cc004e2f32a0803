/**
 * `HEALTH_HOME/push-subscriptions.json` (mode 0600, written atomically): the browsers that
 * receive reminders. A row's id is the SHA-256 of its endpoint, so subscribing again from the
 * same browser replaces its keys instead of adding a second row. At most
 * MAX_PUSH_SUBSCRIPTIONS live rows (the oldest goes); a row the push service refuses (401/403)
 * is marked dead and dropped after DEAD_SUBSCRIPTION_KEEP_MS unless a heartbeat revives it; so
 * is a row the service rejects (a redirect, 400, …) PUSH_REJECTIONS_BEFORE_DEAD times in a row; a
 * row the service says is gone (404/410) is removed at once.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { instantStamp } from '../common/instants.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import { DEAD_SUBSCRIPTION_KEEP_MS, MAX_PUSH_SUBSCRIPTIONS, PUSH_REJECTIONS_BEFORE_DEAD } from '../limits.js';

/** One stored subscription. */
export interface SubscriptionRow {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  userAgent: string | null;
  nickname: string | null;
  createdAt: string;
  lastSentAt: string | null;
  lastStatus: number | null;
  dead: boolean;
  deadSince: string | null;
  /** Rejected pushes in a row since the last delivered one (absent in files from before it was kept). */
  rejections?: number;
  /** Why the row is dead: the service refused our signature (401/403) or kept rejecting pushes. */
  deadReason?: 'refused' | 'rejected' | null;
  /** What the push service said with its last answer that was not a success (`BadJwtToken`), or null. */
  lastReason?: string | null;
}

/** What one push did to a subscription, for SubscriptionStore.noteResults. */
export interface PushResultNote {
  id: string;
  status: number;
  result: 'sent' | 'failed' | 'refused' | 'rejected';
  /** The service's own words with a failed push (push-reason.ts), or null. */
  reason?: string | null;
}

/** The id of an endpoint (hex SHA-256). */
export function subscriptionId(endpoint: string): string {
  return createHash('sha256').update(endpoint).digest('hex');
}

/** The subscriptions of one home, cached in memory. */
export class SubscriptionStore {
  readonly file: string;
  private rows: SubscriptionRow[] = [];
  private readProblems: string[] = [];

  constructor(home: string, now = new Date()) {
    this.file = path.join(home, 'push-subscriptions.json');
    let text: string | undefined;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      // absent or unreadable: no subscriptions
    }
    if (text !== undefined) {
      const read = readSubscriptionsText(text, now);
      this.rows = read.rows;
      this.readProblems = read.problems;
    }
  }

  /**
   * What was wrong in the file when it was read (see readSubscriptionsText); empty when it read
   * cleanly, and from the first save on: the file then holds only what the server writes.
   */
  get problems(): readonly string[] {
    return this.readProblems;
  }

  private save(rows: SubscriptionRow[]): void {
    writeFileAtomic(this.file, `${JSON.stringify({ subscriptions: rows }, null, 2)}\n`, 0o600);
    this.rows = rows;
    this.readProblems = [];
  }

  /** Every row, dead ones included (copies). */
  all(): SubscriptionRow[] {
    return this.rows.map((r) => ({ ...r, keys: { ...r.keys } }));
  }

  /** Rows pushes go to. */
  live(): SubscriptionRow[] {
    return this.rows.filter((r) => !r.dead);
  }

  /** The row of an endpoint, if any. */
  find(endpoint: string): SubscriptionRow | undefined {
    const id = subscriptionId(endpoint);
    return this.rows.find((r) => r.id === id);
  }

  /**
   * Adds a subscription or replaces the keys of the same endpoint's row (which comes back to
   * life). `replaces`: the endpoint this one renews, whose row goes in the same write, before the
   * cap is counted, so a renewal on a full list never pushes out another device. Past the cap
   * the oldest live rows go.
   * @returns the row's id and whether it is new.
   */
  upsert(
    input: {
      endpoint: string;
      keys: { p256dh: string; auth: string };
      nickname?: string;
      userAgent?: string;
      replaces?: string;
    },
    now: Date,
  ): { id: string; created: boolean } {
    const id = subscriptionId(input.endpoint);
    const old = this.rows.find((r) => r.id === id);
    const gone = input.replaces === undefined ? undefined : subscriptionId(input.replaces);
    const row: SubscriptionRow = {
      id,
      endpoint: input.endpoint,
      keys: { p256dh: input.keys.p256dh, auth: input.keys.auth },
      userAgent: input.userAgent ?? old?.userAgent ?? null,
      nickname: input.nickname ?? old?.nickname ?? null,
      createdAt: old?.createdAt ?? now.toISOString(),
      lastSentAt: old?.lastSentAt ?? null,
      lastStatus: old?.lastStatus ?? null,
      dead: false,
      deadSince: null,
      rejections: 0,
      deadReason: null,
    };
    let rows = [...this.rows.filter((r) => r.id !== id && r.id !== gone), row];
    const live = rows.filter((r) => !r.dead);
    if (live.length > MAX_PUSH_SUBSCRIPTIONS) {
      const evict = new Set(
        [...live]
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
          .slice(0, live.length - MAX_PUSH_SUBSCRIPTIONS)
          .map((r) => r.id),
      );
      rows = rows.filter((r) => !evict.has(r.id));
    }
    this.save(rows);
    return { id, created: !old };
  }

  /** Marks an endpoint's row alive again. @returns its id, or null when unknown. */
  revive(endpoint: string): string | null {
    const id = subscriptionId(endpoint);
    const row = this.rows.find((r) => r.id === id);
    if (!row) return null;
    if (row.dead)
      this.save(
        this.rows.map((r) =>
          r.id === id ? { ...r, dead: false, deadSince: null, deadReason: null, rejections: 0 } : r,
        ),
      );
    return id;
  }

  /** Removes an endpoint's row. @returns whether there was one. */
  remove(endpoint: string): boolean {
    return this.removeId(subscriptionId(endpoint));
  }

  /** Removes a row by id. @returns whether there was one. */
  removeId(id: string): boolean {
    if (!this.rows.some((r) => r.id === id)) return false;
    this.save(this.rows.filter((r) => r.id !== id));
    return true;
  }

  /**
   * Records the outcomes of pushes (one write for the lot): the status, and `dead` for a row the
   * push service refused (401/403) or rejected PUSH_REJECTIONS_BEFORE_DEAD times in a row, which
   * stops receiving until a heartbeat revives it. A delivered push clears the count; a failure
   * that may pass (busy service, network) leaves it as it was.
   */
  noteResults(results: PushResultNote[], now: Date): void {
    if (results.length === 0) return;
    const by = new Map(results.map((r) => [r.id, r]));
    const at = now.toISOString();
    const rows = this.rows.map((row) => {
      const r = by.get(row.id);
      if (!r) return row;
      const before = row.rejections ?? 0;
      const rejections = r.result === 'sent' ? 0 : r.result === 'rejected' ? before + 1 : before;
      const reason =
        r.result === 'refused' ? 'refused' : rejections >= PUSH_REJECTIONS_BEFORE_DEAD ? 'rejected' : null;
      const dies = reason !== null && !row.dead;
      return {
        ...row,
        lastSentAt: at,
        lastStatus: r.status,
        lastReason: r.result === 'sent' ? null : (r.reason ?? null),
        rejections,
        dead: row.dead || dies,
        deadSince: dies ? at : row.deadSince,
        deadReason: dies ? reason : (row.deadReason ?? null),
      };
    });
    this.save(rows);
  }

  /** Drops rows dead for longer than DEAD_SUBSCRIPTION_KEEP_MS. @returns how many went. */
  pruneDead(now: Date): number {
    const keep = this.rows.filter(
      (r) => !r.dead || !r.deadSince || now.getTime() - Date.parse(r.deadSince) < DEAD_SUBSCRIPTION_KEEP_MS,
    );
    const n = this.rows.length - keep.length;
    if (n > 0) this.save(keep);
    return n;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isHttpsUrl(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * One stored row as the server writes it, from what the file holds: null without an https
 * endpoint and two string keys (nothing could be sent to it); any other field of a wrong kind is
 * back to its default and named in `fixed`. The id is always the endpoint's.
 */
function readRow(raw: unknown, now: Date, fixed: string[]): SubscriptionRow | null {
  if (!isRecord(raw) || !isHttpsUrl(raw.endpoint)) return null;
  const keys = raw.keys;
  if (!isRecord(keys) || typeof keys.p256dh !== 'string' || typeof keys.auth !== 'string') return null;
  const pick = <T>(key: string, ok: (v: unknown) => boolean, fallback: T): T => {
    const v = raw[key];
    if (v === undefined || ok(v)) return (v ?? fallback) as T;
    fixed.push(key);
    return fallback;
  };
  const textOrNull = (v: unknown) => v === null || typeof v === 'string';
  const instantOrNull = (v: unknown) => v === null || instantStamp(v) !== null;
  const count = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  const createdAt = instantStamp(raw.createdAt);
  if (createdAt === null) fixed.push('createdAt');
  const stamp = (v: string | null) => (v === null ? null : instantStamp(v));
  return {
    id: subscriptionId(raw.endpoint),
    endpoint: raw.endpoint,
    keys: { p256dh: keys.p256dh, auth: keys.auth },
    userAgent: pick('userAgent', textOrNull, null),
    nickname: pick('nickname', textOrNull, null),
    createdAt: createdAt ?? now.toISOString(),
    lastSentAt: stamp(pick('lastSentAt', instantOrNull, null)),
    lastStatus: pick('lastStatus', (v) => v === null || (count(v) && (v as number) < 1000), null),
    dead: pick('dead', (v) => typeof v === 'boolean', false),
    deadSince: stamp(pick('deadSince', instantOrNull, null)),
    rejections: pick('rejections', count, 0),
    deadReason: pick('deadReason', (v) => v === null || v === 'refused' || v === 'rejected', null),
    lastReason: pick('lastReason', textOrNull, null),
  };
}

/**
 * Reads the text of `push-subscriptions.json`, keeping only what the server writes: a row edited
 * by hand into something else (an endpoint that is no https URL, a `dead` of "yes") would
 * otherwise be shown as it is, or break the pages that list devices. A row without a usable
 * endpoint and keys is dropped; a wrong field is back to its default; each named in `problems`.
 */
export function readSubscriptionsText(
  text: string,
  now: Date,
): { rows: SubscriptionRow[]; problems: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { rows: [], problems: ['push-subscriptions.json is not JSON; no device is subscribed'] };
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.subscriptions)) {
    return {
      rows: [],
      problems: ['push-subscriptions.json holds no list of subscriptions; no device is subscribed'],
    };
  }
  const rows: SubscriptionRow[] = [];
  const problems: string[] = [];
  parsed.subscriptions.forEach((raw, i) => {
    const fixed: string[] = [];
    const row = readRow(raw, now, fixed);
    if (!row) {
      problems.push(`push-subscriptions.json: subscription ${i} dropped, it has no https endpoint and keys`);
    } else if (rows.some((r) => r.id === row.id)) {
      problems.push(`push-subscriptions.json: subscription ${i} dropped, its endpoint is listed before`);
    } else {
      rows.push(row);
      if (fixed.length > 0) {
        problems.push(`push-subscriptions.json: subscription ${i}: ${fixed.join(', ')} back to the default`);
      }
    }
  });
  return { rows, problems };
}
