/**
 * Samples → rows per local date, per the catalogue's aggregation kind (docs/HEALTH-AUTO-EXPORT.md
 * "aggregate per date, upsert by date"; docs/HEALTH-AUTO-EXPORT.md pitfalls "Duplicates / re-sends" and
 * "Multiple sources / aggregation").
 *
 * A day's row is a function of the set of its samples: neither their order nor how they were
 * batched into pushes or files changes it. (A sample's stored `span` says whether the block it
 * came in looked daily; the same sample sent in another push can have the other span, so it is
 * not read here.)
 *
 * Before any kind runs:
 * - samples with the same `dedupKey` count once (a payload posted twice adds nothing);
 * - a sample holding NaN or ±Infinity (extraction never makes one, a store might) is ignored;
 * - versions of one point (same metric, instant, source and `seq`, different values: the day
 *   or hour in progress sent partially, later complete; or the same point stored once per span)
 *   collapse to one, by a rule on the values alone, so arrival order never matters (versions.ts:
 *   `sum`/`max` keep the largest, the complete bucket — 230.94 then 413 steps → 413, a partial 71
 *   sent after the complete 19794 → 19794; `min`/`max` fields the smallest/largest; `mean`/`last`
 *   average the versions).
 * Copies of one sample (`seq` 1, 2 ...: one payload or file held it several times) are distinct
 * samples and count each time (docs "Same-instant samples").
 *
 * Overlapping sources, the rule (for `sum`; the other kinds cannot double count):
 * HAE reports one point per bucket per set of contributing devices, joined with `|`
 * (`User’s Apple Watch|iPhone|Oura`); that combined point is what Apple Health shows, already
 * de-duplicated across devices by HealthKit. Per date:
 * 1. a point stamped at local midnight is a reading of the day's total (HAE's daily "Summarize
 *    data" points) unless a point of a source set sharing a device with it, at another instant of
 *    the day, is larger (then it is the first minute or hour of the day, e.g. 400 steps after
 *    midnight next to a 3000-step hour), or it says it covers part of the day only (`partOfDay`:
 *    an Apple Health record from 00:00 to 00:10, whose span is known; an HAE point has a time
 *    stamp only); its copies add up to one reading per source set;
 * 2. the other points are grouped into families of sources that share a device, and each
 *    family's points are summed into one reading (at one instant, of several points only those
 *    not contained in another's source set, and of those the largest source set's total — its
 *    copies added — is counted);
 * 3. a reading whose source set is strictly contained in another's is dropped (the combined
 *    `a|b` reading already includes it);
 * 4. of the readings left (independent devices, or a day total next to the same day's samples),
 *    the largest is the day's value. Readings are never added to each other, so neither a second
 *    device nor a daily row next to hourly rows (pitfall: 32,361 vs 16,652 steps) double counts.
 *    Except for what is logged, not measured (`loggedIntake`: food, water, drinks, insulin): there
 *    the readings of sources that share no device are separate intakes and are added (the
 *    largest of each group sharing a device counted), as Apple Health adds them; when one of
 *    them has no source, which device it came from cannot be told, and the largest is taken.
 * `mean` drops, at each instant, points covered by a combined point, then averages the rest
 * (copies each count); `last` takes the latest instant (ties: the combined point, then of points
 * at one instant not covered, the one with the smallest dedupKey: an order-free pick);
 * `max`/`min` fields are order- and overlap-free.
 */
import { type CatalogueEntry, resolveMetric } from './catalogue.js';
import { byDate, finishRow, type HaeRow } from './rows.js';
import type { Sample } from './sample.js';
import { sleepRows } from './sleep-nights.js';
import { dropCoveredSources, overlaps, type SourceSet, sourceSet, sourceSetKey } from './sources.js';
import { canonicalTimestamp, type HaeTime, parseHaeTimestamp } from './timestamps.js';
import { mergeVersions } from './versions.js';
import { workoutRows } from './workouts-merge.js';

export type { HaeRow } from './rows.js';

/**
 * All rows a metric's samples make: `metricKey` is a catalogue key or alias, `samples` any samples
 * (other metrics' are ignored) in any order. Returns rows `{date, ...fields}` sorted by date,
 * fields in canonical units rounded per field, absent rather than zero/NaN. An unknown metric → [].
 * `zone`: the person's (sleepRows: bed and wake times of stamps written in UTC).
 */
