/**
 * What a `table-list` shows (docs/MANIFEST-SCHEMA.md "Reports-view config": `columns: [{field,
 * header, format?}]`, `sort: {field, dir}`): the columns read leniently, the rows sorted, and each
 * cell as text. Shared by the browser and the server: no Node imports.
 *
 * `format` has no fixed list; these are read (anything else shows the value as is):
 * - `date`: a `YYYY-MM-DD` day as "20 Apr 2026" (a calendar date, never shifted by a time zone;
 *   a day not in the calendar, "2026-13-45", shows as written);
 * - `number`, or `round(N)` / `number(N)`: a number without float artefacts, or with N decimals;
 * - `percent`: a number as "52%" (a ratio of 1 or less is multiplied by 100);
 * - `check` / `boolean`: ✅ for a true value, blank otherwise;
 * - a display template with `{…}` (`"{result} {unit}"`), rendered against the row.
 */

import { isIsoDate } from './dates.js';
import {
  CHECK_MARK,
  getValue,
  isEmptyValue,
  isTruthy,
  renderTemplate,
  valueText,
} from './display-template.js';
import { formatDay, formatNumber } from './locale-format.js';
import { cleanNumber, toFiniteNumber } from './numbers.js';
import { dayOf } from './trend.js';

/** One column as shown. */
export interface TableColumn {
  field: string;
  header: string;
  format?: string;
}

/** The sort of a table: a field and a direction. */
export interface TableSort {
  field: string;
  dir: 'asc' | 'desc';
}

/** Most columns guessed from the rows when the manifest names none. */
export const MAX_GUESSED_COLUMNS = 6;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const nonEmpty = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/**
 * The columns of a table: `columns` entries that name a field (`header` defaults to the field;
 * a bare string is a field), else the keys of the rows in order of first appearance (at most
 * MAX_GUESSED_COLUMNS, keys holding objects or lists left out).
 */
export function tableColumns(viewConfig: unknown, rows: unknown): TableColumn[] {
  const cfg = isObj(viewConfig) ? viewConfig : {};
  if (Array.isArray(cfg.columns)) {
    const cols: TableColumn[] = [];
    for (const c of cfg.columns) {
      if (typeof c === 'string' && nonEmpty(c)) {
        cols.push({ field: c.trim(), header: c.trim() });
        continue;
      }
      if (!isObj(c)) continue;
      const field = nonEmpty(c.field) ?? nonEmpty(c.key);
      if (!field) continue;
      const col: TableColumn = { field, header: nonEmpty(c.header) ?? nonEmpty(c.label) ?? field };
      const format = nonEmpty(c.format);
      if (format) col.format = format;
      cols.push(col);
    }
    if (cols.length > 0) return cols;
  }
  const keys: string[] = [];
  if (Array.isArray(rows)) {
    for (const r of rows) {
      if (!isObj(r)) continue;
      for (const k of Object.keys(r)) {
        const v = r[k];
        if (!keys.includes(k) && (v === null || typeof v !== 'object')) keys.push(k);
      }
      if (keys.length >= MAX_GUESSED_COLUMNS) break;
    }
  }
  return keys.slice(0, MAX_GUESSED_COLUMNS).map((k) => ({ field: k, header: k }));
}

