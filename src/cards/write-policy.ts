/**
 * The write policy of the web app's entry forms (docs/MANIFEST-SCHEMA.md "writeable"; the
 * contract in docs/API.md "Entries"): which entries a person may save on a card, and where a new
 * entry goes. Pure functions over a card's `meta` and its rows; the operations that apply them
 * are in card-entries.ts.
 *
 * - `fromWebapp !== true` → 403 NOT_WRITEABLE (card-data.ts `assertWriteable`).
 * - `requireAny: [keys]` and none has a value → 422 REQUIRE_ANY.
 * - `required` inputs without a value, and values that break their input descriptor (number,
 *   stepper and rating bounds, select/chips options, text length, date/time format, checkbox
 *   boolean, colour `#rrggbb`) → 422 INVALID_ENTRY naming the field.
 * - The row's date is `entry[viewConfig.dateField ?? 'date']`. For a date that has no row yet:
 *   today (the person's calendar day) needs `todayAllowed !== false`, a past day
 *   `pastAllowed === true`, a future day `futureAllowed === true`; else 422 DATE_NOT_ALLOWED with a
 *   sentence the form shows. Agents with a bearer token are not bound by this (they act for
 *   the owner); the caller decides who is bound. A day outside FIRST_PLAUSIBLE_DAY …
 *   LAST_PLAUSIBLE_DAY (`0000-01-01`, `9999-12-31`) is refused for everyone (422 INVALID_ENTRY),
 *   as is such a value of a `date` input.
 * - `maxReadingsPerDay` (default 1): 1 → a new entry for a day that has a row replaces that row;
 *   N > 1 → it is added, then the oldest rows of that day beyond N are dropped. New dated rows are
 *   placed in date order; an entry without a date is appended (list cards).
 */

import { dateRefusal } from '../common/date-allowance.js';
import { dayOfDateTime, isIsoDate, isoDateSpelling } from '../common/dates.js';
import { fieldPath } from '../common/field-path.js';
import { overGraphemes } from '../common/graphemes.js';
import { hasValue, type InputDescriptor } from '../common/inputs.js';
import { isolateText } from '../common/isolate-text.js';
import type { Entry, WritePolicy } from '../common/write-policy.js';
import type { FieldError } from '../errors.js';
import { invalid, KlebbError } from '../errors.js';
import { FIRST_PLAUSIBLE_DAY, isPlausibleDay, LAST_PLAUSIBLE_DAY } from '../limits.js';

/**
 * Where an entry is among the arguments of the write that carries it: `entry` in the entry
 * routes' `{entry: {...}}`, `value` or `changes` in a row write's. Refusals name an entry's field
 * under it (`entry.kg`); a route names the arguments themselves under `body` (src/http/body-fields.ts).
 */
export type EntryPlace = 'entry' | 'value' | 'changes' | `data[${number}]`;

/** The path of an entry at `at`, or of its field `key` (src/common/field-path.ts). */
const entryPath = (at: EntryPlace, key?: string) => (key === undefined ? at : fieldPath(at, [key]));

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * An entry as sent (the `entry` of a request body `{entry: {...}}`), without its empty values
 * (null, blank strings, empty lists: an empty optional field is not stored).
 * @throws 400 BAD_REQUEST naming `entry` when it is missing or not a JSON object.
 */
export function cleanEntry(entry: unknown, at: EntryPlace = 'entry'): Entry {
  if (!isObject(entry)) {
    throw new KlebbError(
      400,
      'BAD_REQUEST',
      'the body must be {"entry": {...}} with the entry as a JSON object',
      [{ path: entryPath(at), message: entry === undefined ? 'is required' : 'must be an object' }],
    );
  }
  const out: Entry = {};
  for (const [k, val] of Object.entries(entry)) {
    if (val === null || val === undefined) continue;
    if (typeof val === 'string' && val.trim() === '') continue;
    if (Array.isArray(val) && val.length === 0) continue;
    out[k] = val;
  }
  return out;
}

const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const COLOUR_RE = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

const numText = (n: number) => String(n);

function optionMatches(options: { value: unknown }[], v: unknown): boolean {
  return options.some((o) => o.value === v || (typeof v !== 'object' && String(o.value) === String(v)));
}

/**
 * What is wrong with one value for its input, as the end of a sentence ("must be at most 500"),
 * or null when it fits. The value is present (checked with `hasValue` first).
 */
