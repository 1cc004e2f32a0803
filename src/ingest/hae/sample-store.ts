/**
 * The samples store ("stores every sample in a SQLite samples table
 * deduplicated by content"): every Health Auto Export or Apple Health sample is kept once, keyed
 * by its content hash (`Sample.dedupKey`, insert-or-ignore; the unique index is (metric, date,
 * key), so a batch's inserts touch neighbouring index pages), in arrival order (`id`), so a
 * re-sent overlapping payload adds nothing and card rows can be recomputed at any time from
 * everything ever received. Also the pushes log, the metrics seen (for discoveries) and the rows
 * the phone wrote on each card (phone-rows.ts).
 *
 * All methods are synchronous (better-sqlite3) and join the caller's transaction, if any.
 */

import type Database from 'better-sqlite3';
import { addDays } from '../../common/dates.js';
import { type Db, writeTransaction } from '../../store/database.js';
import { admitDiscoveries } from './format/discovery-cap.js';
import type { Sample, SampleSpan, SampleValue } from './format/sample.js';
import { withoutZoneAnnotations } from './format/timestamps.js';
import { RestatedSamples } from './restated-samples.js';

/** What `insert` did. */
export interface InsertResult {
  /** Samples offered. */
  offered: number;
  /** Samples that were new (the rest were already stored). */
  inserted: number;
  /** Per metric, the local dates (`YYYY-MM-DD`) that received at least one new sample. */
  affected: Map<string, Set<string>>;
}

/** What a memoised block read: enough to account for it again without extracting it. */
export interface BlockMemo {
  /** Samples the block gave. */
  samples: number;
  /** Points it could not read, and the warning lines about them. */
  skipped: number;
  warnings: string[];
  /** Metrics it listed (catalogue keys, or names as sent), and those with samples. */
  listed: string[];
  withSamples: string[];
  /** Warning lines beyond HAE_MAX_WARNINGS that were only counted (a whole body's memo). */
  moreWarnings?: number;
  /**
   * Per sample metric, the local dates of its samples: the days a re-send answered from the memo
   * offers (restorableDays). Absent in memos made by older code (those count as not seen).
   */
  dates?: Record<string, string[]>;
}

/** One row of the pushes log. */
export interface PushRecord {
  id: number;
  /** ISO time the push arrived. */
  receivedAt: string;
  /** `hae` (webhook) or `apple-health` (export.xml import). */
  origin: string;
  /** Body size, bytes. */
  bytes: number;
  /** Samples read from the body, and how many of them were new. */
  samples: number;
  newSamples: number;
  /** Points that could not be read. */
  skipped: number;
  /** The answer's summary (subscribers, availableUnsubscribed, warnings), or null while running. */
  summary: Record<string, unknown> | null;
}

/** One metric seen in a push (discoveries). */
export interface SeenMetric {
  /** Canonical catalogue key, or the lower-cased name as sent for a metric the catalogue does not know. */
  metric: string;
  firstSeenAt: string;
  lastSeenAt: string;
  /** ISO time it was dismissed, or null. */
  dismissedAt: string | null;
}

/**
 * One stored sample as selected by `forDates` in raw mode (an array per row: no object with
 * named columns to build per row, a fifth of the read's time on a whole history):
 * `[lower(hex(dedup_key)), date, at, span, source, vals]`.
 */
type SampleRow = [string, string, string, SampleSpan, string | null, string];

/** Columns bound per sample by the insert statements (see insertStatement). */
const INSERT_COLUMNS = 8;

/**
 * Samples written by one INSERT statement at most: one statement of many rows costs one call into
 * SQLite instead of one per sample (its rows are inserted in order, so ids keep arrival order).
 * A power of two: a remainder is written by the statements of its binary digits (32, 16, ... 1
 * rows), so at most log2 + 1 statements are ever prepared.
 */
const INSERT_ROWS_MAX = 64;

function toSample(metric: string, r: SampleRow): Sample {
  return {
    metric,
    date: r[1],
    at: r[2],
    values: JSON.parse(r[5]) as Record<string, SampleValue>,
    source: r[4],
    span: r[3],
    dedupKey: r[0],
  };
}

function addDate(affected: Map<string, Set<string>>, metric: string, date: string): void {
  let dates = affected.get(metric);
  if (!dates) {
    dates = new Set();
    affected.set(metric, dates);
  }
  dates.add(date);
}

