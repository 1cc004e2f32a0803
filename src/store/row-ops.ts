/**
 * Pure row operations on a card's `data` block (docs/CHAT-AGENT.md, tools `read_manifest_rows`,
 * `append_row`, `update_row`, `remove_row`, `reorder_rows`). No I/O and no mutation of inputs:
 * every mutator deep-clones the document, applies the change to the clone and returns it, so the
 * caller can shape-check and full-replace in one transaction.
 *
 * Each op takes parsed segments (row-path.ts) plus the path text and card id, which only go into
 * errors: RowError `NO_MATCH` (404), `AMBIGUOUS` (409), `WRONG_TYPE` (422), `ORDER_MISMATCH` (422).
 */

import { sameDateSpelled } from '../common/dates.js';
import { nameSome } from '../common/text.js';
import { badRequest, RowError, type RowErrorCode } from '../errors.js';
import { DEFAULT_ROW_WINDOW, MAX_ROW_WINDOW } from '../limits.js';
import { formatRowPath, type Literal, type Segment } from './row-path.js';

type JsonObject = Record<string, unknown>;
/** A segment that selects one array element: a filter or `[index=N]`. */
export type ElementSelector = Extract<Segment, { kind: 'filter' | 'index' }>;
interface Ctx {
  path: string;
  cardId?: string;
}

/** In `{row}` answers, nested arrays longer than this are replaced by `{omittedArray, count}`. */
const OMIT_ARRAYS_OVER = DEFAULT_ROW_WINDOW;
/** At most this many values are listed in one error message. */
const MAX_LISTED = 10;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const fail = (ctx: Ctx, code: RowErrorCode, message: string) =>
  new RowError(code, message, ctx.path, ctx.cardId);

/** Sets an own property, also for the key `__proto__` (plain assignment would change the prototype). */
function setOwn(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return `an array (${v.length} elements)`;
  if (v === null) return 'null';
  if (isObject(v)) return 'an object';
  return `a ${typeof v}`;
}

/** Values for a message: the first MAX_LISTED, each as JSON and cut short, and a count of the rest. */
function list(values: readonly unknown[]): string {
  return nameSome(
    values.map((v) => JSON.stringify(v) ?? String(v)),
    MAX_LISTED,
  );
}

/** Names the place the first `n` segments lead to, for messages. */
const where = (segs: readonly Segment[], n: number) =>
  n === 0 ? 'the data block' : `'${formatRowPath(segs.slice(0, n))}'`;

/**
 * True when `el` matches the filter `[key=value]`: `el` is a plain object with an own `key` whose
 * value is strictly equal (`"85"` does not match `85`, `1` does not match `true`), or is the same
 * date written another way (`"2026/04/06"` matches `"2026-04-06"`: dates written by hand).
 */
export function matchesFilter(el: unknown, key: string, value: Literal): boolean {
  return isObject(el) && Object.hasOwn(el, key) && (el[key] === value || sameDateSpelled(el[key], value));
}

/**
 * The position in `arr` that a filter or index segment selects. `segs`/`n` locate the segment
 * (for messages). Throws WRONG_TYPE when `arr` is not an array, NO_MATCH when nothing matches or
 * the index is out of range (negative counts from the end), AMBIGUOUS when several elements match.
 */
function selectIndex(
  arr: unknown,
  seg: ElementSelector,
  segs: readonly Segment[],
  n: number,
  ctx: Ctx,
): number {
  const at = where(segs, n);
  if (!Array.isArray(arr)) {
    throw fail(
      ctx,
      'WRONG_TYPE',
      `${formatRowPath([seg])} selects an array element, but ${at} is ${describe(arr)}`,
    );
  }
  if (seg.kind === 'index') {
    const i = seg.index < 0 ? arr.length + seg.index : seg.index;
    if (i < 0 || i >= arr.length) {
      throw fail(ctx, 'NO_MATCH', `[index=${seg.index}] is out of range: ${at} has ${arr.length} elements`);
    }
    return i;
  }
  const hits: number[] = [];
  arr.forEach((el, i) => {
    if (matchesFilter(el, seg.key, seg.value)) hits.push(i);
  });
  if (hits.length === 1) return hits[0];
  const f = formatRowPath([seg]);
  if (hits.length > 1) {
    throw fail(
      ctx,
      'AMBIGUOUS',
      `${hits.length} elements of ${at} match ${f} (positions ${list(hits)}); ` +
        'select one with [index=N] or a filter on a field whose value is unique',
    );
  }
  const loose = arr.find(
    (el) => isObject(el) && Object.hasOwn(el, seg.key) && String(el[seg.key]) === String(seg.value),
  );
  const hint = loose
    ? `; an element has ${seg.key} = ${JSON.stringify((loose as JsonObject)[seg.key])}, but filters compare types too`
    : '';
  throw fail(ctx, 'NO_MATCH', `no element of ${at} (${arr.length} elements) matches ${f}${hint}`);
}

