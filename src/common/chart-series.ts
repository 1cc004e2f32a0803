/**
 * What a line chart plots (docs/MANIFEST-SCHEMA.md "Line chart config (`meta.trends`)";
 * docs/MANIFEST-SCHEMA.md "View configs"): the config read leniently, and the card's rows turned
 * into one point per day per series. Shared by the browser (the `line-chart` renderer) and the
 * server (an agent may describe a chart the same way): no Node imports, no I/O.
 *
 * Config: `xAxis` (default `date`), `series: [{field, label?, colour?}]`, `title`, `yAxisLabel`.
 * Older manifests wrote `xKey`, `yKey` (one field), `field` and `unit`; they are read as `xAxis`,
 * a one-series list and `yAxisLabel`. With no series at all, the first numeric field of the latest
 * dated row is plotted. `area-chart` and `bar-chart` are the same chart filled or as bars.
 *
 * Data: rows are dated by the x field (`YYYY-MM-DD`, or a timestamp whose first ten characters are
 * the calendar day: a date is a calendar date, never an instant). Several rows on one
 * day become one point, by `aggregate` (default `mean`: three blood-pressure readings make the
 * day's average, to one decimal more than the readings; `sum` for amounts logged in parts, `last`, `min`, `max`). A day where a series
 * has no finite number is a gap (`null`), never a 0; sums and means carry no float
 * artefacts.
 */

import { cssColour } from './css-colour.js';
import { addDays } from './dates.js';
import { getValue, valueText } from './display-template.js';
import { cleanNumber, largest, MAX_DECIMALS, mostDecimals, smallest, toFiniteNumber } from './numbers.js';
import { dayOf } from './trend.js';

/** How rows of one day become one point. */
export type ChartAggregate = 'mean' | 'sum' | 'last' | 'min' | 'max';

/** The aggregates `aggregate` accepts. */
export const CHART_AGGREGATES: readonly ChartAggregate[] = ['mean', 'sum', 'last', 'min', 'max'];

/** How the series are drawn: `line-chart`, `area-chart`, `bar-chart`. */
export type ChartKind = 'line' | 'area' | 'bar';

/** One plotted field. */
export interface ChartSeriesSpec {
  /** Row field (dotted paths allowed). */
  field: string;
  /** Legend text: the series' `label`, else the field. */
  label: string;
  /** A plain CSS colour when the manifest gave one (`colour` or `color`). */
  colour?: string;
}

/** A chart's config, read leniently. */
export interface ChartConfig {
  kind: ChartKind;
  /** Row field holding the day. */
  xField: string;
  series: ChartSeriesSpec[];
  /** True when `series` was detected from the rows rather than written in the manifest. */
  autoSeries: boolean;
  title?: string;
  yAxisLabel?: string;
  aggregate: ChartAggregate;
}

/** The points of a chart: `days[i]` and, per series, the value that day (null: a gap). */
export interface ChartData {
  days: string[];
  values: (number | null)[][];
  /** Per series, how many readings made each day's value (0 for a gap). */
  counts: number[][];
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const nonEmpty = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** The chart kind a component name draws (`area-chart`, `bar-chart`, else a line). */
export function chartKindOf(component: unknown): ChartKind {
  if (component === 'area-chart') return 'area';
  if (component === 'bar-chart') return 'bar';
  return 'line';
}

/**
 * The first field of the latest dated row (other than `xField`) holding a finite number, or of any
 * earlier row when the latest has none. Undefined when no row has one.
 */
export function detectNumericField(rows: unknown, xField = 'date'): string | undefined {
  if (!Array.isArray(rows)) return undefined;
  let latestDay: string | null = null;
  let latest: Obj | undefined;
  for (const r of rows) {
    const d = isObj(r) ? dayOf(getValue(r, xField)) : null;
    if (d !== null && (latestDay === null || d >= latestDay)) {
      latestDay = d;
      latest = r as Obj;
    }
  }
  const firstNumeric = (r: Obj) =>
    Object.keys(r).find((k) => k !== xField && k !== 'date' && toFiniteNumber(r[k]) !== null);
  if (latest) {
    const f = firstNumeric(latest);
    if (f) return f;
  }
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i];
    if (isObj(r) && dayOf(getValue(r, xField)) !== null) {
      const f = firstNumeric(r);
      if (f) return f;
    }
  }
  return undefined;
}

function seriesEntry(v: unknown): ChartSeriesSpec | null {
  if (typeof v === 'string') return nonEmpty(v) ? { field: v.trim(), label: v.trim() } : null;
  if (!isObj(v)) return null;
  const field = nonEmpty(v.field) ?? nonEmpty(v.key) ?? nonEmpty(v.yKey);
  if (!field) return null;
  const spec: ChartSeriesSpec = { field, label: nonEmpty(v.label) ?? field };
  const colour = cssColour(v.colour) ?? cssColour(v.color);
  if (colour) spec.colour = colour;
  return spec;
}

/**
 * Reads a chart config (`meta.trends`, or any view config naming a chart) and, for series
 * detection, the card's rows. Never throws: off-type fields are ignored.
 */