/** The samples, pushes and metrics-seen tables of one instance (migration 3). */
export class HaeSampleStore {
  private readonly q;
  /** The rows pushes restated and the parts they split off them, for undo (restated-samples.ts). */
  readonly restated: RestatedSamples;
  /** Insert statements by their number of rows (insertStatement), and their reused bind arrays. */
  private readonly inserts = new Map<number, Database.Statement>();
  private readonly params = new Map<number, unknown[]>();

  /**
   * `timeZone`: the person's IANA zone (undefined: the server's), whose clock dates instants
   * written in UTC (format/instant-zone.ts) when samples are read and rows are made.
   */
  constructor(
    private readonly db: Db,
    readonly timeZone: () => string | undefined = () => undefined,
  ) {
    this.restated = new RestatedSamples(db);
    this.q = {
      addedRows: db.prepare('SELECT metric, date FROM hae_samples WHERE id BETWEEN ? AND ?').raw(true),
      forDates: db
        .prepare(
          `SELECT lower(hex(dedup_key)), date, at, span, source, vals FROM hae_samples
           WHERE metric = ? AND date IN (SELECT value FROM json_each(?)) ORDER BY id`,
        )
        .raw(true),
      dates: db.prepare('SELECT DISTINCT date FROM hae_samples WHERE metric = ? ORDER BY date').pluck(),
      dropOtherDays: db
        .prepare(
          `DELETE FROM hae_samples
           WHERE metric = ? AND date IN (?, ?, ?, ?, ?) AND source IS ? AND span = ? AND at <> ?
             AND (at = ? OR substr(at, 1, ?) = ?)
           RETURNING date`,
        )
        .pluck(),
      dropWritten: db.prepare(
        'DELETE FROM hae_samples WHERE metric = ? AND date = ? AND at = ? AND source IS ? AND span = ?',
      ),
      storedOnDate: db
        .prepare('SELECT 1 FROM hae_samples WHERE metric = ? AND date = ? AND dedup_key = unhex(?) LIMIT 1')
        .pluck(),
      storedVals: db
        .prepare('SELECT vals FROM hae_samples WHERE metric = ? AND date = ? AND dedup_key = unhex(?)')
        .pluck(),
      restate: db.prepare(
        'UPDATE hae_samples SET vals = ? WHERE metric = ? AND date = ? AND dedup_key = unhex(?) AND vals <> ?',
      ),
      storedNextDoor: db
        .prepare(
          'SELECT 1 FROM hae_samples WHERE metric = ? AND date IN (?, ?) AND dedup_key = unhex(?) LIMIT 1',
        )
        .pluck(),
      countsByDate: db.prepare(
        `SELECT date, count(*) AS n FROM hae_samples
         WHERE metric = ? AND date IN (SELECT value FROM json_each(?)) GROUP BY date`,
      ),
      count: db.prepare('SELECT count(*) FROM hae_samples').pluck(),
      lastId: db.prepare('SELECT coalesce(max(id), 0) FROM hae_samples').pluck(),
      countMetric: db.prepare('SELECT count(*) FROM hae_samples WHERE metric = ?').pluck(),
      newPush: db.prepare('INSERT INTO hae_pushes (received_at, origin, bytes) VALUES (?,?,?)'),
      finishPush: db.prepare(
        'UPDATE hae_pushes SET bytes = ?, samples = ?, new_samples = ?, skipped = ?, summary = ? WHERE id = ?',
      ),
      dropSamples: db.prepare('DELETE FROM hae_samples WHERE id > ? AND push_id = ?'),
      dropPush: db.prepare('DELETE FROM hae_pushes WHERE id = ?'),
      unfinished: db.prepare('SELECT id FROM hae_pushes WHERE summary IS NULL ORDER BY id').pluck(),
      pushAfter: db.prepare('SELECT 1 FROM hae_pushes WHERE id > ? LIMIT 1').pluck(),
      listPushMetrics: db.prepare(
        `INSERT OR IGNORE INTO hae_recompute (metric)
         SELECT DISTINCT metric FROM hae_samples WHERE id > ? AND push_id = ?`,
      ),
      memoClear: db.prepare('DELETE FROM hae_block_memo'),
      // a push that restated older samples stays while History can still undo its change set:
      // its notes (restated-samples.ts) are what that undo puts the samples back from
      prunePushes: db.prepare(
        `DELETE FROM hae_pushes WHERE id <= (SELECT max(id) FROM hae_pushes) - ?
         AND NOT (EXISTS (SELECT 1 FROM hae_restated WHERE push_id = hae_pushes.id)
                  AND EXISTS (SELECT 1 FROM change_sets WHERE id = hae_pushes.change_set))`,
      ),
      lastPush: db.prepare(
        `SELECT id, received_at, origin, bytes, samples, new_samples, skipped, summary FROM hae_pushes
         WHERE origin = ? AND summary IS NOT NULL ORDER BY id DESC LIMIT 1`,
      ),
      lastReadPush: db.prepare(
        `SELECT id, received_at, origin, bytes, samples, new_samples, skipped, summary FROM hae_pushes
         WHERE origin = ? AND summary IS NOT NULL AND samples > 0 ORDER BY id DESC LIMIT 1`,
      ),
      seen: db.prepare(
        `INSERT INTO hae_metrics_seen (metric, first_seen_at, last_seen_at) VALUES (?,?,?)
         ON CONFLICT (metric) DO UPDATE SET last_seen_at = excluded.last_seen_at`,
      ),
      allSeen: db.prepare(
        'SELECT metric, first_seen_at, last_seen_at, dismissed_at FROM hae_metrics_seen ORDER BY first_seen_at, metric',
      ),
      dismiss: db.prepare('UPDATE hae_metrics_seen SET dismissed_at = ? WHERE metric = ?'),
      memoGet: db.prepare('SELECT summary FROM hae_block_memo WHERE hash = ?').pluck(),
      memoPut: db.prepare(
        'INSERT INTO hae_block_memo (hash, seen_at, summary) VALUES (?,?,?) ON CONFLICT (hash) DO UPDATE SET seen_at = excluded.seen_at, summary = excluded.summary',
      ),
      memoTouch: db.prepare('UPDATE hae_block_memo SET seen_at = ? WHERE hash = ?'),
      memoPrune: db.prepare('DELETE FROM hae_block_memo WHERE seen_at < ?'),
      pending: db.prepare('SELECT metric FROM hae_recompute ORDER BY metric').pluck(),
      phoneRows: db
        .prepare(
          `SELECT date, body FROM hae_card_rows
           WHERE card_id = ? AND date IN (SELECT value FROM json_each(?))`,
        )
        .raw(true),
      recordPhoneRow: db.prepare(
        `INSERT INTO hae_card_rows (card_id, date, body) VALUES (?,?,?)
         ON CONFLICT (card_id, date) DO UPDATE SET body = excluded.body`,
      ),
      forgetPhoneRows: db.prepare('DELETE FROM hae_card_rows WHERE card_id = ?'),
      forgetPhoneRowsOf: db.prepare(
        'DELETE FROM hae_card_rows WHERE card_id = ? AND date IN (SELECT value FROM json_each(?))',
      ),
      recomputed: db.prepare('DELETE FROM hae_recompute WHERE metric = ?'),
    };
  }