/**
 * The position in `arr` that `seg` selects, by the same rules as every path step: for a storage
 * layer that applies the root selector of splitRootFilter itself. Throws WRONG_TYPE (not an
 * array), NO_MATCH (no match, index out of range), AMBIGUOUS (several matches).
 */
export function selectElement(arr: unknown, seg: ElementSelector, pathText: string, cardId?: string): number {
  return selectIndex(arr, seg, [seg], 0, { path: pathText, cardId });
}

/** One step from `cur` along `segs[n]`. Throws as resolveTarget does. */
function step(cur: unknown, segs: readonly Segment[], n: number, ctx: Ctx): unknown {
  const seg = segs[n];
  if (seg.kind !== 'key') return (cur as unknown[])[selectIndex(cur, seg, segs, n, ctx)];
  if (!isObject(cur)) {
    const hint = !Array.isArray(cur)
      ? ''
      : /^-?\d+$/.test(seg.key)
        ? `; to pick by position write [index=${seg.key}]`
        : '; select an element first with [field=value] or [index=N]';
    throw fail(
      ctx,
      'WRONG_TYPE',
      `cannot read key "${seg.key}": ${where(segs, n)} is ${describe(cur)}${hint}`,
    );
  }
  if (!Object.hasOwn(cur, seg.key)) {
    const keys = Object.keys(cur);
    throw fail(
      ctx,
      'NO_MATCH',
      `${where(segs, n)} has no key "${seg.key}"` +
        (keys.length ? ` (keys: ${list(keys)})` : ' (it is empty)'),
    );
  }
  return cur[seg.key];
}

/** Follows the first `count` segments from `doc`. */
function walk(doc: unknown, segs: readonly Segment[], count: number, ctx: Ctx): unknown {
  let cur = doc;
  for (let n = 0; n < count; n++) cur = step(cur, segs, n, ctx);
  return cur;
}

/**
 * The value at `segs` in `doc` (a reference into `doc`, not a copy; clone before changing it).
 * Throws RowError NO_MATCH (missing key, no filter match, index out of range), AMBIGUOUS (filter
 * matched several), WRONG_TYPE (filter/index on a non-array, key on a non-object).
 */
export function resolveTarget(
  doc: unknown,
  segs: readonly Segment[],
  pathText: string,
  cardId?: string,
): unknown {
  return walk(doc, segs, segs.length, { path: pathText, cardId });
}

/** Options of readRows: `order` 'desc' (default) = newest (last) first; `offset` counts from that end. */
export interface ReadRowsOptions {
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

/** The window a windowed read used (limit after clamping to MAX_ROW_WINDOW). */
export interface RowWindow {
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** What readRows answers, by the kind of value at the path. */
export type ReadRowsResult =
  | { rows: unknown[]; total: number; truncated: boolean; window: RowWindow }
  | { row: JsonObject }
  | { value: unknown };

/**
 * Reads the value at `segs` for `read_manifest_rows`. Array: a window of copied
 * rows, `order` 'desc' (default, newest = last element first) or 'asc', skipping `offset` (default 0)
 * rows from that end, at most `limit` (default DEFAULT_ROW_WINDOW, clamped to MAX_ROW_WINDOW);
 * `truncated` is true when fewer than `total` rows came back. Object: `{row}`, a copy in which every
 * nested array longer than 10 is `{omittedArray: true, count}`. Anything else: `{value}`.
 * Throws as resolveTarget, and KlebbError BAD_REQUEST for an invalid order, limit or offset.
 */
export function readRows(
  doc: unknown,
  segs: readonly Segment[],
  pathText: string,
  opts: ReadRowsOptions = {},
  cardId?: string,
): ReadRowsResult {
  const order = opts.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc')
    throw badRequest(`order must be "asc" or "desc", got ${String(order)}`);
  const offset = count('offset', opts.offset, 0);
  const limit = Math.min(count('limit', opts.limit, DEFAULT_ROW_WINDOW), MAX_ROW_WINDOW);
  const target = resolveTarget(doc, segs, pathText, cardId);
  if (Array.isArray(target)) {
    const total = target.length;
    const rows: unknown[] = [];
    for (let k = offset; k < Math.min(total, offset + limit); k++) {
      rows.push(structuredClone(order === 'desc' ? target[total - 1 - k] : target[k]));
    }
    return { rows, total, truncated: rows.length < total, window: { order, offset, limit } };
  }
  if (isObject(target)) return { row: compact(target) as JsonObject };
  return { value: target };
}

function count(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < 0)
    throw badRequest(`${name} must be a whole number >= 0, got ${String(v)}`);
  return v;
}

function compact(v: unknown): unknown {
  if (Array.isArray(v))
    return v.length > OMIT_ARRAYS_OVER ? { omittedArray: true, count: v.length } : v.map(compact);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) setOwn(out, k, compact(x));
  return out;
}

