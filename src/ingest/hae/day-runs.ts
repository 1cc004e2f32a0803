/**
 * Sets of days kept as runs of consecutive days, as a memo keeps the days its samples fell on: a
 * body of two years of daily figures for forty metrics is forty short texts, not tens of
 * thousands of dates, so reading the memo back on a re-send stays cheap.
 */
import { neighbourDay } from './cards.js';

/** At most this many days are expanded from one run (far more than a century). */
const RUN_DAYS_MAX = 40_000;

/**
 * The runs of `dates` (local `YYYY-MM-DD`), ascending: `"2024-03-01"` for a day alone,
 * `"2024-03-01/2024-03-05"` for consecutive days, first and last included.
 */
export function dayRuns(dates: Iterable<string>): string[] {
  const sorted = ascendingOnce(dates);
  const runs: string[] = [];
  let first: string | undefined;
  let last: string | undefined;
  const close = () => {
    if (first !== undefined) runs.push(first === last ? first : `${first}/${last}`);
  };
  for (const d of sorted) {
    if (last !== undefined && neighbourDay(last, 1) === d) {
      last = d;
      continue;
    }
    close();
    first = d;
    last = d;
  }
  close();
  return runs;
}

/**
 * `dates` each once, ascending. A push's samples come in date order, so the dates usually are
 * already: they are then only checked, not sorted.
 */
function ascendingOnce(dates: Iterable<string>): string[] {
  const once = dates instanceof Set ? [...dates] : [...new Set(dates)];
  for (let i = 1; i < once.length; i++) if (once[i - 1] >= once[i]) return once.sort();
  return once;
}

/** Adds every day of `runs` (from dayRuns) to `into`. */
export function addRunDays(into: Set<string>, runs: readonly string[]): void {
  for (const run of runs) {
    const slash = run.indexOf('/');
    if (slash < 0) {
      into.add(run);
      continue;
    }
    const last = run.slice(slash + 1);
    let d = run.slice(0, slash);
    // a run whose ends are not days in order (never written so) stops at its first day
    for (let n = 0; n < RUN_DAYS_MAX; n++) {
      into.add(d);
      if (d >= last) break;
      const next = neighbourDay(d, 1);
      if (next <= d) break;
      d = next;
    }
  }
}