export function chartConfigOf(viewConfig: unknown, rows?: unknown): ChartConfig {
  const cfg = isObj(viewConfig) ? viewConfig : {};
  const xField = nonEmpty(cfg.xAxis) ?? nonEmpty(cfg.xKey) ?? 'date';
  let series: ChartSeriesSpec[] = [];
  if (Array.isArray(cfg.series)) {
    series = cfg.series.map(seriesEntry).filter((s): s is ChartSeriesSpec => s !== null);
  }
  if (series.length === 0) {
    const legacy = Array.isArray(cfg.yKey) ? cfg.yKey : [cfg.yKey ?? cfg.field];
    series = legacy.map(seriesEntry).filter((s): s is ChartSeriesSpec => s !== null);
  }
  let autoSeries = false;
  if (series.length === 0) {
    const detected = detectNumericField(rows, xField);
    if (detected) {
      series = [{ field: detected, label: detected }];
      autoSeries = true;
    }
  }
  const aggregate = (CHART_AGGREGATES as readonly unknown[]).includes(cfg.aggregate)
    ? (cfg.aggregate as ChartAggregate)
    : 'mean';
  const out: ChartConfig = { kind: chartKindOf(cfg.component), xField, series, autoSeries, aggregate };
  const title = nonEmpty(cfg.title);
  if (title) out.title = title;
  const yAxisLabel = nonEmpty(cfg.yAxisLabel) ?? nonEmpty(cfg.unit);
  if (yAxisLabel) out.yAxisLabel = yAxisLabel;
  return out;
}

function combine(values: number[], how: ChartAggregate): number {
  switch (how) {
    case 'sum':
      return cleanNumber(values.reduce((a, b) => a + b, 0));
    case 'last':
      return values[values.length - 1];
    case 'min':
      return smallest(values);
    case 'max':
      return largest(values);
    default: {
      // one decimal more than the most precise input: 120, 131, 125 → 125.3
      const decimals = Math.min(MAX_DECIMALS, mostDecimals(values) + 1);
      return cleanNumber(values.reduce((a, b) => a + b, 0) / values.length, decimals);
    }
  }
}

/** Options of `chartData`. */
export interface ChartDataOptions {
  /** First day kept (`YYYY-MM-DD`, inclusive); default: no lower bound. */
  from?: string;
  /** Last day kept (inclusive); default: no upper bound. */
  to?: string;
}

/**
 * The chart's points: every day in range where at least one series has a finite number, oldest
 * first, with one value per series (null where that series has none that day). Rows may come in
 * any order; rows without a day are left out. A non-array `rows` gives no points.
 */
export function chartData(rows: unknown, config: ChartConfig, opts: ChartDataOptions = {}): ChartData {
  const byDay = new Map<string, number[][]>();
  if (Array.isArray(rows)) {
    for (const r of rows) {
      if (!isObj(r)) continue;
      const day = dayOf(getValue(r, config.xField));
      if (day === null) continue;
      if ((opts.from && day < opts.from) || (opts.to && day > opts.to)) continue;
      let cell = byDay.get(day);
      config.series.forEach((s, i) => {
        const n = toFiniteNumber(getValue(r, s.field));
        if (n === null) return;
        if (!cell) {
          cell = config.series.map(() => []);
          byDay.set(day, cell);
        }
        cell[i].push(n);
      });
    }
  }
  const days = [...byDay.keys()].sort();
  const values = config.series.map((_, i) =>
    days.map((d) => {
      const vs = byDay.get(d)?.[i] ?? [];
      return vs.length === 0 ? null : combine(vs, config.aggregate);
    }),
  );
  const counts = config.series.map((_, i) => days.map((d) => byDay.get(d)?.[i]?.length ?? 0));
  return { days, values, counts };
}

/** The most readings any day of `data` has in one series (0 for no points). */
export function mostReadingsPerDay(data: ChartData): number {
  let most = 0;
  for (const cs of data.counts) for (const c of cs) if (c > most) most = c;
  return most;
}

/**
 * How a day's point was made from `n` readings, for the person reading the chart, or '' for a
 * single reading (nothing was combined): "daily average of 2 readings", "daily total of 5 entries",
 * "highest of 3 readings", "lowest of 3 readings", "last of 2 readings". Without `n`, the rule
 * in general ("daily average of the day's readings").
 */
export function aggregateNote(aggregate: ChartAggregate, n?: number): string {
  if (n !== undefined && n < 2) return '';
  const readings = n === undefined ? "the day's readings" : `${n} readings`;
  switch (aggregate) {
    case 'sum':
      return `daily total of ${n === undefined ? "the day's entries" : `${n} entries`}`;
    case 'last':
      return `last of ${readings}`;
    case 'min':
      return `daily lowest of ${readings}`;
    case 'max':
      return `daily highest of ${readings}`;
    default:
      return `daily average of ${readings}`;
  }
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A series label for a legend that also shows `unit` (the y axis label) after the value: the unit
 * written into the label is taken out, so "Weight (kg) 72.4 kg" reads "Weight 72.4 kg". A label
 * that is nothing but the unit is kept.
 */
export function legendLabel(label: string, unit?: string): string {
  const u = unit?.trim();
  if (!u) return label;
  const re = new RegExp(
    `\\s*(?:\\(\\s*${escapeRe(u)}\\s*\\)|\\[\\s*${escapeRe(u)}\\s*\\]|,\\s*${escapeRe(u)}|\\sin\\s+${escapeRe(u)})\\s*$`,
    'i',
  );
  const out = label.replace(re, '').trim();
  return out === '' ? label : out;
}

/**
 * The first day of a window of `days` days ending on `end` (inclusive), or undefined for "all"
 * (`days` null or not positive).
 */
export function windowStart(end: string, days: number | null): string | undefined {
  return days !== null && days > 0 ? addDays(end, -(Math.floor(days) - 1)) : undefined;
}

/** The latest point of each series: `{day, value}` or null when the series has no value. */
export function latestPoints(data: ChartData): ({ day: string; value: number } | null)[] {
  return data.values.map((vs) => {
    for (let i = vs.length - 1; i >= 0; i--) {
      const v = vs[i];
      if (v !== null) return { day: data.days[i], value: v };
    }
    return null;
  });
}

/** A short text of a series value for legends and summaries (no artefacts, '' for none). */
export function pointText(v: number | null | undefined): string {
  return v === null || v === undefined ? '' : valueText(v);
}
