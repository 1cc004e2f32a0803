/**
 * The web app's entry writes (docs/API.md "Entries (the web app's writes)"): add an entry, replace
 * the entry at an index, delete the entry at an index, under the card's write policy
 * (write-policy.ts). Each write is one change set in the row store (one append, one row update,
 * one row removal or one whole-block replacement, each in one transaction), so a failure leaves
 * the old state and the change log holds one record per request.
 *
 * Order of checks: the card (404 CARD_NOT_FOUND), `fromWebapp` (403 NOT_WRITEABLE), `If-Match`
 * (412), the data shape (409 NOT_A_LIST), the entry's shape (400), the index (404 NO_ENTRY), the entry
 * (422 REQUIRE_ANY / INVALID_ENTRY), the date allowance (422 DATE_NOT_ALLOWED) and, for an edit
 * that moves a row to another day, that day's room (409 DAY_FULL).
 */
import { isDeepStrictEqual } from 'node:util';
import { addDays, dayOfDateTime } from '../common/dates.js';
import { type AddEntryResult, type Entry, type WritePolicy, writePolicyOf } from '../common/write-policy.js';
import { conflict, KlebbError, notFound } from '../errors.js';
import type { Actor } from '../store/change-log.js';
import type { Segment } from '../store/row-path.js';
import { type CardContext, requireCard } from './card-context.js';
import { assertSchemaType, assertWriteable } from './card-data.js';
import { dataWriteTags } from './card-etag.js';
import type { Card } from './card-registry.js';
import { assertIfMatch, dataEtag } from './etag.js';
import { handDatesAfter } from './latest-day.js';
import {
  applyInsert,
  assertDateAllowed,
  checkEntry,
  cleanEntry,
  datePosition,
  entryDay,
  planAdd,
  replacementPatch,
  rowDay,
  rowsOfDay,
} from './write-policy.js';

/** Options of an entry write. */
export interface EntryWriteOptions {
  actor: Actor;
  /** The request's raw `If-Match` header, if any. */
  ifMatch?: string;
  /** The person's calendar day (`YYYY-MM-DD` in their time zone), for the date allowance. */
  today: string;
  /**
   * The person's IANA time zone (undefined: the server's): an entry's date written with `Z` or an
   * offset is an instant, filed under its date in this zone.
   */
  timeZone?: string;
  /** True for callers the date allowance does not bind (agents with a bearer token). */
  skipDateRule?: boolean;
  /**
   * PUT/DELETE only: the row at `:index` as the client saw it (body field `expect`). When given and
   * the stored row differs, the write is refused with 412 ENTRY_CHANGED (rows shifted or the entry
   * was changed elsewhere), so an index never writes over another entry.
   */
  expect?: unknown;
}

/** 412 ENTRY_CHANGED unless `expect` is absent or equals the stored `row` (JSON values, deep). */
function assertExpected(id: string, index: number, row: unknown, expect: unknown): void {
  if (expect === undefined || isDeepStrictEqual(row, expect)) return;
  throw new KlebbError(
    412,
    'ENTRY_CHANGED',
    'This entry changed elsewhere. Reload it to see the current entry.',
    [{ path: 'expect', message: `the entry at index ${index} of card "${id}" is not the one expected` }],
  );
}

/** The card, its policy and its rows, after the shared checks. */
interface Prepared {
  card: Card;
  policy: WritePolicy;
  /** How many rows the data array has (0 when empty). */
  rowCount: number;
  /** True when the card has never held data, or holds null: the first entry starts the list. */
  empty: boolean;
}

const notAList = (id: string, what: string) =>
  new KlebbError(
    409,
    'NOT_A_LIST',
    `card "${id}" keeps ${what}, not a list of entries; change it with the rows API`,
  );

function prepare(ctx: CardContext, id: string, opts: EntryWriteOptions): Prepared {
  const card = requireCard(ctx, id);
  assertWriteable(card);
  const st = ctx.store.state(id);
  if (opts.ifMatch !== undefined) assertIfMatch(opts.ifMatch, dataWriteTags(ctx, id));
  const policy = writePolicyOf(card.manifest.meta);
  if (st.shape === 'array') return { card, policy, rowCount: st.rowCount, empty: false };
  if (st.shape === 'none') return { card, policy, rowCount: 0, empty: true };
  const doc = ctx.store.read(id);
  if (doc === null) return { card, policy, rowCount: 0, empty: true };
  throw notAList(
    id,
    Array.isArray(doc) ? 'a list' : typeof doc === 'object' ? 'one document (an object)' : `a ${typeof doc}`,
  );
}

const indexSeg = (index: number): { segs: Segment[]; text: string } => ({
  segs: [{ kind: 'index', index }],
  text: `[index=${index}]`,
});

function noEntry(id: string, index: number, count: number): KlebbError {
  return notFound(
    count === 0
      ? `card "${id}" has no entries`
      : `card "${id}" has no entry at index ${index} (it has ${count}, from 0)`,
    'NO_ENTRY',
    { id, index },
  );
}

