/**
 * Reading and writing a card's data: the whole block (docs/API.md `GET/POST
 * /api/manifests/:id/data`) and single rows addressed by row paths, the
 * functions behind both the REST API and the chat agent's row tools.
 *
 * Rules applied to every write here:
 * - `meta.writeable.fromWebapp` must be true, else 403 (docs/MANIFEST-SCHEMA.md `writeable`).
 * - An `If-Match` that no longer matches the data ETag is 412 and writes nothing.
 * - A card with `schema.type` set only takes data of that JSON type.
 */

import { isIsoDate, todayIn } from '../common/dates.js';
import { writePolicyOf } from '../common/write-policy.js';
import { badRequest, forbidden, preconditionFailed, RowError } from '../errors.js';
import type { WindowOptions } from '../store/card-data-store.js';
import type { Actor } from '../store/change-log.js';
import { parseRowPath } from '../store/row-path.js';
import { type CardContext, findCard, requireCard } from './card-context.js';
import { dataWriteTags } from './card-etag.js';
import type { Card } from './card-registry.js';
import { normaliseDateKeyed } from './data-normalise.js';
import { assertIfMatch, dataEtag } from './etag.js';
import { assertRowsData, assertRowValue } from './row-shape.js';
import { rowWarnings } from './row-warnings.js';
import { maySetSchedules, replacedSchedules } from './schedule-history.js';
import { assertAgentRowDate, assertRowYear, type EntryPlace, withTrimmedDate } from './write-policy.js';

/** Options of a data write. */
export interface WriteOptions {
  actor: Actor;
  /** The request's raw `If-Match` header, if any. */
  ifMatch?: string;
  /**
   * Set for writes an agent makes in the person's name (the chat's row tools): a row written at
   * the top of a dated card has its date checked against the person's today (assertAgentRowDate).
   * Without it, only the row's year is checked (assertRowYear).
   */
  personDay?: { today: string; timeZone?: string };
}

const isRowObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The date check of a row at the top of a card (`row`: the appended row, or an update's changes):
 * written in the person's name (`opts.personDay`) on a dated card, as the entry forms check it;
 * by anyone, a year within the days Klebb takes (assertRowYear).
 */
function checkRowDate(
  card: Card,
  topLevelRow: boolean,
  row: unknown,
  opts: WriteOptions,
  at: EntryPlace,
): void {
  if (!topLevelRow || !isRowObject(row)) return;
  const policy = writePolicyOf(card.manifest.meta);
  if (row[policy.dateField] === undefined || row[policy.dateField] === null) return;
  if (opts.personDay && policy.dated)
    assertAgentRowDate(policy, row, opts.personDay.today, opts.personDay.timeZone, at);
  else assertRowYear(policy, row, opts.personDay?.timeZone, at);
}

/**
 * The year check (assertRowYear) of every row of a whole data block `data` of `card`.
 * @throws 422 INVALID_ENTRY naming `data[i].<date field>`.
 */
export function assertRowYears(card: Pick<Card, 'manifest'>, data: unknown): void {
  if (!Array.isArray(data)) return;
  const policy = writePolicyOf(card.manifest.meta);
  data.forEach((row, i) => {
    if (isRowObject(row)) assertRowYear(policy, row, undefined, `data[${i}]`);
  });
}

/**
 * A whole data block as a program's write stores it: each row's date without the spaces around
 * it (withTrimmedDate). Anything but a list of rows is returned as it is.
 */
export function withTrimmedDates(card: Pick<Card, 'manifest'>, data: unknown): unknown {
  if (!Array.isArray(data)) return data;
  const policy = writePolicyOf(card.manifest.meta);
  return data.map((row) => withTrimmedDate(policy, row));
}

/** A row written at the top of `card` as a program's write stores it (withTrimmedDate). */
function trimmedAtTop<T>(card: Card, topLevelRow: boolean, row: T): T {
  return topLevelRow ? withTrimmedDate(writePolicyOf(card.manifest.meta), row) : row;
}

/** Throws 403 unless the card accepts writes (`meta.writeable.fromWebapp === true`). */
export function assertWriteable(card: Card): void {
  const w = card.manifest.meta.writeable as Record<string, unknown> | undefined;
  if (w?.fromWebapp !== true) {
    throw forbidden(`card "${card.id}" is read-only: meta.writeable.fromWebapp is not true`, 'NOT_WRITEABLE');
  }
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
}

function declaredType(card: Pick<Card, 'manifest'>): string | undefined {
  const want = (card.manifest.schema as Record<string, unknown> | undefined)?.type;
  return typeof want === 'string' ? want : undefined;
}

/** The card's stored row count when its data is an array, else 0. */
function storedRowCount(ctx: CardContext, id: string): number {
  const st = ctx.store.state(id);
  return st.shape === 'array' ? st.rowCount : 0;
}

/** Throws WRONG_TYPE when `schema.type` is set and `data` is not of that type. */
export function assertSchemaType(card: Pick<Card, 'id' | 'manifest'>, data: unknown): void {
  const schema = card.manifest.schema as Record<string, unknown> | undefined;
  const want = schema?.type;
  if (typeof want !== 'string') return;
  const got = jsonType(data);
  const ok = got === want || (want === 'number' && got === 'integer');
  if (!ok)
    throw new RowError('WRONG_TYPE', `this card's schema.type is "${want}", but data is ${got}`, '', card.id);
}

/** `GET /api/manifests/:id/data`: `{"data": ...}` as JSON text (rows not re-serialised) and the ETag. */
export function readDataJson(ctx: CardContext, id: string): { json: string; etag: string } {
  findCard(ctx, id);
  const json = ctx.store.readJson(id);
  return { json: `{"data":${json ?? 'null'}}`, etag: dataEtag(ctx.store.state(id).version) };
}

/**
 * `POST /api/manifests/:id/data`: replaces the whole data block. 400 when `data` is a string
 * (a JSON-encoded string is refused at the boundary), or when the card keeps rows and `data` is
 * not an array of objects (row-shape.ts); 403 read-only; 412 stale If-Match.
 * @returns `{ok, id, etag}`.
 */
export function replaceData(ctx: CardContext, id: string, data: unknown, opts: WriteOptions) {
  const value = checkReplaceData(ctx, id, data);
  checkIfMatch(ctx, id, opts.ifMatch);
  const { version } = keepingSchedules(ctx, id, '', value, opts, () => ({
    version: ctx.store.replace(id, value, opts.actor),
  }));
  ctx.emit({ type: 'data-changed', id, version });
  return { ok: true as const, id, etag: dataEtag(version) };
}

/**
 * The checks of replaceData on `data`, writing nothing (what an approval is asked for must be
 * able to run).
 * @returns the data block as it would be stored (date-keyed objects made rows).
 * @throws as replaceData, except 412.
 */
export function checkReplaceData(ctx: CardContext, id: string, data: unknown): unknown {
  if (data === undefined)
    throw badRequest('body must have a data key', [{ path: 'data', message: 'is required' }]);
  if (typeof data === 'string') {
    throw badRequest('data must be JSON (an array or object), not a string', [
      { path: 'data', message: 'must not be a string' },
    ]);
  }
  const card = requireCard(ctx, id);
  assertWriteable(card);
  const value = withTrimmedDates(card, normaliseDateKeyed(data));
  assertSchemaType(card, value);
  if (declaredType(card) === undefined || declaredType(card) === 'array')
    assertRowsData(card, storedRowCount(ctx, id), value);
  assertRowYears(card, value);
  return value;
}

/** assertIfMatch against the card's data ETag (or the whole card's); read only when the header is there. */
function checkIfMatch(ctx: CardContext, id: string, ifMatch: string | undefined): void {
  if (ifMatch !== undefined) assertIfMatch(ifMatch, dataWriteTags(ctx, id));
}

/** Parses a row path, naming the card in a BAD_PATH error. */
function parsePath(pathText: string, id: string) {
  try {
    return parseRowPath(pathText);
  } catch (err) {
    if (err instanceof RowError) throw new RowError(err.rowCode, err.message, err.rowPath, id);
    throw err;
  }
}

function prepareRowWrite(ctx: CardContext, id: string, path: unknown, opts: WriteOptions) {
  const pathText = path === undefined || path === null ? '' : path;
  if (typeof pathText !== 'string')
    throw new RowError('BAD_PATH', 'path must be a string', String(pathText), id);
  const card = requireCard(ctx, id);
  const segs = parsePath(pathText, id);
  assertWriteable(card);
  checkIfMatch(ctx, id, opts.ifMatch);
  return { card, segs, pathText };
}

/**
 * Runs `write` (a write of `payload` at `pathText` of card `id`) and, when it changed an item's
 * schedule, keeps the old one in the item's `schedule_history` (schedule-history.ts), in the same
 * transaction and change set. The data is read before and after only when the write may touch a
 * schedule (maySetSchedules), so a dose ticked off costs nothing more.
 */
function keepingSchedules<T extends { version: number }>(
  ctx: CardContext,
  id: string,
  pathText: string,
  payload: unknown,
  opts: WriteOptions,
  write: () => T,
): T {
  if (!maySetSchedules(pathText, payload) || ctx.store.state(id).shape === 'none') return write();
  return ctx.store.groupCommitTransaction(() => {
    const before = ctx.store.read(id);
    const r = write();
    const today = opts.personDay?.today ?? todayIn(ctx.timeZone?.());
    let version = r.version;
    for (const kept of replacedSchedules(before, ctx.store.read(id), today)) {
      const segs = parseRowPath(kept.path);
      version = ctx.store.update(id, segs, kept.path, { schedule_history: kept.history }, opts.actor).version;
    }
    return { ...r, version };
  });
}

function done<T extends { version: number }>(ctx: CardContext, id: string, r: T) {
  ctx.emit({ type: 'data-changed', id, version: r.version });
  const { version, ...rest } = r;
  return { ok: true as const, id, ...rest, etag: dataEtag(version) };
}

/**
 * `append_row`: adds `value` at the end of the array at `path` → `{ok, id, added, totalAfter,
 * etag}`, plus `warnings: [{path, message}]` when a row at the top does not fit the card's form
 * inputs (row-warnings.ts): it is stored all the same.
 */
export function appendRow(ctx: CardContext, id: string, path: unknown, given: unknown, opts: WriteOptions) {
  if (given === undefined) throw badRequest('value is required', [{ path: 'value', message: 'is required' }]);
  const { card, segs, pathText } = prepareRowWrite(ctx, id, path, opts);
  const value = trimmedAtTop(card, segs.length === 0, given);
  assertRowValue(card, storedRowCount(ctx, id), segs.length === 0, value);
  checkRowDate(card, segs.length === 0, value, opts, 'value');
  const dayOrder = segs.length === 0 ? rowDayOrder(card, value) : undefined;
  const r = done(
    ctx,
    id,
    keepingSchedules(ctx, id, pathText, value, opts, () =>
      ctx.store.append(id, segs, pathText, value, opts.actor, dayOrder),
    ),
  );
  // after the commit: the warnings never refuse the row, and worked out here they take no time
  // from the reply, which waits for the flush the commit started anyway
  const warnings = rowWarnings(card.manifest.meta, segs.length === 0, value);
  return warnings.length > 0 ? { ...r, warnings } : r;
}

/**
 * The day a row appended at the top of `card` is kept in order by: its date field
 * (`meta.view.dateField`, default `date`) when that starts with a real `YYYY-MM-DD`, else
 * undefined (the row goes last). A back-filled day then goes to its place among rows kept in day
 * order, as entries and the phone's rows do, and never reads as the newest row.
 */
function rowDayOrder(card: Card, value: unknown): { field: string; day: string } | undefined {
  if (!isRowObject(value)) return undefined;
  const field = writePolicyOf(card.manifest.meta).dateField;
  const written = value[field];
  if (typeof written !== 'string' || !isIsoDate(written.slice(0, 10))) return undefined;
  return { field, day: written.slice(0, 10) };
}

/**
 * `update_row`: RFC 7396 merge of `changes` into the object at `path` → `{ok, id, after, etag}`.
 * A row at the top whose date (the card's date field) moves to another day moves to that day's
 * place on a card kept in day order, as an appended row does, so the last row stays the latest day.
 */
export function updateRow(ctx: CardContext, id: string, path: unknown, given: unknown, opts: WriteOptions) {
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw badRequest('changes must be a JSON object (an RFC 7396 merge patch)', [
      { path: 'changes', message: 'must be an object' },
    ]);
  }
  const { card, segs, pathText } = prepareRowWrite(ctx, id, path, opts);
  const changes = trimmedAtTop(card, segs.length === 1, given);
  checkRowDate(card, segs.length === 1, changes, opts, 'changes');
  const dayField = writePolicyOf(card.manifest.meta).dateField;
  return done(
    ctx,
    id,
    keepingSchedules(ctx, id, pathText, changes, opts, () =>
      ctx.store.update(id, segs, pathText, changes, opts.actor, dayField),
    ),
  );
}

