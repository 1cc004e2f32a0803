/**
 * Reading workouts (docs/HEALTH-AUTO-EXPORT.md), v1 and v2, into one sample each.
 *
 * v1 (real, Mar 2023): no `id`, no `duration`; `{qty, units}` objects `activeEnergy`, `totalEnergy`,
 * `distance`, `avgHeartRate`, `maxHeartRate`, `elevation {ascent, descent, units}`, and
 * `heartRateData[] {date, qty, units}`. Fields not measured are written as 0 (a strength session
 * has `distance {qty: 0}`, `temperature {qty: 0}`, `intensity {qty: 0}`).
 * v2 (real, Aug 2025 / Mar 2026): `id`, `duration` in seconds, `activeEnergyBurned`, `distance`,
 * `elevationUp`, `heartRate {min, avg, max}` or `heartRateData[] {Min, Avg, Max}`, per-minute
 * `activeEnergy[]` series (partial: it covers only the minutes the watch logged, e.g. 4.4 kcal for
 * a 24-minute session, so it is never used as the workout's calories).
 * Units inside workouts follow the user's settings (`kJ`, `mi`, `ft`) and are converted.
 */
import { clipGraphemes, overGraphemes } from '../../../common/graphemes.js';
import { oneLineTitle } from '../../../common/title-text.js';
import { MAX_WORKOUT_ID_CHARS, MAX_WORKOUT_NAME_CHARS } from './limits.js';
import { readNumber } from './numbers.js';
import { type PointRead, type SampleValue, sourceOf } from './sample.js';
import { unreadable } from './timestamp-spellings.js';
import { localHourMinute, parseHaeTimestamp } from './timestamps.js';
import { conversionOf, convertRounded, DIMENSIONS, type Dimension, roundConverted } from './units.js';

/** A field of a workout left out because its unit is not known, for the warning. */
export interface WorkoutNote {
  reason: string;
  example: string;
}

/**
 * `{qty, units}` → the qty in `dimension` (units default to its canonical unit); undefined when
 * unreadable. A readable number in a unit the dimension does not know is noted in `notes` (the
 * field is left out with a warning, the workout kept). A converted value is rounded
 * (convertRounded); its exact value is put in `exact[key]` when rounding changed it (the sample is
 * keyed on the exact values, Sample.keyValues).
 */
function quantity(
  v: unknown,
  dimension: Dimension,
  unitsDefault = '',
  notes?: WorkoutNote[],
  field = '',
  exact?: Record<string, number>,
  key = '',
): number | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const n = readNumber(o.qty).value;
  if (n === undefined) return undefined;
  const units = typeof o.units === 'string' ? o.units : unitsDefault;
  const conv = conversionOf(dimension, units);
  if (conv === undefined) {
    if (notes) notes.push({ reason: `${field} in an unknown unit, left out`, example: units });
    return undefined;
  }
  const out = convertRounded(conv, n);
  const unrounded = typeof conv === 'number' ? n * conv : conv(n);
  if (exact && key && out !== unrounded) exact[key] = unrounded;
  return out;
}

/** Mean of `Avg` (v2) or `qty` (v1) and max of `Max` / `qty` over a heart-rate series. */
function heartRateSeries(series: unknown): { avg?: number; max?: number } {
  if (!Array.isArray(series)) return {};
  let sum = 0;
  let count = 0;
  let max: number | undefined;
  for (const p of series) {
    if (p === null || typeof p !== 'object') continue;
    const o = p as Record<string, unknown>;
    const avg = readNumber(o.Avg ?? o.avg ?? o.qty).value;
    const hi = readNumber(o.Max ?? o.max ?? o.qty).value;
    if (avg !== undefined) {
      sum += avg;
      count++;
    }
    if (hi !== undefined) max = max === undefined ? hi : Math.max(max, hi);
  }
  return { ...(count ? { avg: sum / count } : {}), ...(max !== undefined ? { max } : {}) };
}

