/**
 * Small statistics over latency samples (milliseconds): nearest-rank percentiles, mean, min, max.
 * Pure functions; nothing here times anything.
 */

/** Summary of a sample set, all in the samples' unit. */
export interface Summary {
  n: number;
  min: number;
  median: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentile (p in 0..100) of already sorted values. */
export function percentileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Median (mean of the two middle values for an even count). */
export function medianSorted(sorted: readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const mid = n >> 1;
  return n % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Summarises `samples` (not modified). */
export function summarize(samples: readonly number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const sum = s.reduce((a, b) => a + b, 0);
  return {
    n: s.length,
    min: s[0] ?? Number.NaN,
    median: medianSorted(s),
    p95: percentileSorted(s, 95),
    p99: percentileSorted(s, 99),
    mean: s.length ? sum / s.length : Number.NaN,
    max: s[s.length - 1] ?? Number.NaN,
  };
}

/** Rounds to `digits` decimals (for printing and the JSON line). */
export function round(v: number, digits = 3): number {
  if (!Number.isFinite(v)) return v;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