  /** The database file (another thread opens its own connection to it: the Apple Health import). */
  get file(): string {
    return this.db.name;
  }

  /** Runs `fn` in one transaction (nested: a savepoint), so a whole push commits (and syncs) once. */
  transaction<T>(fn: () => T): T {
    return writeTransaction(this.db, fn);
  }

  /**
   * Stores `samples` (insert-or-ignore on the dedup key) as part of push `pushId`, in the given
   * order (their arrival order), in one transaction, with the memo of the block they came from
   * when given (so a memo never exists without its samples).
   * @returns how many were new and, per metric, the dates that got a new sample.
   */
  insert(
    offeredSamples: readonly Sample[],
    pushId: number,
    memo?: { hash: Buffer; at: string; summary: BlockMemo },
  ): InsertResult {
    const affected = new Map<string, Set<string>>();
    let inserted = 0;
    writeTransaction(this.db, () => {
      // samples moved to another day: a memo may vouch for a block whose samples were those
      // removed (the same block sent again must be read again), so none is kept
      if (
        this.dropFiledElsewhere(offeredSamples, affected) +
          this.dropFiledOnOtherDays(offeredSamples, affected) >
        0
      )
        this.q.memoClear.run();
      // the memo row commits with the samples it vouches for, or not at all
      if (memo) this.q.memoPut.run(memo.hash, memo.at, JSON.stringify(memo.summary));
      const samples = this.notStoredAsPart(this.notStoredRounded(this.notStoredNextDoor(offeredSamples)));
      this.restateStored(samples, affected, pushId);
      this.noteAddedParts(samples, pushId);
      let i = 0;
      while (i < samples.length) {
        let rows = INSERT_ROWS_MAX;
        while (rows > samples.length - i) rows >>= 1;
        const r = this.insertStatement(rows).run(this.bindRows(samples, i, rows, pushId));
        inserted += r.changes;
        if (r.changes === rows) {
          for (let k = i; k < i + rows; k++) addDate(affected, samples[k].metric, samples[k].date);
        } else if (r.changes > 0) {
          // some were stored before: the new ones are the rows this statement added, whose ids
          // are the `changes` ids ending at the last one (a table's next id is its largest + 1)
          const last = Number(r.lastInsertRowid);
          for (const [metric, date] of this.q.addedRows.all(last - r.changes + 1, last) as [string, string][])
            addDate(affected, metric, date);
        }
        i += rows;
      }
    });
    return { offered: offeredSamples.length, inserted, affected };
  }