/** `remove_row`: removes the one element `path` selects → `{ok, id, removed, row, totalAfter, etag}`. */
export function removeRow(ctx: CardContext, id: string, path: unknown, opts: WriteOptions) {
  const { segs, pathText } = prepareRowWrite(ctx, id, path, opts);
  return done(
    ctx,
    id,
    keepingSchedules(ctx, id, pathText, null, opts, () =>
      ctx.store.removeRow(id, segs, pathText, opts.actor),
    ),
  );
}

/**
 * The checks of removeRow, writing nothing: the card, its write policy and that `path` selects
 * one element (what an approval is asked for must be able to run).
 * @throws as removeRow (404, 403, 400 BAD_PATH, NO_MATCH, AMBIGUOUS, WRONG_TYPE).
 */
export function checkRemoveRow(ctx: CardContext, id: string, path: unknown): void {
  const { segs, pathText } = prepareRowWrite(ctx, id, path, { actor: 'system' });
  ctx.store.checkRemoveRow(id, segs, pathText);
}

/** `reorder_rows`: rearranges the array at `path` by `key` values → `{ok, id, reordered, etag}`. */
export function reorderRows(
  ctx: CardContext,
  id: string,
  path: unknown,
  key: unknown,
  order: unknown,
  opts: WriteOptions,
) {
  if (typeof key !== 'string' || key === '') {
    throw badRequest('key must be a non-empty string', [
      { path: 'key', message: 'must be a non-empty string' },
    ]);
  }
  if (!Array.isArray(order))
    throw badRequest('order must be an array', [{ path: 'order', message: 'must be an array' }]);
  const { segs, pathText } = prepareRowWrite(ctx, id, path, opts);
  return done(ctx, id, ctx.store.reorder(id, segs, pathText, key, order, opts.actor));
}