/**
 * `append_row`: a copy of `doc` with a copy of `value` pushed onto the array at
 * `segs`, and that array's new length. If the last segment is a key that is missing (or null) on an
 * object, the array is created; an empty path on a null/undefined doc gives `[value]`.
 * Throws as resolveTarget, WRONG_TYPE when the target is not an array, BAD_REQUEST when `value` is undefined.
 */
export function appendRow(
  doc: unknown,
  segs: readonly Segment[],
  value: unknown,
  pathText: string,
  cardId?: string,
): { doc: unknown; totalAfter: number } {
  const ctx = { path: pathText, cardId };
  if (value === undefined) throw badRequest('append_row needs a value');
  const row = structuredClone(value);
  if (segs.length === 0 && (doc === null || doc === undefined)) return { doc: [row], totalAfter: 1 };
  const out = structuredClone(doc);
  const last = segs.length - 1;
  const parent = walk(out, segs, Math.max(last, 0), ctx);
  let target: unknown;
  const seg = segs[last];
  if (
    seg?.kind === 'key' &&
    isObject(parent) &&
    (!Object.hasOwn(parent, seg.key) || parent[seg.key] === null)
  ) {
    target = [];
    setOwn(parent, seg.key, target);
  } else {
    target = segs.length === 0 ? out : step(parent, segs, last, ctx);
  }
  if (!Array.isArray(target)) {
    throw fail(
      ctx,
      'WRONG_TYPE',
      `append needs an array, but ${where(segs, segs.length)} is ${describe(target)}`,
    );
  }
  target.push(row);
  return { doc: out, totalAfter: target.length };
}

/**
 * `update_row`: a copy of `doc` in which the object at `segs` has `changes`
 * applied as an RFC 7396 JSON merge patch; `after` is that updated object (part of the returned doc).
 * Throws as resolveTarget, and WRONG_TYPE when `changes` is not a plain object or the target is not one.
 */
export function updateRow(
  doc: unknown,
  segs: readonly Segment[],
  changes: unknown,
  pathText: string,
  cardId?: string,
): { doc: unknown; after: JsonObject } {
  const ctx = { path: pathText, cardId };
  if (!isObject(changes)) {
    throw fail(
      ctx,
      'WRONG_TYPE',
      `changes must be a JSON object (an RFC 7396 merge patch), got ${describe(changes)}`,
    );
  }
  const out = structuredClone(doc);
  const target = walk(out, segs, segs.length, ctx);
  if (!isObject(target)) {
    throw fail(
      ctx,
      'WRONG_TYPE',
      `update needs an object, but ${where(segs, segs.length)} is ${describe(target)}`,
    );
  }
  applyPatch(target, changes);
  return { doc: out, after: target };
}

/**
 * `remove_row`: a copy of `doc` without the one array element that the last
 * segment (a filter or `[index=N]`) selects; `row` is the removed element, `totalAfter` the array's
 * new length. Throws WRONG_TYPE when the path is empty or ends in a key, else as resolveTarget.
 */
export function removeRow(
  doc: unknown,
  segs: readonly Segment[],
  pathText: string,
  cardId?: string,
): { doc: unknown; removed: 1; row: unknown; totalAfter: number } {
  const ctx = { path: pathText, cardId };
  const seg = segs[segs.length - 1];
  if (!seg || seg.kind === 'key') {
    throw fail(
      ctx,
      'WRONG_TYPE',
      'remove needs a path ending in [field=value] or [index=N] that selects one array element' +
        (seg ? `; '${pathText.trim()}' ends in the key "${seg.key}"` : '; the path is empty'),
    );
  }
  const out = structuredClone(doc);
  const arr = walk(out, segs, segs.length - 1, ctx);
  const i = selectIndex(arr, seg, segs, segs.length - 1, ctx);
  const [row] = (arr as unknown[]).splice(i, 1);
  return { doc: out, removed: 1, row, totalAfter: (arr as unknown[]).length };
}