  /**
   * `samples` without those dated on the person's clock (Sample.filedByZone) that are stored
   * already on the day before or after: the same instant filed while another zone was set, or by
   * older code on its UTC date, stays where it was instead of being counted on two days.
   */
  private notStoredNextDoor(samples: readonly Sample[]): readonly Sample[] {
    if (!samples.some((s) => s.filedByZone)) return samples;
    return samples.filter(
      (s) =>
        !s.filedByZone ||
        this.q.storedNextDoor.get(s.metric, addDays(s.date, -1), addDays(s.date, 1), s.dedupKey) ===
          undefined,
    );
  }

  /**
   * Removes what an import made before zones named with a stamp were read stored for the samples
   * that zone moves to another date (Sample.movedFrom): the sample of the same metric, source and
   * span stamped the same, on the date its stamp has as written. It was this record read on the
   * export's clock (its times of day, and so its key, differ: a night's bed time, a workout's start),
   * so it would be counted on both days. The date left counts as affected, to be recomputed.
   * @returns how many samples were removed.
   */
  private dropFiledElsewhere(samples: readonly Sample[], affected: Map<string, Set<string>>): number {
    let dropped = 0;
    for (const s of samples) {
      if (s.movedFrom === undefined) continue;
      const written = withoutZoneAnnotations(s.at);
      const n = this.q.dropWritten.run(s.metric, s.movedFrom, written, s.source, s.span).changes;
      if (n > 0) addDate(affected, s.metric, s.movedFrom);
      dropped += n;
    }
    return dropped;
  }

  /**
   * Removes what a push that named another zone for a sample (Sample.zoneNamed) stored for it: the
   * sample of the same metric, source and span stamped the same as written, with another zone
   * or none (`2024-06-10 12:30:00 -0400 [Asia/Tokyo]` before, `[Asia/Kolkata]` now), up to two
   * days before or after, where the other zone's clock put it. The sample is then stored as sent
   * now, moved rather than counted on two days (or with two clocks on one); the days it left
   * count as affected, to be recomputed. The same stamp sent again as it was removes nothing.
   * @returns how many samples were removed.
   */
  private dropFiledOnOtherDays(samples: readonly Sample[], affected: Map<string, Set<string>>): number {
    let count = 0;
    for (const s of samples) {
      if (s.zoneNamed !== true) continue;
      const written = withoutZoneAnnotations(s.at);
      const days = [-2, -1, 0, 1, 2].map((n) => (n === 0 ? s.date : addDays(s.date, n)));
      const dropped = this.q.dropOtherDays.all(
        s.metric,
        ...days,
        s.source,
        s.span,
        s.at,
        written,
        written.length + 2,
        `${written} [`,
      ) as string[];
      for (const date of dropped) addDate(affected, s.metric, date);
      count += dropped.length;
    }
    return count;
  }

  /**
   * `samples` without those stored already under the key of their rounded values
   * (Sample.roundedKey): a home keyed such a sample so when its source was put in one order.
   */
  private notStoredRounded(samples: readonly Sample[]): readonly Sample[] {
    if (!samples.some((s) => s.roundedKey !== undefined)) return samples;
    return samples.filter(
      (s) =>
        s.roundedKey === undefined || this.q.storedOnDate.get(s.metric, s.date, s.roundedKey) === undefined,
    );
  }