/** How long after a workout's end its heart-rate recovery series can reach (it spans 2 to 3 minutes). */
const RECOVERY_WINDOW_MS = 10 * 60_000;
/** How soon after the end a recovery series starts (it starts at the end, give or take seconds). */
const RECOVERY_START_MS = 60_000;

/**
 * The first date of `heartRateData` when it is the recovery after the workout: two or more dated
 * samples, the first within RECOVERY_START_MS of the workout's end (`endMs`) and none before the
 * end nor more than RECOVERY_WINDOW_MS after it. The app sometimes sends that series there
 * instead of the session's samples, and computes the workout's average and highest heart rate
 * from it, so neither is the workout's. Undefined otherwise (a series within the workout, an
 * empty one, none).
 */
function recoveryStart(series: unknown, endMs: number): string | undefined {
  if (!Array.isArray(series)) return undefined;
  let first: { at: string; ms: number } | undefined;
  let count = 0;
  for (const p of series) {
    if (p === null || typeof p !== 'object') continue;
    const date = (p as Record<string, unknown>).date;
    const t = parseHaeTimestamp(date);
    if (!t) continue;
    if (t.epochMs < endMs || t.epochMs > endMs + RECOVERY_WINDOW_MS) return undefined;
    if (!first || t.epochMs < first.ms) first = { at: String(date), ms: t.epochMs };
    count++;
  }
  return first && count >= 2 && first.ms - endMs <= RECOVERY_START_MS ? first.at : undefined;
}

/**
 * A workout's name as it is kept: one line (control characters a space, see oneLineTitle), at
 * most MAX_WORKOUT_NAME_CHARS characters (a longer one is cut, noted in `notes`); 'Workout' when
 * there is none.
 */
function workoutName(raw: unknown, notes: WorkoutNote[]): string {
  const name = typeof raw === 'string' ? oneLineTitle(raw) : '';
  if (name === '') return 'Workout';
  if (!overGraphemes(name, MAX_WORKOUT_NAME_CHARS)) return name;
  const cut = clipGraphemes(name, MAX_WORKOUT_NAME_CHARS);
  notes.push({ reason: `name longer than ${MAX_WORKOUT_NAME_CHARS} characters, cut`, example: cut });
  return cut;
}

/**
 * One workout object → values `{type, startTime, durationMin?, distanceKm?, calories?, avgHr?,
 * maxHr?, elevationM?, id?, end?}` dated by the local date of `start` (a workout counts for the
 * day it started). Units: minutes, km, kcal (active energy), bpm, metres. A number that is
 * missing, unreadable, zero or negative is left out (v1 writes 0 for "not measured";
 * "absent fields dropped, not zeroed"); one in a unit not known is left out too, listed in
 * `notes` for a warning. A workout whose end is before its start, or whose duration is negative,
 * makes no sense and is refused (`ok: false`, the reason for the warning). A heart-rate series that
 * is the recovery after the workout (recoveryStart) leaves the heart rate out, with a note.
 * `zone`: the person's, for stamps written in UTC (extractSamples).
 */
