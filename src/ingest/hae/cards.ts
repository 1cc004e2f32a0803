/**
 * From stored samples to the rows of subscribed cards (docs/HEALTH-AUTO-EXPORT.md "dispatch", "Creating
 * an HAE-backed card replays stored samples").
 *
 * A card subscribes with `meta.ingest: {source: "hae", metric}` (a catalogue key or alias). After
 * a push, the rows of every date that got a new sample are recomputed from ALL stored samples of
 * that metric on that date (so a payload split across two posts gives the same rows as one), with
 * aggregateRows, and upserted by date into the card's data in one transaction through the card
 * data store (actor `hae`): the phone's row of that date is replaced when present, else the row
 * is inserted keeping the date order, never replacing a reading entered by hand on a card that
 * keeps several a day (phone-rows.ts). Several cards on one metric each get their own copy.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { CardContext } from '../../cards/card-context.js';
import type { Card } from '../../cards/card-registry.js';
import { isoDateSpelling } from '../../common/dates.js';
import { writePolicyOf } from '../../common/write-policy.js';
import { formatRowPath, type Segment } from '../../store/row-path.js';
import { HAE_FILL_DATES_PER_READ, HAE_FILL_SAMPLES_PER_READ } from './env.js';
import { aggregateRows, type HaeRow } from './format/aggregate.js';
import { type CatalogueEntry, resolveMetric } from './format/catalogue.js';
import { byDate } from './format/rows.js';
import { canonicalJson, type PhoneRowBook, planRows } from './phone-rows.js';
import type { HaeSampleStore } from './sample-store.js';

/** The change-log actor of every write made by ingestion. */
export const HAE_ACTOR = 'hae';

/** One card subscribed to a metric. */
export interface Subscription {
  cardId: string;
  /** `meta.ingest.metric` as written (may be an alias). */
  metric: string;
  /** Its catalogue entry (aliases resolved). */
  entry: CatalogueEntry;
}

/** What happened to one subscribed card in a push (`lastPush.subscribers`). */
export interface SubscriberResult {
  id: string;
  /** Catalogue key of the card's metric. */
  metric: string;
  /** Rows inserted or replaced (unchanged rows are not written and not counted). */
  rowsWritten: number;
  /** Why nothing could be written, when so. */
  note?: string;
  /**
   * Dates where the phone's row replaced a row it had not written (a card keeping one reading a
   * day: phone-rows.ts), for the push's warnings.
   */
  handReplaced?: string[];
  /**
   * Fields the card reads that its rows, after this push, do not carry, with the fields they do
   * carry (card-fit.ts noteMisfits); absent when everything fits.
   */
  misfits?: { reads: string; sends: string[] }[];
}

/**
 * The subscription of a card: `meta.ingest` with source `hae` and a metric the catalogue knows,
 * else undefined. Reads the manifest as served (a bad `ingest` was already dropped at load).
 */
export function subscriptionOf(card: Pick<Card, 'id' | 'manifest'>): Subscription | undefined {
  const ingest = card.manifest.meta.ingest as { source?: unknown; metric?: unknown } | undefined;
  if (ingest?.source !== 'hae' || typeof ingest.metric !== 'string') return undefined;
  const entry = resolveMetric(ingest.metric);
  return entry ? { cardId: card.id, metric: ingest.metric, entry } : undefined;
}

/** Every subscribed card, in registry order. */
export function subscriptions(ctx: Pick<CardContext, 'registry'>): Subscription[] {
  return ctx.registry
    .all()
    .map(subscriptionOf)
    .filter((s): s is Subscription => s !== undefined);
}

const DAY_MS = 86_400_000;

function shiftDate(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? date : new Date(t + days * DAY_MS).toISOString().slice(0, 10);
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function monthDays(y: number, m: number): number {
  return m === 2 && ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0) ? 29 : MONTH_DAYS[m - 1];
}

