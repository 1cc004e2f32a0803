/**
 * The SVG path of a card's sparkline (docs/MANIFEST-SCHEMA.md `showSparkline`, "Sparkline gaps"):
 * points placed by date, so a missed week is a space and not a squeeze; several readings of one
 * day side by side within that day, in their order (no silent averaging); one `M … L …` run per
 * stretch of points no further apart than the gap limit (gaps.ts), a lone point a zero-length
 * run (a dot, drawn with round caps). Shared by the server and the browser: no Node imports.
 */

import { daysBetween } from './dates.js';
import { segmentsOf } from './gaps.js';
import { largest, smallest } from './numbers.js';
import type { NumericPoint } from './trend.js';

/** A sparkline's path `d` and where its last point is (for the marker), as SVG number text. */
export interface SparklineShape {
  d: string;
  last: [string, string];
}

/**
 * The path of `points` (oldest first, at least one) in a `w` × `h` box with a 2 px inset
 * sideways and 3 px up and down; runs break where neighbouring days are more than `limit` apart.
 */
export function sparklinePath(
  points: readonly NumericPoint[],
  limit: number,
  w: number,
  h: number,
): SparklineShape {
  const values = points.map((p) => p.value);
  const min = smallest(values);
  const max = largest(values);
  const span = max - min || 1;
  const first = points[0].date;
  // the k-th of n readings of a day sits k/n of the way into that day
  const pos: number[] = [];
  for (let i = 0; i < points.length; ) {
    let j = i;
    while (j < points.length && points[j].date === points[i].date) j++;
    const base = daysBetween(first, points[i].date);
    for (let k = i; k < j; k++) pos.push(base + (k - i) / (j - i));
    i = j;
  }
  const width = Math.max(1, pos[pos.length - 1]);
  const xy = (i: number): [string, string] => {
    const x = points.length === 1 ? w / 2 : (pos[i] / width) * (w - 4) + 2;
    const y = h - 3 - ((points[i].value - min) / span) * (h - 6);
    return [x.toFixed(1), y.toFixed(1)];
  };
  // runs are cut between days, never inside one
  const days = [...new Set(points.map((p) => p.date))];
  const firstOfDay = new Map<string, number>();
  const lastOfDay = new Map<string, number>();
  points.forEach((p, i) => {
    if (!firstOfDay.has(p.date)) firstOfDay.set(p.date, i);
    lastOfDay.set(p.date, i);
  });
  const d = segmentsOf(days, limit)
    .map(([a, b]) => {
      const from = firstOfDay.get(days[a]) as number;
      const to = lastOfDay.get(days[b]) as number;
      const run: string[] = [];
      for (let i = from; i <= to; i++) run.push(xy(i).join(' '));
      return `M${run[0]} L${(run.length === 1 ? run : run.slice(1)).join(' L')}`;
    })
    .join(' ');
  return { d, last: xy(points.length - 1) };
}
