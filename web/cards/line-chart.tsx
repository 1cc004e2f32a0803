/**
 * `line-chart` (and its aliases `area-chart`, `bar-chart`):
 * a card's dated rows drawn with uPlot, one point per day (src/common/chart-series.ts reads the
 * config and shapes the points). uPlot is loaded only when a chart is drawn (dynamic import), so it
 * is not part of the first page's JavaScript.
 *
 * Dates are calendar dates: each day is placed at its UTC midnight and uPlot formats
 * the axis in UTC, so a row dated 20 April sits on 20 April in every time zone. Colours follow the
 * theme (the page's CSS variables), the chart follows its container's width, a missing value is a
 * gap, and the window is Trends' range chooser (chart-range.ts) ending on the day drawn for.
 * Colours reach the page through the CSSOM (Preact's style objects, uPlot's canvas), which the
 * page's Content-Security-Policy allows; never as style attributes in markup.
 *
 * Honest drawing: the line breaks where the card went unmeasured for longer than its rhythm
 * (src/common/gaps.ts: `cadence.expectDays`, else twice the typical spacing), a day's point made
 * from several readings says so ("daily average of 2 readings"), the legend does not repeat the
 * unit, and numbers and days are written in the person's locale (lib/format.ts).
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type uPlot from 'uplot';
import {
  aggregateNote,
  type ChartConfig,
  type ChartData,
  chartConfigOf,
  chartData,
  latestPoints,
  legendLabel,
  mostReadingsPerDay,
  windowStart,
} from '../../src/common/chart-series.js';
import { utcMs } from '../../src/common/dates.js';
import { getValue } from '../../src/common/display-template.js';
import { expectDaysOf, gapLimit, segmentsOf, withGapBreaks } from '../../src/common/gaps.js';
import { COMPACT_FROM } from '../../src/common/locale-format.js';
import { toFiniteNumber } from '../../src/common/numbers.js';
import { dayOf } from '../../src/common/trend.js';
import { useCardData } from '../lib/card-data.js';
import { compact, daySeconds, day as dayText, num } from '../lib/format.js';
import { shownTheme } from '../lib/theme.js';
import { chartRange, rangeText, setChartRange } from './chart-range.js';
import type { RendererProps } from './registry.js';
import { RendererNote } from './renderer-note.js';
import '../styles/cards/line-chart.css';

/** Series colours when the manifest gives none: readable on both themes, told apart without hue alone. */
export const CHART_PALETTE = ['#2f8f6f', '#0ea5e9', '#f59e0b', '#e11d48', '#8b5cf6', '#64748b'];

const DAY_S = 86_400;

/** The fields other than `xField` that hold a number in some of the latest 50 rows, in order of first use. */
function numericFields(rows: readonly unknown[], xField: string): string[] {
  const out: string[] = [];
  for (const r of rows.slice(-50)) {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) continue;
    for (const [k, v] of Object.entries(r)) {
      if (k !== xField && k !== 'date' && !out.includes(k) && toFiniteNumber(v) !== null) out.push(k);
    }
  }
  return out.slice(0, 6);
}

/** Steps between x-axis labels, in seconds: days, weeks, months, years (uPlot picks one). */
const X_INCREMENTS = [1, 2, 3, 7, 14, 30, 61, 91, 182, 365, 730, 1826, 3652].map((d) => d * DAY_S);

let uplotLoad: Promise<typeof uPlot> | null = null;

/** uPlot and its stylesheet, loaded once on first use. */
function loadUplot(): Promise<typeof uPlot> {
  uplotLoad ??= Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([m]) => m.default);
  return uplotLoad;
}

/**
 * Seconds since the epoch of a calendar day's UTC midnight. By utcMs, not `Date.UTC`, which reads
 * the years 0 to 99 as 1900 to 1999: a reading dated 0026 would be drawn in 1926.
 */