/**
 * `reorder_rows`: a copy of `doc` in which the array at `segs` is rearranged so
 * that its elements' `el[key]` values follow `order`; `reordered` counts the elements that moved
 * (0: already in that order). Throws as resolveTarget, WRONG_TYPE when the target is not an array,
 * and ORDER_MISMATCH, listing missing, extra and duplicate values and elements without a usable
 * `key`, unless `order` is exactly a permutation of the elements' (unique) key values.
 */
export function reorderRows(
  doc: unknown,
  segs: readonly Segment[],
  key: string,
  order: readonly Literal[],
  pathText: string,
  cardId?: string,
): { doc: unknown; reordered: number } {
  const ctx = { path: pathText, cardId };
  if (!Array.isArray(order)) {
    throw fail(ctx, 'ORDER_MISMATCH', `order must be an array of the elements' "${key}" values`);
  }
  const out = structuredClone(doc);
  const arr = walk(out, segs, segs.length, ctx);
  if (!Array.isArray(arr)) {
    throw fail(
      ctx,
      'WRONG_TYPE',
      `reorder needs an array, but ${where(segs, segs.length)} is ${describe(arr)}`,
    );
  }
  const byValue = new Map<unknown, unknown>();
  const unusable: number[] = [];
  const dataDups = new Set<unknown>();
  arr.forEach((el, i) => {
    const v = isObject(el) && Object.hasOwn(el, key) ? el[key] : undefined;
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') unusable.push(i);
    else if (byValue.has(v)) dataDups.add(v);
    else byValue.set(v, el);
  });
  const seen = new Set<unknown>();
  const orderDups = new Set<unknown>();
  const extra: unknown[] = [];
  for (const v of order) {
    if (seen.has(v)) orderDups.add(v);
    else if (!byValue.has(v)) extra.push(v);
    seen.add(v);
  }
  const missing = [...byValue.keys()].filter((v) => !seen.has(v));
  const problems = [
    missing.length ? `missing from order: ${list(missing)}` : '',
    extra.length ? `not in the data: ${list(extra)}` : '',
    orderDups.size ? `listed more than once in order: ${list([...orderDups])}` : '',
    dataDups.size ? `shared by several elements (the key must be unique): ${list([...dataDups])}` : '',
    unusable.length
      ? `elements without a string, number or boolean "${key}": positions ${list(unusable)}`
      : '',
  ].filter(Boolean);
  if (problems.length) {
    throw fail(
      ctx,
      'ORDER_MISMATCH',
      `order must list every "${key}" value of ${where(segs, segs.length)} exactly once; ${problems.join('; ')}`,
    );
  }
  let reordered = 0;
  order.forEach((v, i) => {
    const el = byValue.get(v);
    if (arr[i] !== el) reordered++;
    arr[i] = el;
  });
  return { doc: out, reordered };
}

/**
 * RFC 7396 JSON merge patch: returns `target` with `patch` applied, without changing either (the
 * result shares no objects with them). A non-object patch replaces the target; a null member deletes
 * the key; an object member merges recursively (into `{}` when the target's member is not an object).
 * Used by `update_row` and the manifest PATCH.
 */
export function mergePatch(target: unknown, patch: JsonObject): JsonObject;
export function mergePatch(target: unknown, patch: unknown): unknown;
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch === undefined ? undefined : structuredClone(patch);
  return applyPatch(isObject(target) ? structuredClone(target) : {}, patch);
}

/** Applies an object merge patch to `t` in place (t is already a private copy). */
function applyPatch(t: JsonObject, patch: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    if (v === null) {
      delete t[k];
    } else if (isObject(v)) {
      const cur = Object.hasOwn(t, k) ? t[k] : undefined;
      setOwn(t, k, applyPatch(isObject(cur) ? cur : {}, v));
    } else {
      setOwn(t, k, structuredClone(v));
    }
  }
  return t;
}

/**
 * Splits off a leading filter or index (one element of an array-rooted card) so a storage layer
 * that keeps top-level elements as separate rows can select that element itself (with
 * selectElement or matchesFilter) and apply `rest` to it with the functions above.
 * `{root: null, rest: segs}` when the path does not start with a filter or index.
 */
export function splitRootFilter(segs: readonly Segment[]): { root: ElementSelector | null; rest: Segment[] } {
  const first = segs[0];
  if (first && first.kind !== 'key') return { root: first, rest: segs.slice(1) };
  return { root: null, rest: [...segs] };
}