function finish(ctx: CardContext, id: string, version: number): string {
  ctx.emit({ type: 'data-changed', id, version });
  return dataEtag(version);
}

/**
 * Whether every dated row of the card is filed before `day`, known without reading the rows. The
 * greatest stored value is the latest written day; a row with `Z` or an offset may be filed up to
 * two days after its written day (offsets reach -12:00 and +14:00), so when the latest written
 * day is that close to `day`, the values of those days are looked at too (through the date index,
 * only for the `date` field; another field reads the rows). A date written by hand another way
 * is read by the day it names (latest-day.ts handDatesAfter).
 */
function laterThanEveryRow(ctx: CardContext, id: string, field: string, day: string, tz?: string): boolean {
  const latest = ctx.store.maxDate(id, field);
  // a date written by hand another way (2026/04/06, 6.4.2026) is not in the text order of the others
  if (handDatesAfter(ctx, id, field, latest).some((v) => (dayOfDateTime(v, tz) ?? '') >= day)) return false;
  if (latest === null) return true;
  const written = latest.slice(0, 10);
  if (written >= day) return false;
  const from = addDays(day, -2);
  if (written < from) return true;
  if (field !== 'date') return false;
  for (const v of ctx.store.datesBetween(id, from, `${addDays(day, -1)}~`)) {
    if ((dayOfDateTime(v, tz) ?? v.slice(0, 10)) >= day) return false;
  }
  return true;
}

/**
 * Adds an entry (`POST /api/manifests/:id/entries`; `raw` is the body's `entry`, see cleanEntry). A dated entry for a day without rows must be
 * allowed by the date allowance (unless `skipDateRule`); with maxReadingsPerDay 1 and a row of that
 * day present it replaces that row, else it is inserted in date order and the day's oldest rows
 * beyond the maximum are dropped. On a dated card (WritePolicy `dated`) an entry without a date gets
 * `opts.today`; on other cards it is appended with no date rule.
 * @throws 404 CARD_NOT_FOUND, 403 NOT_WRITEABLE, 412, 409 NOT_A_LIST, 400 (entry not an object), 422 REQUIRE_ANY /
 *   INVALID_ENTRY / DATE_NOT_ALLOWED, 422 WRONG_TYPE (schema.type is not array).
 */
export function addEntry(
  ctx: CardContext,
  id: string,
  raw: unknown,
  opts: EntryWriteOptions,
): AddEntryResult {
  const p = prepare(ctx, id, opts);
  const entry = cleanEntry(raw);
  // a dated card's entry without a date is the person's today's (and so under the today rule)
  if (p.policy.dated && !Object.hasOwn(entry, p.policy.dateField) && opts.today !== '')
    entry[p.policy.dateField] = opts.today;
  checkEntry(p.policy, entry);
  const day = entryDay(p.policy, entry, opts.timeZone);
  const dateRule = (hasRowOfDay: boolean) => {
    if (day !== null && !hasRowOfDay && !opts.skipDateRule) assertDateAllowed(p.policy, day, opts.today);
  };
  if (p.empty) {
    dateRule(false);
    assertSchemaType(p.card, []);
    const version = ctx.store.replace(id, [entry], opts.actor, 'entry-add');
    return { ok: true, id, index: 0, replaced: false, dropped: 0, etag: finish(ctx, id, version) };
  }
  // fast path: a day later than every dated row (or no date at all) is appended without reading the rows
  if (day === null || laterThanEveryRow(ctx, id, p.policy.dateField, day, opts.timeZone)) {
    dateRule(false);
    const r = ctx.store.append(id, [], '', entry, opts.actor);
    return { ok: true, id, index: p.rowCount, replaced: false, dropped: 0, etag: finish(ctx, id, r.version) };
  }
  // read and write in one transaction: the rows before the new entry's place are then known to be
  // the stored ones, and only the rows from there on are rewritten (not the whole card)
  const { version, ...r } = ctx.store.groupCommitTransaction(() =>
    addInOrder(ctx, id, p, entry, day, dateRule, opts),
  );
  return { ...r, etag: finish(ctx, id, version) };
}

/**
 * addEntry's case of a day not later than every row: reads the rows and puts the entry in date
 * order (over the day's row, or inserted with the day's oldest rows beyond the maximum dropped).
 * Run inside a transaction (the rows read are the rows replaced).
 */