/**
 * `read_manifest_rows`: a window of the rows at `path` (see CardDataStore.readRows) plus the data
 * version and its ETag.
 */
export function readRows(ctx: CardContext, id: string, path: unknown, window: WindowOptions) {
  const pathText = path === undefined || path === null ? '' : path;
  if (typeof pathText !== 'string')
    throw new RowError('BAD_PATH', 'path must be a string', String(pathText), id);
  findCard(ctx, id);
  const segs = parsePath(pathText, id);
  const result = ctx.store.readRows(id, segs, pathText, window);
  const version = ctx.store.state(id).version;
  return { result, version, etag: dataEtag(version) };
}

/**
 * The same read for a caller that pages with `offset` across calls (the chat's and MCP's
 * `read_manifest_rows`): a window of an array also carries `version`, the card's data version,
 * and a later page sent with the first page's `version` is refused when the rows changed since,
 * since a row added or removed in between shifts the offset and repeats or skips rows (any change
 * to the card's data counts, an edit too: the pages then never mix before and after it). An
 * object or a single value comes back as it is (it is read whole, never paged).
 * @throws 412 PRECONDITION_FAILED when `expected` is given and is not the card's version now.
 */
export function readRowsPaged(
  ctx: CardContext,
  id: string,
  path: unknown,
  window: WindowOptions,
  expected: number | undefined,
) {
  const { result, version } = readRows(ctx, id, path, window);
  if (expected !== undefined && expected !== version) {
    throw preconditionFailed(
      `the rows of ${id} changed since version ${expected} (now ${version}): read again from offset 0 with version ${version}`,
    );
  }
  return 'rows' in result ? { ...result, version } : result;
}