export function valueProblem(input: InputDescriptor, v: unknown): string | null {
  switch (input.type) {
    case 'number':
    case 'stepper':
    case 'rating': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a number';
      if (input.type === 'rating' && !Number.isInteger(v)) return 'must be a whole number';
      if (input.min !== undefined && v < input.min) return `must be at least ${numText(input.min)}`;
      if (input.max !== undefined && v > input.max) return `must be at most ${numText(input.max)}`;
      return null;
    }
    case 'text':
    case 'textarea': {
      if (typeof v !== 'string') return 'must be text';
      if (input.maxLength !== undefined && overGraphemes(v, input.maxLength)) {
        return `must be at most ${input.maxLength} characters long`;
      }
      return null;
    }
    case 'select':
    case 'chips': {
      if (typeof v === 'object') return 'must be one of its choices';
      const options = input.options ?? [];
      if (options.length > 0 && !optionMatches(options, v)) return 'must be one of its choices';
      return null;
    }
    case 'chips-multi': {
      if (!Array.isArray(v)) return 'must be a list of its choices';
      const options = input.options ?? [];
      if (v.some((x) => x === null || typeof x === 'object')) return 'must be a list of its choices';
      if (options.length > 0 && !v.every((x) => optionMatches(options, x)))
        return 'must be a list of its choices';
      if (new Set(v.map((x) => String(x))).size !== v.length) return 'must not list a choice twice';
      return null;
    }
    case 'emoji-picker': {
      const emojis = input.emojis ?? [];
      if (input.emitIndex) {
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > emojis.length) {
          return `must be a whole number from 1 to ${emojis.length}`;
        }
        return null;
      }
      return typeof v === 'string' && emojis.includes(v) ? null : 'must be one of its emoji';
    }
    case 'colour':
      return typeof v === 'string' && COLOUR_RE.test(v) ? null : 'must be a colour like #3399ff';
    case 'checkbox':
      return typeof v === 'boolean' ? null : 'must be true or false';
    case 'date':
      if (!isIsoDate(v)) return 'must be a date written YYYY-MM-DD';
      return isPlausibleDay(v) ? null : `must be a date from ${FIRST_PLAUSIBLE_DAY} to ${LAST_PLAUSIBLE_DAY}`;
    case 'time':
      return typeof v === 'string' && TIME_RE.test(v) ? null : 'must be a time written HH:MM';
  }
}

function fieldError(
  at: EntryPlace,
  input: InputDescriptor | undefined,
  key: string,
  problem: string,
): FieldError {
  return { path: entryPath(at, key), message: `${isolateText(input?.label ?? key)} ${problem}` };
}

/**
 * Checks an entry against the policy's inputs: `requireAny` first (422 REQUIRE_ANY, "Fill in at
 * least one of: Systolic, Diastolic."), then every input's `required` and value rules (422
 * INVALID_ENTRY; the message is the first problem as a sentence, `details` lists them all, each
 * with `path: <at>.<key>`, `entry.kg`). Keys no input declares are stored as they are.
 * @throws KlebbError 422.
 */
export function checkEntry(policy: WritePolicy, entry: Entry, at: EntryPlace = 'entry'): void {
  if (policy.requireAny.length > 0 && !policy.requireAny.some((k) => hasValue(entry[k]))) {
    const labels = policy.requireAny.map((k) =>
      isolateText(policy.inputs.find((i) => i.key === k)?.label ?? k),
    );
    throw invalid(
      `Fill in at least one of: ${labels.join(', ')}.`,
      policy.requireAny.map((k) => ({ path: entryPath(at, k), message: 'one of these needs a value' })),
      'REQUIRE_ANY',
    );
  }
  const problems: FieldError[] = [];
  for (const input of policy.inputs) {
    const v = entry[input.key];
    if (!hasValue(v)) {
      if (input.required && !policy.requireAny.includes(input.key))
        problems.push(fieldError(at, input, input.key, 'is required'));
      continue;
    }
    const p = valueProblem(input, v);
    if (p) problems.push(fieldError(at, input, input.key, p));
  }
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw invalid(`${problems[0].message}${more}.`, problems, 'INVALID_ENTRY');
  }
}

/**
 * The calendar day of an entry (`entry[dateField]`: `YYYY-MM-DD`, or a real date and time such
 * as `2026-04-20T07:12:00+02:00`, see `dayOfDateTime`), or null when the entry has no date (list
 * cards). A time with `Z` or an offset is filed under its date in `timeZone`, the person's zone.
 * @throws 422 INVALID_ENTRY naming the date field when it holds something else ("… is not a date in
 *   the calendar" when it is written YYYY-MM-DD but the day does not exist).
 */