export function readWorkout(
  w: Record<string, unknown>,
  zone?: string,
): PointRead & { notes?: WorkoutNote[] } {
  const start = parseHaeTimestamp(w.start, zone);
  if (!start) return { ok: false, reason: unreadable('unreadable start', w.start), example: w.start };
  const end = parseHaeTimestamp(w.end, zone);
  if (end && end.epochMs < start.epochMs)
    return { ok: false, reason: 'end before start', example: `${w.start} to ${w.end}` };
  const notes: WorkoutNote[] = [];
  const type = workoutName(w.name, notes);
  // exact values of the fields rounded after converting (Sample.keyValues)
  const exact: Record<string, number> = {};

  // seconds (HAE), or {qty, units} (an Apple Health duration in a unit written beside it)
  const durationS =
    typeof w.duration === 'object' && w.duration !== null
      ? quantity(w.duration, DIMENSIONS.s, 's', notes, 'duration', exact, 'durationS')
      : readNumber(w.duration).value;
  if (durationS !== undefined && durationS < 0)
    return { ok: false, reason: 'negative duration', example: durationS };
  const exactMin = durationS !== undefined ? (exact.durationS ?? durationS) / 60 : undefined;
  delete exact.durationS;
  // seconds made minutes are rounded like a converted value (1234 s is 20.56667 min)
  const durationMin =
    exactMin !== undefined && durationS !== undefined
      ? roundConverted(exactMin, durationS)
      : end && end.epochMs > start.epochMs
        ? (end.epochMs - start.epochMs) / 60_000
        : undefined;
  if (exactMin !== undefined && durationMin !== exactMin) exact.durationMin = exactMin;

  const hrObj = (w.heartRate ?? {}) as Record<string, unknown>;
  const recovery = end ? recoveryStart(w.heartRateData, end.epochMs) : undefined;
  if (recovery !== undefined)
    notes.push({ reason: 'heart rate sent is the recovery after the workout, left out', example: recovery });
  const series = recovery === undefined ? heartRateSeries(w.heartRateData) : {};
  const avgHr =
    recovery === undefined
      ? (quantity(w.avgHeartRate, DIMENSIONS.perMin, '', notes, 'average heart rate', exact, 'avgHr') ??
        quantity(hrObj.avg, DIMENSIONS.perMin, '', notes, 'average heart rate', exact, 'avgHr') ??
        series.avg)
      : undefined;
  const maxHr =
    recovery === undefined
      ? (quantity(w.maxHeartRate, DIMENSIONS.perMin, '', notes, 'highest heart rate', exact, 'maxHr') ??
        quantity(hrObj.max, DIMENSIONS.perMin, '', notes, 'highest heart rate', exact, 'maxHr') ??
        series.max)
      : undefined;

  const elevation = w.elevation as Record<string, unknown> | undefined;
  const elevationM =
    quantity(w.elevationUp, DIMENSIONS.m, 'm', notes, 'ascent', exact, 'elevationM') ??
    (elevation && typeof elevation === 'object'
      ? quantity(
          { qty: elevation.ascent, units: elevation.units },
          DIMENSIONS.m,
          'm',
          notes,
          'ascent',
          exact,
          'elevationM',
        )
      : undefined);

  // v1 `activeEnergy` is a {qty, units} object; v2's `activeEnergy` is a per-minute series (ignored).
  const calories =
    quantity(w.activeEnergyBurned, DIMENSIONS.kcal, 'kcal', notes, 'energy', exact, 'calories') ??
    (Array.isArray(w.activeEnergy)
      ? undefined
      : quantity(w.activeEnergy, DIMENSIONS.kcal, 'kcal', notes, 'energy', exact, 'calories'));

  const values: Record<string, SampleValue> = { type, startTime: localHourMinute(start) };
  const numbers: Record<string, number | undefined> = {
    durationMin,
    distanceKm: quantity(w.distance, DIMENSIONS.km, 'km', notes, 'distance', exact, 'distanceKm'),
    calories,
    avgHr,
    maxHr,
    elevationM,
  };
  for (const [k, v] of Object.entries(numbers))
    if (v !== undefined && Number.isFinite(v) && v > 0) values[k] = v;
  const id = typeof w.id === 'string' ? w.id.trim() : '';
  if (id.length > MAX_WORKOUT_ID_CHARS)
    notes.push({
      reason: `id longer than ${MAX_WORKOUT_ID_CHARS} characters, left out`,
      example: clipGraphemes(id, 40),
    });
  else if (id !== '') values.id = id;
  if (end) values.end = String(w.end);
  const kept = Object.keys(exact).filter((k) => k in values);
  return {
    ok: true,
    time: start,
    at: String(w.start),
    values,
    ...(kept.length
      ? { keyValues: { ...values, ...Object.fromEntries(kept.map((k) => [k, exact[k]])) } }
      : {}),
    source: sourceOf(w.source),
    ...(notes.length ? { notes } : {}),
  };
}