/** `n` (≥ 0) as at least `width` digits. */
function padded(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/**
 * The day after (`step` 1) or before (-1) a `YYYY-MM-DD` date: what shiftDate gives, by
 * arithmetic on the digits (a sleep fill asks it twice per date: no Date object and ISO text per
 * call). Anything but a real date of the years 1000 to 9999 goes to shiftDate.
 */
export function neighbourDay(date: string, step: 1 | -1): string {
  const y = digitsAt(date, 0, 4);
  const m = digitsAt(date, 5, 2);
  const d = digitsAt(date, 8, 2);
  if (date.length !== 10 || date[4] !== '-' || date[7] !== '-' || y < 1000 || m < 1 || m > 12)
    return shiftDate(date, step);
  const dim = monthDays(y, m);
  if (d < 1 || d > dim) return shiftDate(date, step);
  let yy = y;
  let mm = m;
  let dd = d + step;
  if (dd > dim) {
    dd = 1;
    mm++;
    if (mm > 12) {
      mm = 1;
      yy++;
    }
  } else if (dd < 1) {
    mm--;
    if (mm < 1) {
      mm = 12;
      yy--;
    }
    dd = monthDays(yy, mm);
  }
  if (yy < 1000 || yy > 9999) return shiftDate(date, step);
  return `${yy}-${padded(mm, 2)}-${padded(dd, 2)}`;
}

/** The decimal number of the `n` digits at `at`, or -1 when one of them is not a digit. */
function digitsAt(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (!(c >= 0 && c <= 9)) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** How rowsForDates reads: the sample count of every date it reads, and the groups of dates read together. */
interface FillPlan {
  counts: Map<string, number>;
  chunks: string[][];
}

function planFill(store: HaeSampleStore, entry: CatalogueEntry, dates: Iterable<string>): FillPlan {
  const sorted = [...new Set(dates)].sort();
  const counts = store.countsByDate(entry.reads, entry.kind === 'sleep' ? withNeighbours(sorted) : sorted);
  const chunks: string[][] = [];
  let current: string[] = [];
  let samples = 0;
  for (const d of sorted) {
    const n = counts.get(d) ?? 0;
    if (n === 0) continue;
    if (
      current.length &&
      (samples + n > HAE_FILL_SAMPLES_PER_READ || current.length >= HAE_FILL_DATES_PER_READ)
    ) {
      chunks.push(current);
      current = [];
      samples = 0;
    }
    current.push(d);
    samples += n;
  }
  if (current.length) chunks.push(current);
  return { counts, chunks };
}

/** The dates and the day before and after each (sleep compares overlapping nights). */
function withNeighbours(dates: readonly string[]): string[] {
  const out = new Set(dates);
  for (const d of dates) {
    out.add(neighbourDay(d, -1));
    out.add(neighbourDay(d, 1));
  }
  return [...out];
}

/** The rows of one group of dates (sleep reads the neighbouring days too). */
function rowsOfChunk(store: HaeSampleStore, entry: CatalogueEntry, chunk: string[]): HaeRow[] {
  const wanted = new Set(chunk);
  const read = entry.kind === 'sleep' ? withNeighbours(chunk) : chunk;
  return aggregateRows(entry.key, store.samplesFor(entry.reads, read), store.timeZone()).filter((row) =>
    wanted.has(row.date),
  );
}

/**
 * The rows of `entry` for `dates` (local `YYYY-MM-DD`), computed from every stored sample of the
 * metric on those dates, read a group of dates at a time (HAE_FILL_SAMPLES_PER_READ samples,
 * HAE_FILL_DATES_PER_READ dates at most), so memory stays bounded on a long minute-level history.
 * Sleep reads the neighbouring days too: nights that overlap (versions of one night from several
 * sources) must be compared even when one ends just before midnight. Rows sorted by date; a date
 * whose samples make no row is absent.
 */
export function rowsForDates(
  store: HaeSampleStore,
  entry: CatalogueEntry,
  dates: Iterable<string>,
): HaeRow[] {
  const out: HaeRow[] = [];
  for (const chunk of planFill(store, entry, dates).chunks) out.push(...rowsOfChunk(store, entry, chunk));
  return out;
}

/** Rows computed ahead of the transaction that writes them, with the sample counts they were made from. */
export interface PreparedRows {
  rows: HaeRow[];
  counts: Map<string, number>;
  /** The largest sample id stored when the rows were started (samples are only ever added while a server runs). */
  asOf?: number;
}

/**
 * rowsForDates in steps, a turn of the event loop after each group of dates, for a push so large
 * (a whole Apple Health history) that computing every row at once would hold the server for
 * seconds. The counts let fillSubscribers check, when it writes, that no sample arrived meanwhile.
 * `made`: rows made ahead for some dates, used for a date whose stored sample count is still the
 * count its row was made from; the other dates are read back.
 */
export async function prepareRows(
  store: HaeSampleStore,
  entry: CatalogueEntry,
  dates: Iterable<string>,
  made?: RowsMadeAhead,
): Promise<PreparedRows> {
  const asOf = store.lastId();
  if (!made) {
    const plan = planFill(store, entry, dates);
    const rows: HaeRow[] = [];
    for (const chunk of plan.chunks) {
      rows.push(...rowsOfChunk(store, entry, chunk));
      await yieldToLoop();
    }
    return { rows, counts: plan.counts, asOf };
  }
  const { rows, counts, todo } = splitAhead(store, entry, dates, made);
  for (const chunk of planFill(store, entry, todo).chunks) {
    rows.push(...rowsOfChunk(store, entry, chunk));
    await yieldToLoop();
  }
  return { rows: byDate(rows), counts, asOf };
}

/**
 * rowsForDates where rows were made ahead (`made`): a date whose row was made from exactly the
 * samples stored now takes that row; the other dates are read back.
 */
export function rowsWithAhead(
  store: HaeSampleStore,
  entry: CatalogueEntry,
  dates: Iterable<string>,
  made: RowsMadeAhead,
): HaeRow[] {
  if (made.covers && !made.covers(entry.key)) return rowsForDates(store, entry, dates);
  const { rows, todo } = splitAhead(store, entry, dates, made);
  for (const chunk of planFill(store, entry, todo).chunks) rows.push(...rowsOfChunk(store, entry, chunk));
  return byDate(rows);
}

/** The rows made ahead that still hold (their date's stored sample count is unchanged), and the dates to read back. */
function splitAhead(
  store: HaeSampleStore,
  entry: CatalogueEntry,
  dates: Iterable<string>,
  made: RowsMadeAhead,
): { rows: HaeRow[]; counts: Map<string, number>; todo: string[] } {
  const sorted = [...new Set(dates)].sort();
  const counts = store.countsByDate(entry.reads, entry.kind === 'sleep' ? withNeighbours(sorted) : sorted);
  const rows: HaeRow[] = [];
  const todo = sorted.filter((d) => {
    const ahead = made.get(entry.key, d);
    if (!ahead || ahead.samples !== counts.get(d)) return true;
    if (ahead.row) rows.push(ahead.row);
    return false;
  });
  return { rows, counts, todo };
}

/**
 * Rows of some dates made ahead (the Apple Health import makes them as it stores the samples):
 * `samples` is how many samples the row was made from, the stored count the date must still have.
 */
export interface RowsMadeAhead {
  get(key: string, date: string): { row: HaeRow | undefined; samples: number } | undefined;
  /** False when no row of the entry `key` is made ahead (all its dates are read back). */
  covers?(key: string): boolean;
}

/** True when every date of `prepared` still holds as many samples as when its rows were made. */
function stillCurrent(store: HaeSampleStore, entry: CatalogueEntry, prepared: PreparedRows): boolean {
  // no sample stored since (ids only grow): current without counting every date's samples again,
  // which on a whole history would hold the thread that writes the rows for a long while
  if (prepared.asOf !== undefined && store.lastId() === prepared.asOf) return true;
  const now = store.countsByDate(entry.reads, prepared.counts.keys());
  if (now.size !== prepared.counts.size) return false;
  for (const [d, n] of now) if (prepared.counts.get(d) !== n) return false;
  return true;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A row's date as `YYYY-MM-DD…`, also when a person wrote it by hand another way (`2026/04/06`). */
function dateOf(el: unknown): string | undefined {
  return isPlainObject(el) && typeof el.date === 'string' ? isoDateSpelling(el.date) : undefined;
}

/** Rows changed per write beyond which the whole array is replaced in one change set instead of row by row. */
const ROW_BY_ROW_MAX = 20;

/**
 * Upserts the phone's `rows` (each with a `date`) into the card's top-level data array in one
 * transaction, never replacing a reading entered by hand (phone-rows.ts): a row replaces the
 * phone's row of its date (unless equal, then nothing is written); a date without one gets the
 * row inserted where the date order puts it (after the day's rows; a descending array keeps its
 * order too), except on a card keeping one reading a day (`writeable.maxReadingsPerDay` 1), where
 * it replaces the day's row and the date is returned in `handReplaced`. The rows are recorded in
 * `book` as the phone's. Few changes at the end are written row by row (small change sets);
 * anything else as one whole-array replace. Emits `data-changed` once when something was written.
 * @returns rows inserted or replaced, the dates whose hand row was replaced, or a note when the
 *   card's data is not an array.
 */
export function upsertRowsByDate(
  ctx: Pick<CardContext, 'registry' | 'store' | 'emit'>,
  book: PhoneRowBook,
  cardId: string,
  rows: readonly HaeRow[],
  actor = HAE_ACTOR,
): { rowsWritten: number; handReplaced?: string[]; note?: string } {
  if (rows.length === 0) return { rowsWritten: 0 };
  const card = ctx.registry.get(cardId);
  const several = writePolicyOf(card?.manifest.meta).maxReadingsPerDay > 1;
  const result = ctx.store.transaction(() => {
    const state = ctx.store.state(cardId);
    if (state.shape === 'value')
      return { rowsWritten: 0, note: 'the card data is not a list of rows; nothing written' };
    // read once: parsed here, and as it is the change log's before image of a whole replace
    const current = state.shape === 'array' ? ctx.store.readJson(cardId) : undefined;
    const existing = current === undefined ? [] : (JSON.parse(current) as unknown[]);
    const dateCount = new Map<string, number>();
    for (const el of existing) {
      const d = dateOf(el);
      if (d !== undefined) dateCount.set(d, (dateCount.get(d) ?? 0) + 1);
    }
    const dated = existing.map(dateOf).filter((d): d is string => d !== undefined);
    const descending = dated.length > 1 && dated[0] > dated[dated.length - 1];
    const lastDate = dated.length ? (descending ? dated[0] : dated[dated.length - 1]) : undefined;

    const recorded = book.phoneRows(
      cardId,
      rows.map((r) => r.date),
    );
    const { replaced, inserted, handReplaced, record } = planRows(existing, rows, recorded, several, dateOf);
    book.recordPhoneRows(cardId, record);
    const written = replaced.length + inserted.length;
    if (written === 0) return { rowsWritten: 0 };

    const appendOnly =
      !descending &&
      inserted.every((r) => lastDate === undefined || r.date > lastDate) &&
      existing.length > 0;
    const unique = replaced.every(({ row }) => dateCount.get(row.date) === 1);
    let version: number;
    if (written <= ROW_BY_ROW_MAX && appendOnly && unique) {
      version = state.version;
      for (const { index, row } of replaced) {
        const patch: Record<string, unknown> = { ...row };
        for (const k of Object.keys(existing[index] as Record<string, unknown>))
          if (!(k in row)) patch[k] = null;
        const segs: Segment[] = [{ kind: 'filter', key: 'date', value: row.date }];
        version = ctx.store.update(cardId, segs, formatRowPath(segs), patch, actor).version;
      }
      for (const row of [...inserted].sort((a, b) => (a.date < b.date ? -1 : 1))) {
        version = ctx.store.append(cardId, [], '', row, actor).version;
      }
    } else {
      const merged = existing.slice();
      // the leading rows no replacement or insertion touches are not written again
      let unchanged = existing.length;
      for (const { index, row } of replaced) {
        merged[index] = row;
        unchanged = Math.min(unchanged, index);
      }
      for (const row of inserted) {
        const at = insertPosition(merged, row.date, descending);
        merged.splice(at, 0, row);
        unchanged = Math.min(unchanged, at);
      }
      version = ctx.store.replace(cardId, merged, actor, 'hae-upsert', unchanged, current);
    }
    return { rowsWritten: written, version, ...(handReplaced.length ? { handReplaced } : {}) };
  });
  if ('version' in result && result.version !== undefined) {
    ctx.emit({ type: 'data-changed', id: cardId, version: result.version });
  }
  return {
    rowsWritten: result.rowsWritten,
    ...('handReplaced' in result && result.handReplaced ? { handReplaced: result.handReplaced } : {}),
    ...('note' in result && result.note ? { note: result.note } : {}),
  };
}

/** Where a row of `date` goes so the dated elements stay in order (undated elements are stepped over). */
function insertPosition(arr: readonly unknown[], date: string, descending: boolean): number {
  for (let i = arr.length - 1; i >= 0; i--) {
    const d = dateOf(arr[i]);
    if (d === undefined) continue;
    if (descending ? d >= date : d <= date) return i + 1;
  }
  return firstDatedIndex(arr);
}

function firstDatedIndex(arr: readonly unknown[]): number {
  const i = arr.findIndex((el) => dateOf(el) !== undefined);
  return i === -1 ? arr.length : i;
}

/**
 * The days a push or import puts back on its cards although none of their samples is new: days
 * it offers whose samples were all stored before (the same push sent again from the phone, or the
 * same file imported again, after its change was undone: undo takes the rows off the cards, the
 * samples stay) and that the card has no row for. A day the card has a row for keeps it (a row
 * edited by hand stays); days with new samples are filled anyway. `offered` and `affected` map a
 * sample metric to dates. The card's dates are read from the rows' date index (one range of it
 * per card), so a re-sent push whose days all have their rows reads no row.
 * @returns per card id, those days (only cards that have some).
 */
export function restorableDays(
  ctx: Pick<CardContext, 'registry' | 'store'>,
  offered: ReadonlyMap<string, ReadonlySet<string>>,
  affected: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  if (offered.size === 0) return out;
  for (const sub of subscriptions(ctx)) {
    const dates = offered.get(sub.entry.reads);
    if (!dates) continue;
    const filled = affected.get(sub.entry.reads);
    const candidates = filled ? [...dates].filter((d) => !filled.has(d)) : [...dates];
    if (candidates.length === 0 || ctx.store.state(sub.cardId).shape === 'value') continue;
    candidates.sort();
    const have = ctx.store.datesBetween(sub.cardId, candidates[0], candidates[candidates.length - 1]);
    const days = new Set(candidates.filter((d) => !have.has(d)));
    if (days.size) out.set(sub.cardId, days);
  }
  return out;
}

/**
 * After a push: for every subscribed card whose metric got new samples, recompute the rows of the
 * affected dates and upsert them. `affected` maps a sample metric (catalogue `reads` key) to dates;
 * `restore` adds days per card id (restorableDays).
 * A card that fails is reported with a note; the others are still filled. `prepared` rows (by
 * card id, from prepareRows) are written as they are when no sample arrived since they were made;
 * `made`: rows made as the push's samples were stored, used where they still hold (rowsWithAhead).
 * @returns one result per subscribed card whose metric was in `present` (the push's metrics).
 */
export function fillSubscribers(
  ctx: Pick<CardContext, 'registry' | 'store' | 'emit'>,
  store: HaeSampleStore,
  affected: ReadonlyMap<string, ReadonlySet<string>>,
  present: ReadonlySet<string>,
  prepared?: ReadonlyMap<string, PreparedRows>,
  restore?: ReadonlyMap<string, ReadonlySet<string>>,
  made?: RowsMadeAhead,
): SubscriberResult[] {
  const results: SubscriberResult[] = [];
  for (const sub of subscriptions(ctx)) {
    if (!present.has(sub.entry.reads)) continue;
    const more = restore?.get(sub.cardId);
    const base = affected.get(sub.entry.reads);
    const dates = more ? new Set([...(base ?? []), ...more]) : base;
    if (!dates || dates.size === 0) {
      results.push({ id: sub.cardId, metric: sub.entry.key, rowsWritten: 0 });
      continue;
    }
    try {
      // rows made ahead cover the dates with new samples only
      const ready = more ? undefined : prepared?.get(sub.cardId);
      const rows =
        ready && stillCurrent(store, sub.entry, ready)
          ? ready.rows
          : made
            ? rowsWithAhead(store, sub.entry, dates, made)
            : rowsForDates(store, sub.entry, dates);
      const r = upsertRowsByDate(ctx, store, sub.cardId, rows);
      const left = leftDays(store, sub.entry, dates, rows);
      if (left.length) r.rowsWritten += dropPhoneRows(ctx, store, sub.cardId, left);
      results.push({ id: sub.cardId, metric: sub.entry.key, ...r });
    } catch (err) {
      results.push({
        id: sub.cardId,
        metric: sub.entry.key,
        rowsWritten: 0,
        note: `not filled: ${(err as Error).message}`,
      });
    }
  }
  return results;
}

/**
 * The dates of `dates` that no row was made for and that hold no sample of the metric any more:
 * the days a sample moved away from (a night filed on another zone's day, then on its own).
 * Checked only for the dates without a row, which are few.
 */
function leftDays(
  store: HaeSampleStore,
  entry: CatalogueEntry,
  dates: ReadonlySet<string>,
  rows: readonly HaeRow[],
): string[] {
  if (rows.length >= dates.size) return [];
  const made = new Set(rows.map((r) => r.date));
  const rowless = [...dates].filter((d) => !made.has(d));
  if (rowless.length === 0) return [];
  const counts = store.countsByDate(entry.reads, rowless);
  return rowless.filter((d) => !counts.has(d));
}

/**
 * Takes off the card the phone's rows of `dates`, days left without samples: each only when the
 * card still holds the row the phone last wrote there (recorded in `book`); a row entered or
 * edited by hand stays. Written as one change, undoable from the change log.
 * @returns how many rows were taken off.
 */
function dropPhoneRows(
  ctx: Pick<CardContext, 'store' | 'emit'>,
  book: PhoneRowBook & { forgetPhoneRowsOf(cardId: string, dates: readonly string[]): void },
  cardId: string,
  dates: readonly string[],
): number {
  const recorded = book.phoneRows(cardId, dates);
  if (recorded.size === 0) return 0;
  const result = ctx.store.transaction(() => {
    const state = ctx.store.state(cardId);
    if (state.shape !== 'array') return undefined;
    const current = ctx.store.readJson(cardId);
    if (current === undefined) return undefined;
    const existing = JSON.parse(current) as unknown[];
    const kept = existing.filter((el) => {
      const d = dateOf(el);
      return d === undefined || recorded.get(d) !== canonicalJson(el);
    });
    if (kept.length === existing.length) return undefined;
    book.forgetPhoneRowsOf(cardId, [...recorded.keys()]);
    const version = ctx.store.replace(cardId, kept, HAE_ACTOR, 'hae-upsert', 0, current);
    return { removed: existing.length - kept.length, version };
  });
  if (!result) return 0;
  ctx.emit({ type: 'data-changed', id: cardId, version: result.version });
  return result.removed;
}

/** The subscription of the card `cardId`; undefined when there is no such card or it is not subscribed. */
function subscriptionById(ctx: Pick<CardContext, 'registry'>, cardId: string): Subscription | undefined {
  const card = ctx.registry.get(cardId);
  return card && subscriptionOf(card);
}

/** The rows of `entry` from every stored sample of its metric (all its dates). */
function allStoredRows(store: HaeSampleStore, entry: CatalogueEntry): HaeRow[] {
  return rowsForDates(store, entry, store.datesOf(entry.reads));
}

/** Upserts by date the rows of `entry` from every stored sample into the card `cardId`. */
function mergeAllStored(
  ctx: Pick<CardContext, 'registry' | 'store' | 'emit'>,
  store: HaeSampleStore,
  cardId: string,
  entry: CatalogueEntry,
): SubscriberResult {
  return {
    id: cardId,
    metric: entry.key,
    ...upsertRowsByDate(ctx, store, cardId, allStoredRows(store, entry)),
  };
}

/**
 * Fills a newly created subscribed card from every stored sample of its metric (only
 * when its data is empty). No-op for a card without a subscription.
 * @returns rows written (0 when nothing is stored, the card has data, or is not subscribed).
 */
export function fillCardFromStore(
  ctx: Pick<CardContext, 'registry' | 'store' | 'emit'>,
  store: HaeSampleStore,
  cardId: string,
): SubscriberResult | undefined {
  const sub = subscriptionById(ctx, cardId);
  if (!sub) return undefined;
  if (ctx.store.state(cardId).rowCount > 0) {
    return {
      id: cardId,
      metric: sub.entry.key,
      rowsWritten: 0,
      note: 'the card already has data; not replayed',
    };
  }
  // records of a card of the same id removed before are not this card's
  store.forgetPhoneRows(cardId);
  return mergeAllStored(ctx, store, cardId, sub.entry);
}

/**
 * Merges every stored sample of the card's metric into its rows (upsert by date, as a push
 * does): for a card that gains `meta.ingest` after it was created. Rows of dates without samples
 * (kept by hand) stay.
 * @returns rows written, or undefined when the card is not subscribed.
 */
export function mergeStoredRows(
  ctx: Pick<CardContext, 'registry' | 'store' | 'emit'>,
  store: HaeSampleStore,
  cardId: string,
): SubscriberResult | undefined {
  const sub = subscriptionById(ctx, cardId);
  if (!sub) return undefined;
  return mergeAllStored(ctx, store, cardId, sub.entry);
}

/**
 * Replaces the card's rows with the rows of its (new) metric from every stored sample, in one
 * change set (actor `hae`, op `hae-refill`, so it can be undone from the change log): for a card
 * whose `meta.ingest.metric` changed, whose rows belong to the old metric. With no samples of the
 * new metric the card is left with no rows. A card whose data is not a list is left alone.
 * @returns rows written, or undefined when the card is not subscribed.
 */
export function refillCard(
  ctx: Pick<CardContext, 'registry' | 'store' | 'emit'>,
  store: HaeSampleStore,
  cardId: string,
): SubscriberResult | undefined {
  const sub = subscriptionById(ctx, cardId);
  if (!sub) return undefined;
  const rows = allStoredRows(store, sub.entry);
  const written = ctx.store.transaction(() => {
    if (ctx.store.state(cardId).shape === 'value') return undefined;
    store.forgetPhoneRows(cardId);
    store.recordPhoneRows(cardId, new Map(rows.map((r) => [r.date, canonicalJson(r)])));
    return ctx.store.replace(cardId, rows, HAE_ACTOR, 'hae-refill');
  });
  if (written === undefined) {
    return {
      id: cardId,
      metric: sub.entry.key,
      rowsWritten: 0,
      note: 'the card data is not a list of rows; nothing written',
    };
  }
  ctx.emit({ type: 'data-changed', id: cardId, version: written });
  return { id: cardId, metric: sub.entry.key, rowsWritten: rows.length };
}

/**
 * The hook a card context runs after a card is created: fills it from the stored samples when it
 * subscribes to a metric. Never throws: the card exists either way; a failure is returned as a
 * note. Undefined when the card subscribes to nothing.
 */
export function fillNewIngestCard(
  ctx: CardContext,
  store: HaeSampleStore,
  cardId: string,
): SubscriberResult | undefined {
  try {
    return fillCardFromStore(ctx, store, cardId);
  } catch (err) {
    return { id: cardId, metric: '', rowsWritten: 0, note: `not filled: ${(err as Error).message}` };
  }
}

/**
 * A create body with `meta.category` filled from the catalogue when it subscribes to a known
 * metric and has no category (docs/HEALTH-AUTO-EXPORT.md "Category auto-filled from catalogue"; only at
 * create). Returns the input itself when nothing applies, else a shallow copy.
 */
export function withIngestCategory<T>(body: T): T {
  if (!isPlainObject(body) || !isPlainObject(body.meta)) return body;
  const meta = body.meta;
  if (meta.category !== undefined || !isPlainObject(meta.ingest) || meta.ingest.source !== 'hae') return body;
  const entry = typeof meta.ingest.metric === 'string' ? resolveMetric(meta.ingest.metric) : undefined;
  if (!entry) return body;
  return { ...body, meta: { ...meta, category: entry.category } } as T;
}
