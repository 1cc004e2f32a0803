/**
 * The span of days the charts show (Trends' range chooser: 7, 30, 90, 365 days or all), one
 * choice for every chart on the page, remembered in localStorage. The window ends on the day a
 * chart is drawn for (today on Trends).
 */
import { signal } from '@preact/signals';

/** A span in days, or null for everything. */
export type ChartRange = number | null;

/** The choices offered, in order. */
export const CHART_RANGES: { value: ChartRange; label: string; long: string }[] = [
  { value: 7, label: '7d', long: 'the last 7 days' },
  { value: 30, label: '30d', long: 'the last 30 days' },
  { value: 90, label: '90d', long: 'the last 90 days' },
  { value: 365, label: '1y', long: 'the last year' },
  { value: null, label: 'All', long: 'all time' },
];

/** The span used when the person has not chosen one. */
export const DEFAULT_CHART_RANGE: ChartRange = 90;

const STORAGE_KEY = 'klebb.trends.range';

function stored(): ChartRange {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    if (v === 'all') return null;
    const n = Number(v);
    return CHART_RANGES.some((r) => r.value === n) ? n : DEFAULT_CHART_RANGE;
  } catch {
    return DEFAULT_CHART_RANGE;
  }
}

/** The current span. */
export const chartRange = signal<ChartRange>(stored());

/** Sets and remembers the span. */
export function setChartRange(range: ChartRange): void {
  chartRange.value = range;
  try {
    localStorage.setItem(STORAGE_KEY, range === null ? 'all' : String(range));
  } catch {
    // private mode: the choice lasts for this page only
  }
}

/** "the last 30 days", "all time". */
export function rangeText(range: ChartRange): string {
  return CHART_RANGES.find((r) => r.value === range)?.long ?? `the last ${range} days`;
}