export function aggregateRows(metricKey: string, samples: readonly Sample[], zone?: string): HaeRow[] {
  const entry = resolveMetric(metricKey);
  if (!entry) return [];
  const seen = new Set<string>();
  const mine = samples.filter((s) => {
    if (s.metric !== entry.reads || seen.has(s.dedupKey) || !allFinite(s)) return false;
    seen.add(s.dedupKey);
    return true;
  });
  if (entry.kind === 'sleep') return sleepRows(entry, mine, zone);
  if (entry.kind === 'workouts') return workoutRows(entry, mine);

  // each sample's stamp is parsed once here, not again per field and per step
  const times: Times = { parsed: new Map(), zone };
  for (const s of mine) times.parsed.set(s, parseHaeTimestamp(s.at, zone));
  const current = mergeVersions(entry, mine, (s) => {
    const t = times.parsed.get(s);
    return `${t ? canonicalTimestamp(t) : s.at}|${s.source ?? ''}|${copyOf(entry, s)}`;
  });
  const byDay = new Map<string, Sample[]>();
  for (const s of current) {
    const day = byDay.get(s.date);
    if (day) day.push(s);
    else byDay.set(s.date, [s]);
  }
  const rows: HaeRow[] = [];
  for (const [date, day] of byDay) {
    const row = finishRow(
      entry,
      date,
      day.length === 1 ? loneValues(entry, day[0]) : dayValues(entry, day, times),
    );
    if (row) rows.push(row);
  }
  return byDate(rows);
}

/** False when a sample carries NaN or ±Infinity: such a sample is treated as never sent. */
function allFinite(s: Sample): boolean {
  for (const v of Object.values(s.values)) if (typeof v === 'number' && !Number.isFinite(v)) return false;
  return true;
}

/**
 * The parsed `at` of each sample aggregateRows was given (null: it does not parse), on the clock
 * of `zone`, the person's (a stamp written in UTC: instant-zone.ts). A sample made there by
 * merging versions is not in it: timeOf parses its stamp.
 */
interface Times {
  parsed: Map<Sample, Readonly<HaeTime> | null>;
  zone: string | undefined;
}

function timeOf(s: Sample, times: Times): Readonly<HaeTime> | null {
  const t = times.parsed.get(s);
  return t === undefined ? parseHaeTimestamp(s.at, times.zone) : t;
}

interface Point {
  value: number;
  set: SourceSet;
  /** The instant, ms (0 when unreadable). */
  at: number;
  /** Stamped at local midnight (`00:00:00` as written). */
  midnight: boolean;
  /** Which copy of an identical sample this is, and what it names (copyOf). */
  copy: string;
  /** Known to cover part of its day only (`partOfDay`): never the day's total. */
  partOfDay: boolean;
}

/**
 * Which copy of a sample `s` is (`seq`, 0 for the first), with the texts it names (the entry's
 * `textFields`: a medication, a symptom, an insulin's reason): two samples of one source at one
 * instant that name different things (two medications taken at 08:00, a basal and a bolus insulin)
 * are two entries, both counted, never versions of one.
 */
function copyOf(entry: CatalogueEntry, s: Sample): string {
  const seq = typeof s.values.seq === 'number' ? s.values.seq : 0;
  if (!entry.textFields) return String(seq);
  let key = String(seq);
  for (const t of entry.textFields) {
    const v = s.values[t];
    key += `|${typeof v === 'string' ? v : ''}`;
  }
  return key;
}

function pointsOf(entry: CatalogueEntry, day: readonly Sample[], field: string, times: Times): Point[] {
  const out: Point[] = [];
  for (const s of day) {
    const v = s.values[field];
    if (typeof v === 'number' && Number.isFinite(v)) {
      const t = timeOf(s, times);
      out.push({
        value: v,
        set: sourceSet(s.source),
        at: t?.epochMs ?? 0,
        midnight: t?.time === '00:00:00',
        copy: copyOf(entry, s),
        partOfDay: s.values.partOfDay === true,
      });
    }
  }
  return out;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string | number): T[][] {
  const groups = new Map<string | number, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const g = groups.get(k);
    if (g) g.push(item);
    else groups.set(k, [item]);
  }
  return [...groups.values()];
}

