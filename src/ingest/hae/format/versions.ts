/**
 * Versions of one point: the same metric, instant, source, span and `seq` sent with different
 * values by different exports (docs/HEALTH-AUTO-EXPORT.md pitfall "the hour or day in progress is sent partially
 * and later complete"; a daily-grouped export made the morning of 2023-01-29 says 71 steps for that
 * day, one made in March says 19794 for the same midnight-stamped point of the same source).
 *
 * Which version is the complete one cannot be told from arrival order: an older, partial export
 * can arrive after the complete one (a re-run automation, a file posted by hand, a backfill). The
 * rule therefore depends only on the values, so every arrival order gives the same row, chosen per
 * aggregation kind:
 * - `sum` and `max`: the LARGEST version. A cumulative bucket (steps, distance, energy, water,
 *   nutrients, minutes…) and a running maximum only grow as the bucket fills, so the largest value
 *   is the bucket seen latest, i.e. complete (230.94 then 413 steps → 413; 71 vs 19794 → 19794).
 * - fields reduced with `min` (heart_rate `min`): the smallest version, and with `max` (heart_rate
 *   `max`) the largest, by the same monotonic argument.
 * - `mean` and `last` (averages and readings: HRV, SpO2, weight, resting HR, blood pressure…): no
 *   direction tells the partial from the complete value, so the versions are averaged (the result
 *   lies between them and does not depend on order). HAE's daily value of such a metric is itself
 *   an average of the day's readings.
 * - `any`: every version says "logged"; one is kept.
 * Of `sum`/`max` versions with the same value, one saying `partOfDay` is chosen (tieBefore).
 * Text fields (`mealTime`, `value`, `reason`) come from the chosen version (`sum`/`max`), or else
 * from the version with the smallest `dedupKey` (a fixed, order-free pick).
 * Sleep nights and workouts have their own version rules (sleep-nights.ts, workouts-merge.ts).
 */
import type { CatalogueEntry } from './catalogue.js';
import type { Sample, SampleValue } from './sample.js';

/**
 * `samples` (one metric, deduplicated, arrival order) with each group of versions (same `keyOf`)
 * replaced by one sample per the rule above, placed where the group first appears. Input not
 * modified; a group of one is passed through as is.
 */
export function mergeVersions(
  entry: CatalogueEntry,
  samples: readonly Sample[],
  keyOf: (s: Sample) => string,
): Sample[] {
  const keys = samples.map(keyOf);
  const groups = new Map<string, Sample[]>();
  for (let i = 0; i < samples.length; i++) {
    const g = groups.get(keys[i]);
    if (g) g.push(samples[i]);
    else groups.set(keys[i], [samples[i]]);
  }
  if (groups.size === samples.length) return samples.slice();
  const out: Sample[] = [];
  for (const g of groups.values()) out.push(g.length === 1 ? g[0] : mergeGroup(entry, g));
  return out;
}

/** The smallest-dedupKey sample of a group: an order-free pick when values do not decide. */
function byKey(group: readonly Sample[]): Sample {
  let pick = group[0];
  for (const s of group) if (s.dedupKey < pick.dedupKey) pick = s;
  return pick;
}

function numbers(group: readonly Sample[], field: string): number[] {
  const out: number[] = [];
  for (const s of group) {
    const v = s.values[field];
    if (typeof v === 'number' && Number.isFinite(v)) out.push(v);
  }
  return out;
}

/**
 * Of two versions with the same value: the one that says it covers part of its day only
 * (`partOfDay`, an Apple Health record) first, as that is known of the point, not guessed (the
 * same record imported before that was said is stored without it); then the smaller dedupKey.
 */
function tieBefore(a: Sample, b: Sample): boolean {
  const ap = a.values.partOfDay === true;
  if (ap !== (b.values.partOfDay === true)) return ap;
  return a.dedupKey < b.dedupKey;
}

/** One sample standing for a group of versions (rule in the module comment). */
function mergeGroup(entry: CatalogueEntry, group: readonly Sample[]): Sample {
  if (entry.kind === 'sum' || entry.kind === 'max') {
    const field = entry.fields[0].name;
    let pick: Sample | undefined;
    for (const s of group) {
      const v = s.values[field];
      if (typeof v !== 'number') continue;
      const best = pick?.values[field] as number | undefined;
      if (pick === undefined || best === undefined || v > best || (v === best && tieBefore(s, pick))) {
        pick = s;
      }
    }
    return pick ?? byKey(group);
  }
  const base = byKey(group);
  if (entry.kind === 'any') return base;
  const values: Record<string, SampleValue> = { ...base.values };
  for (const f of entry.fields) {
    const vs = numbers(group, f.name);
    if (!vs.length) continue;
    if (f.reduce === 'min') values[f.name] = Math.min(...vs);
    else if (f.reduce === 'max') values[f.name] = Math.max(...vs);
    else values[f.name] = vs.reduce((a, b) => a + b, 0) / vs.length;
  }
  return { ...base, values };
}