  /**
   * `samples` without those stored already under their part-of-day key (Sample.partKey): the
   * same measurement an automation grouping within the day stored, keyed with its mark by older
   * code, or a midnight point stored so marked, is kept once whatever header comes with it.
   */
  private notStoredAsPart(samples: readonly Sample[]): readonly Sample[] {
    if (!samples.some((s) => s.partKey !== undefined)) return samples;
    return samples.filter(
      (s) => s.partKey === undefined || this.q.storedOnDate.get(s.metric, s.date, s.partKey) === undefined,
    );
  }

  /**
   * Gives the stored row of each sample that restates it (Sample.restates) the sample's values,
   * when they differ: a midnight point a grouping within the day marks `partOfDay`, stored
   * before without the mark (sent with no header, or Days); the part before midnight of an Apple
   * Health record stored whole by an import before records were split. The insert that follows
   * ignores such a sample as stored. The dates changed count as affected. The old values are
   * noted with push `pushId`, so undoing it puts them back (restated-samples.ts).
   */
  private restateStored(
    samples: readonly Sample[],
    affected: Map<string, Set<string>>,
    pushId: number,
  ): void {
    for (const s of samples) {
      if (s.restates !== true) continue;
      const vals = JSON.stringify(s.values);
      const old = this.q.storedVals.get(s.metric, s.date, s.dedupKey) as string | undefined;
      if (old === undefined || old === vals) continue;
      if (this.q.restate.run(vals, s.metric, s.date, s.dedupKey, vals).changes > 0) {
        this.restated.restated(pushId, s, old, vals);
        addDate(affected, s.metric, s.date);
      }
    }
  }

  /**
   * Notes with push `pushId` each part after midnight of a record (Sample.splitOf) not stored
   * yet, which the insert that follows adds: undoing the push takes it away again when the part
   * before midnight restated a row an older import stored whole (restated-samples.ts).
   */
  private noteAddedParts(samples: readonly Sample[], pushId: number): void {
    for (const s of samples) {
      if (s.splitOf !== undefined && this.q.storedOnDate.get(s.metric, s.date, s.dedupKey) === undefined)
        this.restated.addedPart(pushId, s);
    }
  }

  /** The bind array of `rows` samples from `from` (one reused array per statement size). */
  private bindRows(samples: readonly Sample[], from: number, rows: number, pushId: number): unknown[] {
    let params = this.params.get(rows);
    if (!params) {
      params = new Array(rows * INSERT_COLUMNS);
      this.params.set(rows, params);
    }
    for (let r = 0, k = 0; r < rows; r++) {
      const s = samples[from + r];
      // hex → bytes in SQLite (unhex), not a Buffer per sample
      params[k++] = s.dedupKey;
      params[k++] = s.metric;
      params[k++] = s.date;
      params[k++] = s.at;
      params[k++] = s.span;
      params[k++] = s.source;
      params[k++] = JSON.stringify(s.values);
      params[k++] = pushId;
    }
    return params;
  }

  /**
   * The insert-or-ignore of `rows` samples in one statement (prepared once per size).
   */
  private insertStatement(rows: number): Database.Statement {
    let stmt = this.inserts.get(rows);
    if (!stmt) {
      stmt = this.db.prepare(
        `INSERT INTO hae_samples (dedup_key, metric, date, at, span, source, vals, push_id)
           VALUES ${new Array(rows).fill('(unhex(?),?,?,?,?,?,?,?)').join(',')}
           ON CONFLICT (metric, date, dedup_key) DO NOTHING`,
      );
      this.inserts.set(rows, stmt);
    }
    return stmt;
  }

  /**
   * The memo of a block whose samples are all stored (see migration 3), touched as seen at `at`;
   * undefined when the block is new.
   */
  memo(hash: Buffer, at: string): BlockMemo | undefined {
    const text = this.q.memoGet.get(hash) as string | undefined;
    if (text === undefined) return undefined;
    this.q.memoTouch.run(at, hash);
    return JSON.parse(text) as BlockMemo;
  }