export function dayToSeconds(day: string): number {
  return utcMs(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / 1000;
}

/** "20 Apr" (with the year when `withYear`), in the person's locale. */
export function shortDay(day: string, withYear = false): string {
  return dayText(day, withYear ? 'short-year' : 'short');
}

function hexAlpha(colour: string, alpha: number): string | undefined {
  const m = /^#([0-9a-f]{6})$/i.exec(colour) ?? /^#([0-9a-f]{3})$/i.exec(colour);
  if (!m) return undefined;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  const n = Number.parseInt(h, 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

function cssVar(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

/**
 * The y axis' labels: when any of them reaches COMPACT_FROM all are written compactly ("0, 500M,
 * 1B"; German "1 Mrd."), so 999 999 999 steps never need more room than the axis has.
 */
function yAxisLabels(splits: number[]): string[] {
  const big = splits.some((v) => Math.abs(v) >= COMPACT_FROM);
  return splits.map((v) => (big ? compact(v, { from: 1 }) : num(v)));
}

const AXIS_FONT = '12px system-ui, sans-serif';
let measurer: CanvasRenderingContext2D | null | undefined;

/** The y axis' width in CSS pixels: its widest label plus the gap, at least 44. */
function yAxisWidth(labels: string[] | null): number {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!labels || !measurer) return 44;
  measurer.font = AXIS_FONT;
  const widest = Math.max(0, ...labels.map((t) => measurer?.measureText(t).width ?? 0));
  return Math.max(44, Math.ceil(widest) + 12);
}

/** A value under the chart: whole below a million, compact above (1e308 stays one short word). */
const legendNumber = (v: number) => compact(v, { from: 1_000_000 });

/** The uPlot options of a chart. */
function plotOptions(
  U: typeof uPlot,
  el: HTMLElement,
  config: ChartConfig,
  points: ChartData,
  colours: string[],
  width: number,
  onHover: (idx: number | null) => void,
  lastDay: string,
): uPlot.Options {
  const muted = cssVar(el, '--muted', '#6b6f76');
  const grid = cssVar(el, '--border', '#e4e1da');
  const first = points.days[0];
  const last = points.days[points.days.length - 1];
  const spanDays = first && last ? (dayToSeconds(last) - dayToSeconds(first)) / DAY_S : 0;
  const crossesYear = first?.slice(0, 4) !== last?.slice(0, 4);
  const bar = config.kind === 'bar';
  const tickText = (ts: number) => daySeconds(ts, spanDays > 240 ? 'month-year-short' : 'short');
  return {
    width,
    height: width < 480 ? 200 : 240,
    tzDate: (ts) => U.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    // the summary under the chart is the legend: the latest values, or the day under the cursor
    legend: { show: false },
    hooks: {
      setCursor: [(u) => onHover(u.cursor.idx ?? null)],
      // the x range drawn, in seconds, on the plot element (tests read it: a single day sits in the middle)
      setScale: [
        (u, key) => {
          if (key !== 'x') return;
          el.dataset.xMin = String(u.scales.x.min);
          el.dataset.xMax = String(u.scales.x.max);
        },
      ],
    },
    cursor: { drag: { x: false, y: false }, points: { size: 8 } },
    scales: {
      x: {
        time: true,
        range: (u, min, max) => {
          // never past the day drawn for (today): the right edge stays short of the next
          // midnight, so no tick names tomorrow
          const end = dayToSeconds(lastDay) + DAY_S / 2;
          // one day of data: uPlot widens it to [day, day + 1 day] itself (the point at the left edge),
          // so centre it in ±1 day from the data (a bar ±½ day), moved left when that would pass the end
          const xs = u.data?.[0];
          if (xs && xs.length > 0 && xs[0] === xs[xs.length - 1]) {
            const pad1 = bar ? DAY_S / 2 : DAY_S;
            const hi = Math.min(xs[0] + pad1, Math.max(end, xs[0] + DAY_S / 4));
            return [hi - 2 * pad1, hi];
          }
          const pad = bar ? DAY_S / 2 : min === max ? DAY_S : 0;
          return [min - pad, Math.min(max + pad, Math.max(end, max))];
        },
      },
      y: bar
        ? { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.08 : 1] }
        : {
            range: (_u, min, max) => {
              if (min === max)
                return [min - Math.max(1, Math.abs(min) * 0.1), max + Math.max(1, Math.abs(max) * 0.1)];
              const pad = (max - min) * 0.12;
              return [min - pad, max + pad];
            },
          },
    },
    axes: [
      {
        stroke: muted,
        grid: { show: false },
        ticks: { stroke: grid, width: 1, size: 4 },
        space: 56,
        // whole days at least: a chart of two days never labels hours as the same day twice
        incrs: X_INCREMENTS,
        values: (_u, splits) => splits.map(tickText),
      },
      {
        stroke: muted,
        grid: { stroke: grid, width: 1 },
        ticks: { show: false },
        label: config.yAxisLabel,
        labelSize: config.yAxisLabel ? 20 : 0,
        labelFont: AXIS_FONT,
        font: AXIS_FONT,
        size: (_u, values) => yAxisWidth(values),
        values: (_u, splits) => {
          const labels = yAxisLabels(splits);
          // the labels drawn, on the plot element (tests read them: the canvas has no text)
          el.dataset.yLabels = labels.join('|');
          return labels;
        },
      },
    ],
    series: [
      {
        label: 'Day',
        value: (_u, ts) =>
          ts === null || ts === undefined ? '—' : daySeconds(ts, crossesYear ? 'short-year' : 'short'),
      },
      ...config.series.map((s, i) => ({
        label: s.label,
        stroke: colours[i],
        width: 2,
        fill:
          config.kind === 'area' ? hexAlpha(colours[i], 0.16) : bar ? hexAlpha(colours[i], 0.7) : undefined,
        paths: bar ? U.paths.bars?.({ size: [0.6 / config.series.length, 48], align: 0 }) : undefined,
        points: { show: !bar && points.days.length <= 62, size: 6, fill: colours[i] },
        spanGaps: false,
        value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? '—' : legendNumber(v)),
      })),
    ],
  };
}

export function LineChart({ card, date }: RendererProps) {
  const { data, loading, error } = useCardData(card.id);
  const range = chartRange.value;
  const dark = shownTheme() === 'dark';
  const config = useMemo(() => chartConfigOf(card.viewConfig, data), [card.viewConfig, data]);
  const from = windowStart(date, range);
  const points = useMemo(() => chartData(data, config, { from, to: date }), [data, config, from, date]);
  const total = useMemo(
    () => (from ? chartData(data, config, { to: date }).days.length : points.days.length),
    [data, config, from, date, points],
  );
  const colours = config.series.map((s, i) => s.colour ?? CHART_PALETTE[i % CHART_PALETTE.length]);
  // the line stops where the card went unmeasured for longer than its rhythm
  const limit = gapLimit(points.days, expectDaysOf(card.meta));
  const plotted = useMemo(() => {
    const broken = withGapBreaks(points.days, points.values, limit);
    return { ...broken, counts: points.counts, at: new Map(points.days.map((d, i) => [d, i])) };
  }, [points, limit]);
  const plotRef = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [drawn, setDrawn] = useState(false);
  const [hover, setHover] = useState<number | null>(null);

  useEffect(() => {
    const el = plotRef.current;
    if (!el || points.days.length === 0) return;
    let chart: uPlot | null = null;
    let ro: ResizeObserver | null = null;
    let cancelled = false;
    setDrawn(false);
    setHover(null);
    loadUplot().then(
      (U) => {
        if (cancelled) return;
        const width = Math.max(160, Math.floor(el.clientWidth));
        const xs = plotted.days.map(dayToSeconds);
        chart = new U(
          plotOptions(U, el, config, points, colours, width, setHover, date),
          [xs, ...plotted.values],
          el,
        );
        setDrawn(true);
        ro = new ResizeObserver(() => {
          const w = Math.max(160, Math.floor(el.clientWidth));
          if (chart && Math.abs(w - chart.width) >= 2)
            chart.setSize({ width: w, height: w < 480 ? 200 : 240 });
        });
        ro.observe(el);
      },
      (err: unknown) => {
        if (!cancelled) setFailed(err instanceof Error ? err.message : String(err));
      },
    );
    return () => {
      cancelled = true;
      ro?.disconnect();
      chart?.destroy();
    };
    // colours is derived from config; dark re-reads the theme's CSS variables
  }, [plotted, config, dark, date]);

  if (data === undefined) {
    if (loading) return <RendererNote>Loading…</RendererNote>;
    return (
      <RendererNote tone="problem">
        Could not load this chart's data{error ? `: ${error.message}` : '.'}
      </RendererNote>
    );
  }
  const rows = Array.isArray(data) ? data : null;
  if (rows === null && data !== null) {
    return (
      <RendererNote tone="problem">
        This chart needs a list of dated rows; this card's data is{' '}
        {typeof data === 'object' ? 'an object' : 'a single value'}.
      </RendererNote>
    );
  }
  if (!rows || rows.length === 0)
    return <RendererNote>No entries yet. The chart appears after the first one.</RendererNote>;
  if (config.series.length === 0) {
    return (
      <RendererNote tone="problem">
        No numbers to draw yet: none of this card's entries holds a number. Ask the chat which value to chart.
      </RendererNote>
    );
  }
  if (total === 0 && !rows.some((r) => dayOf(getValue(r, config.xField)) !== null)) {
    return (
      <RendererNote tone="problem">
        No entry has a date written YYYY-MM-DD in “{config.xField}”, so none can be placed on the chart.
      </RendererNote>
    );
  }
  if (total === 0) {
    // dated rows, but not one holds a number in a field the chart draws: say which fields they have
    const held = numericFields(rows, config.xField);
    const wanted = config.series.map((s) => `“${s.field}”`).join(', ');
    return (
      <RendererNote tone="problem">
        No entry holds a number in {wanted}, which this chart draws
        {held.length > 0 ? `; the entries hold ${held.map((f) => `“${f}”`).join(', ')}.` : '.'}
      </RendererNote>
    );
  }
  if (failed) return <RendererNote tone="problem">The chart could not be drawn: {failed}</RendererNote>;

  // the pointer's column in the drawn data (break columns included), as a day of the chart's points
  const hoveredDay = hover !== null && hover >= 0 && hover < plotted.days.length ? plotted.days[hover] : null;
  const hovered = hoveredDay === null ? null : (plotted.at.get(hoveredDay) ?? null);
  const latest =
    hovered === null
      ? latestPoints(points)
      : points.values.map((vs) =>
          vs[hovered] === null ? null : { day: points.days[hovered], value: vs[hovered] as number },
        );
  const readingsOn = (i: number, d: string) => points.counts[i]?.[plotted.at.get(d) ?? -1] ?? 0;
  const unit = config.yAxisLabel;
  const combined = mostReadingsPerDay(points) > 1;
  const withYear = points.days.length > 0 && points.days[0].slice(0, 4) !== date.slice(0, 4);
  return (
    <figure
      class={`line-chart line-chart-${config.kind}`}
      data-series={config.series.map((s) => s.label).join('|')}
      data-fields={config.series.map((s) => s.field).join('|')}
      data-points={points.days.length}
      data-first={points.days[0] ?? ''}
      data-last={points.days[points.days.length - 1] ?? ''}
      data-drawn={drawn ? 'true' : 'false'}
      data-segments={segmentsOf(points.days, limit).length}
      data-gap-days={Number.isFinite(limit) ? limit : ''}
    >
      {config.title && config.title.toLowerCase() !== card.meta.label.toLowerCase() && (
        <figcaption class="line-chart-title">{config.title}</figcaption>
      )}
      {points.days.length === 0 ? (
        <div class="line-chart-empty">
          <RendererNote>
            Nothing in {rangeText(range)}
            {total > 0
              ? `; ${total === 1 ? 'one earlier day has' : `${total} earlier days have`} entries.`
              : '.'}
          </RendererNote>
          {total > 0 && (
            <button type="button" class="button line-chart-all" onClick={() => setChartRange(null)}>
              Show all time
            </button>
          )}
        </div>
      ) : (
        <>
          <div ref={plotRef} class="line-chart-plot" />
          <p class="line-chart-summary" aria-live="polite">
            {config.series.map((s, i) => {
              const p = latest[i];
              return (
                <span key={s.field} class="line-chart-latest">
                  <span
                    class="line-chart-swatch"
                    aria-hidden="true"
                    style={{ backgroundColor: colours[i] }}
                  />
                  {legendLabel(s.label, unit)} {p ? <strong>{legendNumber(p.value)}</strong> : '—'}
                  {p && unit && config.series.length === 1 ? ` ${unit}` : ''}
                  {p && <span class="muted"> · {shortDay(p.day, withYear)}</span>}
                  {p && readingsOn(i, p.day) > 1 && (
                    <span class="muted line-chart-combined">
                      {' '}
                      ({aggregateNote(config.aggregate, readingsOn(i, p.day))})
                    </span>
                  )}
                </span>
              );
            })}
          </p>
          {combined && (
            <p class="line-chart-note muted">
              {unit && config.series.length > 1 ? `All in ${unit}. ` : ''}Days with several readings show the{' '}
              {aggregateNote(config.aggregate)}.
            </p>
          )}
          {!combined && unit && config.series.length > 1 && (
            <p class="line-chart-note muted">All in {unit}.</p>
          )}
        </>
      )}
    </figure>
  );
}
