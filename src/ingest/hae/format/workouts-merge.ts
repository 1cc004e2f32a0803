/**
 * Workout samples → one row per local start date (the `workouts` aggregation kind,
 * `workouts-merge-per-date`).
 */
import type { CatalogueEntry } from './catalogue.js';
import { byDate, finishRow, type HaeRow, instantOf } from './rows.js';
import type { Sample } from './sample.js';
import { localHourMinute, parseHaeTimestamp } from './timestamps.js';

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function sumOf(ws: readonly Sample[], field: string): number | undefined {
  const vs = ws.map((w) => num(w.values[field])).filter((v): v is number => v !== undefined);
  return vs.length ? vs.reduce((a, b) => a + b, 0) : undefined;
}

/**
 * Workout samples (already deduplicated) → rows `{date, trained: true, type?, durationMin?,
 * distanceKm?, calories?, avgHr?, maxHr?, elevationM?, startTime?}` sorted by date.
 * - One workout re-sent with more detail is one workout (workoutVersions); the one later in the
 *   input wins.
 * - Per date: `type` = the distinct workout names in start order joined with ", " (names are
 *   localised by the phone: kept as sent); durations, distances, calories and ascent are summed;
 *   `avgHr` is the duration-weighted mean of the workouts that have one (plain mean when a
 *   duration is missing); `maxHr` the highest; `startTime` the first start (local `HH:MM`).
 * - A field no workout of the day has is left out, never written as 0.
 */
export function workoutRows(entry: CatalogueEntry, samples: readonly Sample[]): HaeRow[] {
  const versions = workoutVersions(samples);
  const byDay = new Map<string, Sample[]>();
  for (const s of versions) byDay.set(s.date, [...(byDay.get(s.date) ?? []), s]);

  const rows: HaeRow[] = [];
  for (const [date, day] of byDay) {
    day.sort((a, b) => (instantOf(a.at) ?? 0) - (instantOf(b.at) ?? 0));
    const types = [...new Set(day.map((w) => String(w.values.type ?? 'Workout')))];
    const withHr = day.filter((w) => num(w.values.avgHr) !== undefined);
    let avgHr: number | undefined;
    if (withHr.length) {
      const weighted = withHr.every((w) => num(w.values.durationMin) !== undefined);
      const weight = (w: Sample) => (weighted ? (w.values.durationMin as number) : 1);
      const total = withHr.reduce((a, w) => a + weight(w), 0);
      avgHr = withHr.reduce((a, w) => a + (w.values.avgHr as number) * weight(w), 0) / total;
    }
    const maxes = day.map((w) => num(w.values.maxHr)).filter((v): v is number => v !== undefined);
    const row = finishRow(entry, date, {
      trained: true,
      type: types.join(', '),
      durationMin: sumOf(day, 'durationMin'),
      distanceKm: sumOf(day, 'distanceKm'),
      calories: sumOf(day, 'calories'),
      avgHr,
      maxHr: maxes.length ? Math.max(...maxes) : undefined,
      elevationM: sumOf(day, 'elevationM'),
      startTime: typeof day[0].values.startTime === 'string' ? day[0].values.startTime : undefined,
    });
    if (row) rows.push(row);
  }
  return byDate(rows);
}

/**
 * The keys that make two workout samples versions of one workout: the v2 `id`, the start and end
 * instants (start and name when the end is unknown), and the start and end on the local clock to
 * the minute. The same session reaches Klebb without an id from an Apple Health export or a v1
 * push and with one from a v2 push, and under other names (`Running` from the export, `Outdoor
 * Run` from the app, either in the phone's language), so neither the id nor the name alone can
 * tell; and the app's CSV export writes its start and end to the minute, without seconds or
 * offset (`2026-05-16 12:47`), so only the minutes of the clock tell it is the session the JSON
 * export or an Apple Health export sent to the second. Two sessions never start and end at the
 * same seconds, nor in the same two minutes.
 */
function workoutKeys(s: Sample): string[] {
  const keys = typeof s.values.id === 'string' ? [`id:${s.values.id}`] : [];
  const start = instantOf(s.at) ?? s.at;
  const end = typeof s.values.end === 'string' ? instantOf(s.values.end) : undefined;
  keys.push(end !== undefined ? `span:${start}|${end}` : `start:${start}|${String(s.values.type)}`);
  const endClock = typeof s.values.end === 'string' ? parseHaeTimestamp(s.values.end) : null;
  if (endClock && typeof s.values.startTime === 'string')
    keys.push(`clock:${s.date} ${s.values.startTime}|${endClock.date} ${localHourMinute(endClock)}`);
  return keys;
}

/**
 * Of samples that are versions of one workout (sharing any key of workoutKeys, directly or
 * through another version), only the one that comes last in the input, in input order (the store
 * passes samples in arrival order, so the latest sent wins).
 */
function workoutVersions(samples: readonly Sample[]): Sample[] {
  const group = samples.map((_, i) => i);
  const root = (i: number): number => {
    while (group[i] !== i) i = group[i] = group[group[i]];
    return i;
  };
  const firstWithKey = new Map<string, number>();
  for (let i = 0; i < samples.length; i++) {
    for (const key of workoutKeys(samples[i])) {
      const j = firstWithKey.get(key);
      if (j === undefined) firstWithKey.set(key, i);
      else group[root(i)] = root(j);
    }
  }
  const last = new Map<number, number>();
  for (let i = 0; i < samples.length; i++) last.set(root(i), i);
  return samples.filter((_, i) => last.get(root(i)) === i);
}