  /** Records (or touches) the memo `hash` of a part whose samples this transaction stores. */
  putMemo(hash: Buffer, at: string, summary: BlockMemo): void {
    writeTransaction(this.db, () => this.q.memoPut.run(hash, at, JSON.stringify(summary)));
  }

  /** Forgets block memos not seen since `before` (ISO time); the samples stay. */
  pruneMemos(before: string): number {
    return this.q.memoPrune.run(before).changes;
  }

  /**
   * Every stored sample of `metric` (the sample metric, i.e. a catalogue entry's `reads`) whose
   * local date is one of `dates`, in arrival order (what aggregateRows needs: a later version of
   * a point wins over an earlier, partial one).
   */
  samplesFor(metric: string, dates: Iterable<string>): Sample[] {
    const list = [...dates];
    if (list.length === 0) return [];
    const rows = this.q.forDates.all(metric, JSON.stringify(list)) as SampleRow[];
    const out: Sample[] = new Array(rows.length);
    // every row's metric is the one asked for
    for (let i = 0; i < rows.length; i++) out[i] = toSample(metric, rows[i]);
    return out;
  }

  /** How many samples of `metric` each of `dates` holds (dates without samples are absent). */
  countsByDate(metric: string, dates: Iterable<string>): Map<string, number> {
    const rows = this.q.countsByDate.all(metric, JSON.stringify([...dates])) as { date: string; n: number }[];
    return new Map(rows.map((r) => [r.date, r.n]));
  }

  /** The distinct local dates `YYYY-MM-DD` that hold samples of `metric`, ascending. */
  datesOf(metric: string): string[] {
    return this.q.dates.all(metric) as string[];
  }

  /** The largest sample id (0 when none): it grows with every sample stored and never goes back while the store is open. */
  lastId(): number {
    return this.q.lastId.get() as number;
  }

  /** How many samples are stored (of one metric when given). */
  count(metric?: string): number {
    return (metric === undefined ? this.q.count.get() : this.q.countMetric.get(metric)) as number;
  }

  /** The phone's recorded rows of `dates` on the card (phone-rows.ts): date → canonical JSON. */
  phoneRows(cardId: string, dates: readonly string[]): Map<string, string> {
    if (dates.length === 0) return new Map();
    const out = new Map<string, string>();
    for (const [date, body] of this.q.phoneRows.all(cardId, JSON.stringify(dates)) as [string, string][])
      out.set(date, body);
    return out;
  }

  /** Records the phone's rows of some dates on the card (phone-rows.ts): date → canonical JSON. */
  recordPhoneRows(cardId: string, rows: ReadonlyMap<string, string>): void {
    for (const [date, text] of rows) this.q.recordPhoneRow.run(cardId, date, text);
  }

  /** Forgets the card's recorded phone rows of `dates` (the rows were taken off the card). */
  forgetPhoneRowsOf(cardId: string, dates: readonly string[]): void {
    this.q.forgetPhoneRowsOf.run(cardId, JSON.stringify(dates));
  }

  /** Forgets the card's recorded phone rows (its rows are all written again, or it is new). */
  forgetPhoneRows(cardId: string): void {
    this.q.forgetPhoneRows.run(cardId);
  }

  /**
   * The sample metrics whose card rows a migration asked to recompute from the stored samples
   * (recompute.ts), sorted.
   */
  pendingRecompute(): string[] {
    return this.q.pending.all() as string[];
  }

  /** Strikes `metric` off the metrics whose card rows are to be recomputed. */
  recomputed(metric: string): void {
    this.q.recomputed.run(metric);
  }

  /**
   * Opens a push row (its counts filled by finishPush).
   * @param origin `hae` or `apple-health`; `bytes` the body size so far.
   * @returns the push id the samples are stored under.
   */
  beginPush(origin: string, receivedAt: string, bytes: number): number {
    return Number(this.q.newPush.run(receivedAt, origin, bytes).lastInsertRowid);
  }

  /**
   * Removes push `pushId` and the samples it stored (those of ids above `afterId`, the largest id
   * before its first sample), in one transaction: a push that failed part way leaves nothing.
   * Samples stored before the push (the re-sent ones) keep their own push ids and stay. The memos
   * go too when a sample was removed: one made meanwhile by another push may count on it.
   * @returns the samples removed.
   */
  dropPush(pushId: number, afterId: number): number {
    return writeTransaction(this.db, () => {
      // the rows it restated get their old values back before its samples go
      this.restated.undoPush(pushId, true);
      this.restated.forget(pushId);
      const n = this.q.dropSamples.run(afterId, pushId).changes;
      this.q.dropPush.run(pushId);
      if (n > 0) this.q.memoClear.run();
      return n;
    });
  }