/** `sort` as written (`{field, dir}`; `dir` "desc" or "asc", default "asc"), or null. */
export function tableSort(viewConfig: unknown): TableSort | null {
  const sort = isObj(viewConfig) ? viewConfig.sort : undefined;
  if (typeof sort === 'string' && nonEmpty(sort)) return { field: sort.trim(), dir: 'asc' };
  if (!isObj(sort)) return null;
  const field = nonEmpty(sort.field) ?? nonEmpty(sort.key);
  if (!field) return null;
  const dir = typeof sort.dir === 'string' && /^desc/i.test(sort.dir.trim()) ? 'desc' : 'asc';
  return { field, dir };
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareValues(a: unknown, b: unknown): number {
  const na = toFiniteNumber(a);
  const nb = toFiniteNumber(b);
  if (na !== null && nb !== null) return na - nb;
  if (na !== null) return -1;
  if (nb !== null) return 1;
  return collator.compare(valueText(a), valueText(b));
}

/**
 * The object rows of `rows` (others are left out), sorted by `sort` when given: numbers by value,
 * everything else as text in natural order ("2" before "10"); rows missing the field go last in
 * either direction; equal rows keep their order. The input is not changed.
 */
export function sortTableRows(rows: unknown, sort: TableSort | null): Obj[] {
  const list = Array.isArray(rows) ? rows.filter(isObj) : [];
  if (!sort) return list;
  const sign = sort.dir === 'desc' ? -1 : 1;
  return list
    .map((row, i) => ({ row, i, v: getValue(row, sort.field) }))
    .sort((x, y) => {
      const ex = isEmptyValue(x.v);
      const ey = isEmptyValue(y.v);
      if (ex || ey) return ex === ey ? x.i - y.i : ex ? 1 : -1;
      return sign * compareValues(x.v, y.v) || x.i - y.i;
    })
    .map((x) => x.row);
}

/**
 * One cell as text (see the file comment for `format`). Missing values are ''. Numbers and dates
 * are written for `locale` (default the runtime's: the browser's language), through
 * locale-format.ts as everywhere else: 1.5 is "1,5" in German, a date "20. Apr. 2026". A template
 * format's `:emoji` reads `emojiMap` (the card's, `emojiMapFor`).
 */
export function cellText(row: Obj, col: TableColumn, locale?: string, emojiMap?: Obj): string {
  const format = col.format;
  const num = (n: number, decimals?: number) => formatNumber(n, { decimals, locale });
  if (format?.includes('{')) return renderTemplate(format, row, { formatNumber: num, emojiMap });
  const v = getValue(row, col.field);
  if (isEmptyValue(v)) return '';
  const f = format?.toLowerCase();
  if (f === 'date') {
    const day = dayOf(v);
    // an impossible day ("2026-13-45", "2026-02-30") shows as the text it is, never throws
    if (!day || !isIsoDate(day)) return valueText(v);
    return formatDay(day, 'short-year', locale);
  }
  if (f === 'check' || f === 'boolean') return isTruthy(v) ? CHECK_MARK : '';
  const n = toFiniteNumber(v);
  if (f === 'percent')
    return n === null ? valueText(v) : `${num(cleanNumber(Math.abs(n) <= 1 ? n * 100 : n))}%`;
  const digits = f ? /^(?:round|number|fixed)\((\d{1,2})\)$/.exec(f) : null;
  if (digits) return n === null ? valueText(v) : num(n, Number(digits[1]));
  if (f === 'number') return n === null ? valueText(v) : num(n);
  return typeof v === 'number' ? num(v) : valueText(v);
}

/**
 * True when a column without a `format` holds only calendar dates (`YYYY-MM-DD`, at least one):
 * the table then shows them as dates ("29 Apr 2026"), as if `format` were `date`.
 */
export function isDateColumn(rows: Obj[], col: TableColumn): boolean {
  if (col.format) return col.format.toLowerCase() === 'date';
  let dates = 0;
  for (const r of rows) {
    const v = getValue(r, col.field);
    if (isEmptyValue(v)) continue;
    if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v.trim())) return false;
    dates++;
  }
  return dates > 0;
}

/** True when a column holds numbers in most rows (the table right-aligns those). */
export function isNumericColumn(rows: Obj[], col: TableColumn): boolean {
  if (col.format?.includes('{') || col.format === 'date') return false;
  let numbers = 0;
  let values = 0;
  for (const r of rows) {
    const v = getValue(r, col.field);
    if (isEmptyValue(v)) continue;
    values++;
    if (toFiniteNumber(v) !== null) numbers++;
  }
  return values > 0 && numbers / values >= 0.8;
}
