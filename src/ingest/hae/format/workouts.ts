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
import { numberAndUnit, readNumber } from './numbers.js';
import { type PointRead, type SampleValue, sourceOf } from './sample.js';
import { unreadable } from './timestamp-spellings.js';
import { localHourMinute, parseHaeTimestamp } from './timestamps.js';
import {
  conversionOf,
  convertRounded,
  DIMENSIONS,
  type Dimension,
  isUnitFree,
  roundConverted,
} from './units.js';

/** A field of a workout left out because its unit is not known, for the warning. */
export interface WorkoutNote {
  reason: string;
  example: string;
}

/**
 * The `{qty, units}` object of a workout field as sent: the object itself; the inner object of
 * one wrapped twice (`{qty: {qty, units}}`, as a relay may pass it on); text with its unit
 * (`"1046 kJ"`) as both; a bare number or numeric text as `{qty}` (no unit). `unit` and `value` are read as `units` and `qty`. Undefined when there
 * is nothing (absent, null, a list such as v2's per-minute series).
 */
function quantityObject(v: unknown): { qty: unknown; units: unknown } | undefined {
  if (typeof v === 'number') return { qty: v, units: undefined };
  if (typeof v === 'string') return numberAndUnit(v) ?? { qty: v, units: undefined };
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const qty = o.qty ?? o.value;
  const units = o.units ?? o.unit;
  if (qty !== null && typeof qty === 'object' && !Array.isArray(qty) && units === undefined) {
    return quantityObject(qty);
  }
  return { qty, units };
}

/** A value as the example of a warning. */
function exampleOf(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
}

/**
 * A workout field (quantityObject) → the qty in `dimension`; undefined when absent or unreadable.
 * Units missing default to `unitsDefault`; with no default, a field of a dimension with several
 * units (energy: kcal or kJ, 4.184 apart) is not guessed. What is sent but cannot be used is
 * noted in `notes` (the field is left out with a warning, the workout kept): a qty that is not a
 * number or not finite, no unit where one is needed, a unit the dimension does not know. A
 * converted value is rounded (convertRounded); its exact value is put in `exact[key]` when
 * rounding changed it (the sample is keyed on the exact values, Sample.keyValues).
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
  const q = quantityObject(v);
  if (q === undefined || q.qty === undefined || q.qty === null) return undefined;
  const read = readNumber(q.qty);
  const n = read.value;
  if (n === undefined) {
    const why = read.nonFinite ? 'not a finite number' : 'not a number';
    notes?.push({ reason: `${field} ${why}, left out`, example: exampleOf(q.qty) });
    return undefined;
  }
  const sent = typeof q.units === 'string' ? q.units.trim() : '';
  const units = sent !== '' ? sent : unitsDefault;
  if (units === '' && !isUnitFree(dimension)) {
    notes?.push({ reason: `${field} without a unit, left out`, example: exampleOf(v) });
    return undefined;
  }
  const conv = conversionOf(dimension, units);
  if (conv === undefined) {
    notes?.push({ reason: `${field} in an unknown unit, left out`, example: units });
    return undefined;
  }
  const out = convertRounded(conv, n);
  const unrounded = typeof conv === 'number' ? n * conv : conv(n);
  if (exact && key && out !== unrounded) exact[key] = unrounded;
  return out;
}

/** A duration written as a clock: `1:02:45` (hours, minutes, seconds) or `45:00` (minutes, seconds). */
const CLOCK_DURATION = /^(\d+):([0-5]\d)(?::([0-5]\d)(?:[.,]\d+)?)?$/;

/**
 * A workout's `duration` sent as a number or text, in seconds: a number (the JSON export's
 * seconds, also as text), or a clock as the CSV export writes it (`0:45:00`, `45:00`). Anything
 * else is noted and left out (the duration then comes from the start and end); undefined when
 * nothing was sent.
 */
function plainDuration(v: unknown, notes: WorkoutNote[]): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const clock = typeof v === 'string' ? CLOCK_DURATION.exec(v.trim()) : null;
  if (clock) {
    const [, a, b, c] = clock;
    return c === undefined ? Number(a) * 60 + Number(b) : Number(a) * 3600 + Number(b) * 60 + Number(c);
  }
  const read = readNumber(v);
  if (read.value === undefined)
    notes.push({
      reason: `duration ${read.nonFinite ? 'not a finite number' : 'not a number'}, left out`,
      example: exampleOf(v),
    });
  return read.value;
}

/** What each numeric field of a workout is called in a warning. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  durationMin: 'duration',
  distanceKm: 'distance',
  calories: 'energy',
  avgHr: 'average heart rate',
  maxHr: 'highest heart rate',
  elevationM: 'ascent',
};

/** What the workout field `key` (`calories`) is called in a warning (`energy`); the key itself when unnamed. */
export function workoutFieldWord(key: string): string {
  return Object.hasOwn(FIELD_WORDS, key) ? FIELD_WORDS[key] : key;
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
 * day it started). Units: minutes, km, kcal (active energy only, never `totalEnergy`), bpm,
 * metres. A number that is missing or zero is left out (v1 writes 0 for "not measured";
 * "absent fields dropped, not zeroed"); one that is negative, not a number, without a unit where
 * one is needed or in a unit not known is left out too, listed in `notes` for a warning (a value
 * no workout has, 1e12 kcal, is left out by the caller: samples.ts leaveOutOfRangeOut). A workout whose end is before its start, or whose duration is negative,
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

  // seconds (HAE), {qty, units} (an Apple Health duration in a unit written beside it), or the
  // clock text of the CSV export
  const durationS =
    typeof w.duration === 'object' && w.duration !== null
      ? quantity(w.duration, DIMENSIONS.s, 's', notes, 'duration', exact, 'durationS')
      : plainDuration(w.duration, notes);
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

  // v1 `activeEnergy` is a {qty, units} object; v2's `activeEnergy` is a per-minute series
  // (ignored). `totalEnergy` (v1: active plus resting energy) is never taken for the calories.
  const calories =
    quantity(w.activeEnergyBurned, DIMENSIONS.kcal, '', notes, 'energy', exact, 'calories') ??
    (Array.isArray(w.activeEnergy)
      ? undefined
      : quantity(w.activeEnergy, DIMENSIONS.kcal, '', notes, 'energy', exact, 'calories'));

  const values: Record<string, SampleValue> = { type, startTime: localHourMinute(start) };
  const numbers: Record<string, number | undefined> = {
    durationMin,
    distanceKm: quantity(w.distance, DIMENSIONS.km, 'km', notes, 'distance', exact, 'distanceKm'),
    calories,
    avgHr,
    maxHr,
    elevationM,
  };
  for (const [k, v] of Object.entries(numbers)) {
    if (v === undefined || !Number.isFinite(v)) continue;
    if (v > 0) values[k] = v;
    else if (v < 0 && k !== 'durationMin')
      notes.push({ reason: `${workoutFieldWord(k)} negative, left out`, example: String(v) });
  }
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