  /** The ids of push rows never completed (summary still empty): runs in progress, or cut short. */
  unfinishedPushes(): number[] {
    return this.q.unfinished.all() as number[];
  }

  /** Whether a push row newer than `pushId` exists (a push that began after it). */
  pushAfter(pushId: number): boolean {
    return this.q.pushAfter.get(pushId) !== undefined;
  }

  /**
   * Settles push `pushId`, which stopped before it filled its cards: its samples stay, the
   * metrics they belong to are listed for recomputing their cards' rows (recomputePending), and
   * its push row goes, in one transaction. Samples a push stored are not removed when another run
   * may have found them stored already and counted on them; and samples kept must reach the
   * cards, since the same data sent again is found stored and adds nothing new to fill.
   * `afterId`: the largest sample id before the push stored its first (0 when unknown: the whole
   * table is read).
   * @returns how many metrics were listed.
   */
  settlePush(pushId: number, afterId = 0): number {
    return writeTransaction(this.db, () => {
      const n = this.q.listPushMetrics.run(afterId, pushId).changes;
      this.q.dropPush.run(pushId);
      return n;
    });
  }

  /**
   * Completes a push row with its counts and summary, and deletes pushes beyond the newest
   * `keep` (their samples stay).
   */
  finishPush(
    id: number,
    counts: { bytes: number; samples: number; newSamples: number; skipped: number },
    summary: Record<string, unknown>,
    keep: number,
  ): void {
    this.q.finishPush.run(
      counts.bytes,
      counts.samples,
      counts.newSamples,
      counts.skipped,
      JSON.stringify(summary),
      id,
    );
    if (this.q.prunePushes.run(keep).changes > 0) this.restated.forget();
  }

  /** The newest completed push of `origin` (with `read`: the newest that read a sample), or null. */
  lastPush(origin: string, opts: { read?: boolean } = {}): PushRecord | null {
    const r = (opts.read ? this.q.lastReadPush : this.q.lastPush).get(origin) as
      | {
          id: number;
          received_at: string;
          origin: string;
          bytes: number;
          samples: number;
          new_samples: number;
          skipped: number;
          summary: string | null;
        }
      | undefined;
    if (!r) return null;
    return {
      id: r.id,
      receivedAt: r.received_at,
      origin: r.origin,
      bytes: r.bytes,
      samples: r.samples,
      newSamples: r.new_samples,
      skipped: r.skipped,
      summary: r.summary === null ? null : (JSON.parse(r.summary) as Record<string, unknown>),
    };
  }

  /**
   * Records that `metrics` arrived with samples at `at` (first time: first seen; always: last seen).
   * New names the catalogue does not know are recorded only while fewer than `maxUnknown` are
   * (hae/discovery-cap.ts). @returns the names not recorded.
   */
  markSeen(metrics: Iterable<string>, at: string, maxUnknown = Number.POSITIVE_INFINITY): string[] {
    let refused: string[] = [];
    writeTransaction(this.db, () => {
      const recorded = (this.q.allSeen.all() as { metric: string }[]).map((r) => r.metric);
      const split = admitDiscoveries(metrics, recorded, maxUnknown);
      refused = split.refused;
      for (const m of split.admit) this.q.seen.run(m, at, at);
    });
    return refused;
  }

  /** Every metric ever seen in a push, oldest first. */
  seenMetrics(): SeenMetric[] {
    return (
      this.q.allSeen.all() as {
        metric: string;
        first_seen_at: string;
        last_seen_at: string;
        dismissed_at: string | null;
      }[]
    ).map((r) => ({
      metric: r.metric,
      firstSeenAt: r.first_seen_at,
      lastSeenAt: r.last_seen_at,
      dismissedAt: r.dismissed_at,
    }));
  }

  /**
   * Sets (`at` an ISO time) or clears (`at` null) the dismissal of a seen metric.
   * @returns false when the metric was never seen.
   */
  setDismissed(metric: string, at: string | null): boolean {
    return this.q.dismiss.run(at, metric).changes > 0;
  }
}
