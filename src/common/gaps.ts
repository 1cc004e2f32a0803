/**
 * Gaps in a card's days: where a chart or sparkline line must break instead of drawing a straight
 * line across weeks nobody measured (docs/MANIFEST-SCHEMA.md "line-chart", `cadence`). Two
 * neighbouring points further apart than the card's rhythm are not joined: the rhythm is
 * `meta.cadence.expectDays` when the card sets it, else twice the typical spacing of its points
 * (the median distance between neighbours, so a daily card bridges one missed day but not two,
 * and a weekly card bridges a week but not a month). Shared by the server and the browser.
 */

import { daysBetween } from './dates.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `meta.cadence.expectDays` when it is a whole number from 1 to 730, else undefined. */
export function expectDaysOf(meta: unknown): number | undefined {
  const c = isObj(meta) && isObj(meta.cadence) ? meta.cadence.expectDays : undefined;
  return typeof c === 'number' && Number.isInteger(c) && c >= 1 && c <= 730 ? c : undefined;
}

/**
 * The median of whole-day distances between neighbouring `days` (sorted `YYYY-MM-DD`; a day
 * repeated for several readings counts once), or undefined for fewer than two distinct days.
 */
export function typicalSpacing(days: readonly string[]): number | undefined {
  const steps: number[] = [];
  for (let i = 1; i < days.length; i++) {
    const step = daysBetween(days[i - 1], days[i]);
    if (step > 0) steps.push(step);
  }
  if (steps.length === 0) return undefined;
  steps.sort((a, b) => a - b);
  const mid = steps.length >> 1;
  return steps.length % 2 === 1 ? steps[mid] : (steps[mid - 1] + steps[mid]) / 2;
}

/**
 * The longest distance in days two neighbouring points may have and still be joined: `expectDays`
 * when given, else twice the typical spacing (at least 2, so a daily card bridges a missed day).
 * Infinity when there is nothing to go by (fewer than two points).
 */
export function gapLimit(days: readonly string[], expectDays?: number): number {
  if (expectDays !== undefined && expectDays >= 1) return expectDays;
  const typical = typicalSpacing(days);
  return typical === undefined ? Number.POSITIVE_INFINITY : Math.max(2, typical * 2);
}

/**
 * The runs of `days` (sorted `YYYY-MM-DD`) drawn as one line each: `[start, end]` positions,
 * inclusive, a new run wherever two neighbours are more than `limit` days apart.
 */
export function segmentsOf(days: readonly string[], limit: number): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 1; i <= days.length; i++) {
    if (i === days.length || daysBetween(days[i - 1], days[i]) > limit) {
      if (days.length > 0) out.push([start, i - 1]);
      start = i;
    }
  }
  return out;
}

/**
 * Chart columns with a break put in every gap: after each point more than `limit` days before the
 * next, one extra column at the day after it, holding null in every series, so a line drawn with
 * gaps kept (uPlot `spanGaps: false`) stops there and starts again. `breaks` is how many were put in.
 */
export function withGapBreaks(
  days: readonly string[],
  values: readonly (readonly (number | null)[])[],
  limit: number,
): { days: string[]; values: (number | null)[][]; breaks: number } {
  const outDays: string[] = [];
  const outValues: (number | null)[][] = values.map(() => []);
  let breaks = 0;
  for (let i = 0; i < days.length; i++) {
    outDays.push(days[i]);
    for (let s = 0; s < values.length; s++) outValues[s].push(values[s][i] ?? null);
    if (i + 1 < days.length && daysBetween(days[i], days[i + 1]) > limit) {
      const d = new Date(`${days[i]}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + 1);
      outDays.push(d.toISOString().slice(0, 10));
      for (const vs of outValues) vs.push(null);
      breaks++;
    }
  }
  return { days: outDays, values: outValues, breaks };
}