export function entryDay(
  policy: WritePolicy,
  entry: Entry,
  timeZone?: string,
  at: EntryPlace = 'entry',
): string | null {
  const v = entry[policy.dateField];
  if (v === undefined) return null;
  const day = typeof v === 'string' ? v.slice(0, 10) : '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(day) && !isIsoDate(day) && (v as string).length <= 40) {
    // written right, but the day does not exist (2026-02-30, 2026-13-45)
    throw invalid(
      `${day} is not a date in the calendar.`,
      [{ path: entryPath(at, policy.dateField), message: `${day} is not a date in the calendar` }],
      'INVALID_ENTRY',
    );
  }
  const filed = dayOfDateTime(v, timeZone);
  if (filed === null) {
    throw invalid(
      `The date must be written YYYY-MM-DD.`,
      [{ path: entryPath(at, policy.dateField), message: 'must be a date written YYYY-MM-DD' }],
      'INVALID_ENTRY',
    );
  }
  assertPlausible(filed, entryPath(at, policy.dateField));
  return filed;
}

/** 422 INVALID_ENTRY naming `path` unless `day` is within FIRST_PLAUSIBLE_DAY … LAST_PLAUSIBLE_DAY. */
function assertPlausible(day: string, path: string): void {
  if (isPlausibleDay(day)) return;
  // a year typed wrong (0000, 9999, 2206 for 2026): refused for everyone, agents too
  const range = `${FIRST_PLAUSIBLE_DAY} to ${LAST_PLAUSIBLE_DAY}`;
  throw invalid(
    `${day} is outside the days Klebb takes (${range}); check the year.`,
    [{ path, message: `${day} is outside ${range}` }],
    'INVALID_ENTRY',
  );
}

/**
 * The day any reader of the rows could file a date field's value under: the text without the
 * spaces around it read as dayOfDateTime reads it (in `timeZone`), else the date it starts with
 * (`2100-01-01abc`: charts, the summary and the day order file such a value under its first ten
 * characters); null when it names no day at all.
 */
function readableDay(v: unknown, timeZone: string | undefined): string | null {
  if (typeof v !== 'string') return null;
  const text = v.trim();
  const day = dayOfDateTime(text, timeZone);
  if (day !== null) return day;
  const lead = isoDateSpelling(text).slice(0, 10);
  return isIsoDate(lead) ? lead : null;
}

/**
 * The year check of a row a program writes (an agent with a token, a whole data block): a date
 * that names a day must be within FIRST_PLAUSIBLE_DAY … LAST_PLAUSIBLE_DAY, as for every other
 * write. The day is the one any reader could file the value under (readableDay: spaces around it,
 * or text after it, do not hide `2100-01-01`); a date naming no day is left to the warnings
 * (row-warnings.ts), as such rows are stored.
 * @throws 422 INVALID_ENTRY naming the date field.
 */
export function assertRowYear(
  policy: WritePolicy,
  row: Entry,
  timeZone: string | undefined,
  at: EntryPlace,
): void {
  const day = readableDay(row[policy.dateField], timeZone);
  if (day !== null) assertPlausible(day, entryPath(at, policy.dateField));
}

/**
 * `row` as a program's write stores it: a date field (`policy.dateField`) written with spaces,
 * tabs or line breaks around a date (`" 2026-04-20"`, `"2026-04-20\n"`, as a spreadsheet cell or
 * a script pads it) is stored without them, so every reader files the row on that day and the
 * checks of the day see it. Anything else is returned as it is (the same object).
 */
export function withTrimmedDate<T>(policy: WritePolicy, row: T): T {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return row;
  const v = (row as Record<string, unknown>)[policy.dateField];
  if (typeof v !== 'string') return row;
  const text = v.trim();
  if (text === v || dayOfDateTime(text) === null) return row;
  return { ...row, [policy.dateField]: text };
}

/**
 * The day a stored row belongs to, or null: a time with `Z` or an offset its date in `timeZone`
 * (the person's zone), else the date written first in the field when it is a real date.
 */
export function rowDay(row: unknown, dateField: string, timeZone?: string): string | null {
  if (!isObject(row)) return null;
  const v = row[dateField];
  if (typeof v !== 'string') return null;
  const d = v.slice(0, 10);
  if (!isIsoDate(d)) return dayOfDateTime(v, timeZone);
  return v.length === 10 ? d : (dayOfDateTime(v, timeZone) ?? d);
}

/**
 * Whether a new row for `day` may be added from the web app, given the person's `today`
 * (`YYYY-MM-DD` in their time zone). Only for days that have no row yet (the caller checks).
 * @throws 422 DATE_NOT_ALLOWED with the sentence the form shows.
 */
export function assertDateAllowed(
  policy: WritePolicy,
  day: string,
  today: string,
  at: EntryPlace = 'entry',
): void {
  const refusal = dateRefusal(policy, day, today);
  if (refusal) {
    throw invalid(
      refusal,
      [{ path: entryPath(at, policy.dateField), message: `${day} is not allowed` }],
      'DATE_NOT_ALLOWED',
    );
  }
}