/** Of points at one instant: those not covered by a combined point (rule in the module comment). */
function uncovered(points: readonly Point[]): Point[] {
  return dropCoveredSources(points, (p) => p.set);
}

/** Largest / smallest value (a loop: a day of second-level samples is too many for `Math.max(...)`). */
function maxOf(values: readonly number[]): number | undefined {
  let m: number | undefined;
  for (const v of values) if (m === undefined || v > m) m = v;
  return m;
}

function minOf(values: readonly number[]): number | undefined {
  let m: number | undefined;
  for (const v of values) if (m === undefined || v < m) m = v;
  return m;
}

/** Families of sub-daily points whose source sets share a device; unknown sources form one family. */
function families(points: readonly Point[]): Point[][] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r) as string;
    parent.set(x, r);
    return r;
  };
  for (const p of points) {
    for (const name of p.set ?? []) if (!parent.has(name)) parent.set(name, name);
    const [first, ...rest] = p.set ?? [];
    for (const name of rest) parent.set(find(name), find(first));
  }
  return groupBy(points, (p) => (p.set === null ? '\u0000unknown' : find(p.set[0])));
}

/** True when the two sets share a device; unknown sources (null) share with each other only. */
function sharesSource(a: SourceSet, b: SourceSet): boolean {
  return a === null ? b === null : overlaps(a, b);
}

/**
 * True when midnight point `p` reads as the day's total (rule step 1): it does not say it covers
 * part of the day only, and no point of a source set sharing a device with it, at another
 * instant, is larger.
 */
function isDayReading(p: Point, points: readonly Point[]): boolean {
  if (!p.midnight || p.partOfDay) return false;
  for (const q of points) if (q.value > p.value && q.at !== p.at && sharesSource(p.set, q.set)) return false;
  return true;
}

/**
 * Points of one source set at one instant: each copy (`copy`: its `seq` and what it names) once — of several points with one
 * copy number (the same set spelt in two orders), the largest — and the copies added.
 */
function copiesTotal(points: readonly Point[]): number {
  let total = 0;
  for (const copy of groupBy(withoutUnnamedTwins(points), (p) => p.copy))
    total += maxOf(copy.map((p) => p.value)) ?? 0;
  return total;
}

/** A copy key naming no text (`0`, `0|`, `1||`): the entry has no text fields, or the point filled none. */
const NAMES_NOTHING = /^\d+\|*$/;

/**
 * `points` (one source set at one instant) without the points that name nothing and hold the value
 * of a point that names something (`0|` beside `0|Bolus`, both 3): the same reading, stored before
 * its text was read (an Apple Health export imported before the insulin's reason was), which would
 * otherwise be added to it.
 */
function withoutUnnamedTwins(points: readonly Point[]): readonly Point[] {
  const named = points.filter((p) => p.copy.includes('|') && !NAMES_NOTHING.test(p.copy));
  if (named.length === 0) return points;
  return points.filter((p) => !NAMES_NOTHING.test(p.copy) || !named.some((n) => n.value === p.value));
}

/** The value of one instant of a family: the largest total of the source sets not covered there. */
function instantValue(points: readonly Point[]): number {
  return maxOf(groupBy(uncovered(points), (p) => sourceSetKey(p.set)).map(copiesTotal)) ?? 0;
}

/**
 * The day's total of one `sum` field (rule steps 1–4 of the module comment); `addSources`: the
 * metric is a logged intake, whose sources sharing no device are added.
 */
function dayTotal(points: readonly Point[], addSources: boolean): number | undefined {
  const daily: Point[] = [];
  const rest: Point[] = [];
  for (const p of points) (isDayReading(p, points) ? daily : rest).push(p);
  const readings: { value: number; set: SourceSet }[] = [];
  for (const atInstant of groupBy(daily, (p) => p.at)) {
    for (const ofSet of groupBy(atInstant, (p) => sourceSetKey(p.set))) {
      readings.push({ value: copiesTotal(ofSet), set: ofSet[0].set });
    }
  }
  for (const family of families(rest)) {
    let total = 0;
    // one point at an instant is its own value (what instantValue makes of it)
    for (const atInstant of groupBy(family, (p) => p.at))
      total += atInstant.length === 1 ? atInstant[0].value : instantValue(atInstant);
    const names = new Set<string>();
    for (const p of family) for (const n of p.set ?? []) names.add(n);
    readings.push({ value: total, set: names.size ? [...names].sort() : null });
  }
  const left = dropCoveredSources(readings, (r) => r.set);
  return addSources ? intakeTotal(left) : maxOf(left.map((r) => r.value));
}