function addInOrder(
  ctx: CardContext,
  id: string,
  p: Prepared,
  entry: Entry,
  day: string,
  dateRule: (hasRowOfDay: boolean) => void,
  opts: EntryWriteOptions,
) {
  const current = ctx.store.readJson(id) ?? '[]';
  const rows = JSON.parse(current) as unknown[];
  const plan = planAdd(rows, day, p.policy, opts.timeZone);
  dateRule(rowsOfDay(rows, day, p.policy.dateField, opts.timeZone).length > 0);
  const base = { ok: true as const, id, replaced: false, dropped: 0 };
  if (plan.kind === 'replace') {
    const { segs, text } = indexSeg(plan.index);
    const r = ctx.store.update(id, segs, text, replacementPatch(rows[plan.index], entry), opts.actor);
    return { ...base, index: plan.index, replaced: true, version: r.version };
  }
  if (plan.at === rows.length && plan.drop.length === 0) {
    const r = ctx.store.append(id, [], '', entry, opts.actor);
    return { ...base, index: plan.finalIndex, version: r.version };
  }
  // the rows before the insertion point and before the first dropped row stay as they are
  const unchanged = Math.min(plan.at, ...plan.drop);
  const version = ctx.store.replace(
    id,
    applyInsert(rows, entry, plan.at, plan.drop),
    opts.actor,
    'entry-add',
    unchanged,
    current,
  );
  return { ...base, index: plan.finalIndex, dropped: plan.drop.length, version };
}

/**
 * Replaces the whole entry at array position `index` (`PUT /api/manifests/:id/entries/:index`;
 * `raw` is the body's `entry`).
 * An entry without the date field keeps the row's date. Moving the row to another day: a day
 * without rows must pass the date allowance; a day already holding maxReadingsPerDay rows is
 * 409 DAY_FULL; the row then moves to its place in date order.
 * @returns `{ok, id, index, etag}` with the row's position after the write.
 * @throws as addEntry, plus 404 NO_ENTRY, 409 DAY_FULL and 412 ENTRY_CHANGED (`opts.expect` differs from the row).
 */
export function replaceEntry(
  ctx: CardContext,
  id: string,
  index: number,
  raw: unknown,
  opts: EntryWriteOptions,
) {
  const p = prepare(ctx, id, opts);
  const entry = cleanEntry(raw);
  if (index >= p.rowCount) throw noEntry(id, index, p.rowCount);
  const rows = ctx.store.read(id) as unknown[];
  const before = rows[index];
  assertExpected(id, index, before, opts.expect);
  const oldDay = rowDay(before, p.policy.dateField, opts.timeZone);
  const next: Entry = { ...entry };
  if (!Object.hasOwn(next, p.policy.dateField) && before !== null && typeof before === 'object') {
    const keep = (before as Record<string, unknown>)[p.policy.dateField];
    if (keep !== undefined) next[p.policy.dateField] = keep;
  }
  checkEntry(p.policy, next);
  const day = entryDay(p.policy, next, opts.timeZone);
  if (day !== null && day !== oldDay) {
    const others = rowsOfDay(rows, day, p.policy.dateField, opts.timeZone).filter((i) => i !== index);
    if (others.length === 0 && !opts.skipDateRule) assertDateAllowed(p.policy, day, opts.today);
    if (others.length >= p.policy.maxReadingsPerDay) {
      throw conflict(
        p.policy.maxReadingsPerDay === 1
          ? `There is already an entry for ${day}; change that one instead.`
          : `${day} already has ${others.length} entries, the most this card keeps for a day.`,
        'DAY_FULL',
      );
    }
    const rest = rows.filter((_, i) => i !== index);
    const at = datePosition(rest, day, p.policy.dateField, opts.timeZone);
    const version = ctx.store.replace(id, applyInsert(rest, next, at, []), opts.actor, 'entry-edit');
    return { ok: true as const, id, index: at, etag: finish(ctx, id, version) };
  }
  const { segs, text } = indexSeg(index);
  const r = ctx.store.update(id, segs, text, replacementPatch(before, next), opts.actor);
  return { ok: true as const, id, index, etag: finish(ctx, id, r.version) };
}

/**
 * Deletes the entry at array position `index` (`DELETE /api/manifests/:id/entries/:index`). No
 * date rule applies to deleting.
 * @returns `{ok, id, removed: 1, row, etag}` (`row` is the removed entry).
 * @throws 404 CARD_NOT_FOUND / NO_ENTRY, 403 NOT_WRITEABLE, 412 (stale If-Match; ENTRY_CHANGED when `expect`
 *   differs from the row), 409 NOT_A_LIST.
 */
export function deleteEntry(
  ctx: CardContext,
  id: string,
  index: number,
  opts: Omit<EntryWriteOptions, 'today'>,
) {
  const p = prepare(ctx, id, { ...opts, today: '' });
  if (index >= p.rowCount) throw noEntry(id, index, p.rowCount);
  if (opts.expect !== undefined)
    assertExpected(id, index, (ctx.store.read(id) as unknown[])[index], opts.expect);
  const { segs, text } = indexSeg(index);
  const r = ctx.store.removeRow(id, segs, text, opts.actor);
  return { ok: true as const, id, removed: 1 as const, row: r.row, etag: finish(ctx, id, r.version) };
}