/**
 * The date check of a row written for the person by an agent acting in their name (the chat's
 * row tools): the date is read as the entry forms read it (entryDay: a real date, or a date and
 * time; `Z` or an offset filed on the person's day in `timeZone`), and a day after the person's
 * `today` needs `futureAllowed`, as on the forms. Earlier days are not refused: an agent logs
 * what the person tells it happened.
 * @returns the row's day, or null when it has none.
 * @throws 422 INVALID_ENTRY (not a date) or DATE_NOT_ALLOWED (a future day).
 */
export function assertAgentRowDate(
  policy: WritePolicy,
  entry: Entry,
  today: string,
  timeZone: string | undefined,
  at: EntryPlace,
): string | null {
  const day = entryDay(policy, entry, timeZone, at);
  if (day !== null && day > today) assertDateAllowed(policy, day, today, at);
  return day;
}

/** Where a new entry goes: over an existing row, or inserted at `at` with older rows of its day dropped. */
export type AddPlan =
  | { kind: 'replace'; index: number }
  | {
      kind: 'insert';
      /** Position in the current array to insert at. */
      at: number;
      /** Positions (in the current array, ascending) of rows to remove: the day's oldest beyond N. */
      drop: number[];
      /** The new row's position once inserted and the drops removed. */
      finalIndex: number;
    };

/**
 * The position in `rows` that keeps them in date order for a row of `day`: after the last row of
 * that day or earlier; when there is none, before the first later row; else at the end. Rows
 * without a date are passed over.
 */
export function datePosition(
  rows: readonly unknown[],
  day: string,
  dateField: string,
  timeZone?: string,
): number {
  let lastNotLater = -1;
  let firstLater = -1;
  rows.forEach((row, i) => {
    const d = rowDay(row, dateField, timeZone);
    if (d === null) return;
    if (d <= day) lastNotLater = i;
    else if (firstLater < 0) firstLater = i;
  });
  if (lastNotLater >= 0) return lastNotLater + 1;
  return firstLater >= 0 ? firstLater : rows.length;
}

/** Positions of the rows of `day` (filed in `timeZone`, see rowDay), in array order. */
export function rowsOfDay(
  rows: readonly unknown[],
  day: string,
  dateField: string,
  timeZone?: string,
): number[] {
  const out: number[] = [];
  rows.forEach((row, i) => {
    if (rowDay(row, dateField, timeZone) === day) out.push(i);
  });
  return out;
}

/**
 * Where a new entry for `day` goes in `rows` (`maxReadingsPerDay`): with a maximum of 1
 * and a row of that day present, it replaces that day's last row; otherwise it is inserted in date
 * order (appended when `day` is null), and the oldest rows of the day beyond the maximum are dropped.
 */
export function planAdd(
  rows: readonly unknown[],
  day: string | null,
  policy: WritePolicy,
  timeZone?: string,
): AddPlan {
  if (day === null) return { kind: 'insert', at: rows.length, drop: [], finalIndex: rows.length };
  const same = rowsOfDay(rows, day, policy.dateField, timeZone);
  if (policy.maxReadingsPerDay === 1 && same.length > 0)
    return { kind: 'replace', index: same[same.length - 1] };
  const at = datePosition(rows, day, policy.dateField, timeZone);
  const excess = same.length + 1 - policy.maxReadingsPerDay;
  const drop = excess > 0 ? same.slice(0, excess) : [];
  const finalIndex = at - drop.filter((i) => i < at).length;
  return { kind: 'insert', at, drop, finalIndex };
}

/** `rows` with `entry` inserted at `at` and the `drop` positions removed (a new array). */
export function applyInsert(
  rows: readonly unknown[],
  entry: Entry,
  at: number,
  drop: readonly number[],
): unknown[] {
  const dropped = new Set(drop);
  const out: unknown[] = [];
  for (let i = 0; i <= rows.length; i++) {
    if (i === at) out.push(entry);
    if (i < rows.length && !dropped.has(i)) out.push(rows[i]);
  }
  return out;
}

/**
 * An RFC 7396 merge patch that turns `before` into `after` (keys only in `before` become null,
 * objects present in both are diffed recursively, everything else is taken from `after`), so a
 * whole-row replacement can go through the row store's update.
 */
export function replacementPatch(before: unknown, after: Entry): Entry {
  const patch: Entry = {};
  const old = isObject(before) ? before : {};
  for (const k of Object.keys(old)) if (!Object.hasOwn(after, k)) patch[k] = null;
  for (const [k, v] of Object.entries(after)) {
    const prev = old[k];
    patch[k] = isObject(v) && isObject(prev) ? replacementPatch(prev, v) : v;
  }
  return patch;
}