/**
 * Readings of a logged intake: the largest of each group of readings whose sources share a
 * device, the groups added; the largest alone when a reading's source is unknown (it may be any
 * of the others').
 */
function intakeTotal(readings: readonly { value: number; set: SourceSet }[]): number | undefined {
  if (readings.some((r) => r.set === null)) return maxOf(readings.map((r) => r.value));
  const groups: { names: Set<string>; value: number }[] = [];
  for (const r of readings) {
    const names = new Set(r.set);
    let value = r.value;
    // the groups this reading shares a device with become one with it
    for (let i = groups.length - 1; i >= 0; i--) {
      const g = groups[i];
      if (![...g.names].some((n) => names.has(n))) continue;
      for (const n of g.names) names.add(n);
      value = Math.max(value, g.value);
      groups.splice(i, 1);
    }
    groups.push({ names, value });
  }
  return groups.length ? groups.reduce((sum, g) => sum + g.value, 0) : undefined;
}

function mean(values: number[]): number | undefined {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : undefined;
}

/**
 * dayValues of a date with one sample (a daily payload has one a date): every kind reads a lone
 * point as its own value (the sum, mean, minimum, maximum or latest of one number is that number;
 * `any` is true), so the field values are the sample's finite numbers, without the machinery that
 * weighs several points and sources against each other.
 */
function loneValues(entry: CatalogueEntry, s: Sample): Record<string, number | boolean | undefined> {
  const out: Record<string, number | boolean | undefined> = {};
  for (const f of entry.fields) {
    if (entry.kind === 'any') {
      out[f.name] = true;
      continue;
    }
    const v = s.values[f.name];
    if (typeof v === 'number' && Number.isFinite(v)) out[f.name] = v;
  }
  return out;
}

/** Unrounded field values of one date for the non-sleep, non-workout kinds. */
function dayValues(
  entry: CatalogueEntry,
  day: readonly Sample[],
  times: Times,
): Record<string, number | boolean | undefined> {
  const out: Record<string, number | boolean | undefined> = {};
  if (entry.kind === 'last') {
    const candidates = day
      .map((s) => ({ s, at: timeOf(s, times)?.epochMs ?? 0, set: sourceSet(s.source) }))
      .filter(({ s }) => entry.fields.some((f) => typeof s.values[f.name] === 'number'));
    if (!candidates.length) return out;
    const latest = maxOf(candidates.map((c) => c.at));
    const ties = dropCoveredSources(
      candidates.filter((c) => c.at === latest),
      (c) => c.set,
    );
    let pick = ties[0].s;
    for (const c of ties) if (c.s.dedupKey < pick.dedupKey) pick = c.s;
    for (const f of entry.fields) {
      const v = pick.values[f.name];
      if (typeof v === 'number') out[f.name] = v;
    }
    return out;
  }
  for (const f of entry.fields) {
    if (entry.kind === 'any') {
      out[f.name] = day.length > 0 ? true : undefined;
      continue;
    }
    const points = pointsOf(entry, day, f.name, times);
    if (!points.length) continue;
    const values = points.map((p) => p.value);
    if (f.reduce === 'min') out[f.name] = minOf(values);
    else if (f.reduce === 'max' || entry.kind === 'max') out[f.name] = maxOf(values);
    else if (entry.kind === 'sum') out[f.name] = dayTotal(points, entry.loggedIntake === true);
    else out[f.name] = mean(uncoveredValues(points));
  }
  return out;
}

/** The values of the points not covered at their instant, instant by instant (`mean`'s rule). */
function uncoveredValues(points: readonly Point[]): number[] {
  const out: number[] = [];
  for (const g of groupBy(points, (p) => p.at)) {
    // a point alone at its instant is not covered
    if (g.length === 1) out.push(g[0].value);
    else for (const p of uncovered(g)) out.push(p.value);
  }
  return out;
}
