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
import { readNumber } from './numbers.js';
import { type PointRead, type SampleValue, sourceOf } from './sample.js';
import { localHourMinute, parseHaeTimestamp } from './timestamps.js';
import { convertUnit, DIMENSIONS, type Dimension } from './units.js';

/** `{qty, units}` → the qty in `dimension` (units default to its canonical unit); undefined when unreadable. */
function quantity(v: unknown, dimension: Dimension, unitsDefault = ''): number | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const n = readNumber(o.qty).value;
  if (n === undefined) return undefined;
  const units = typeof o.units === 'string' ? o.units : unitsDefault;
  return convertUnit(dimension, units, n);
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

/**
 * One workout object → values `{type, startTime, durationMin?, distanceKm?, calories?, avgHr?,
 * maxHr?, elevationM?, id?, end?}` dated by the local date of `start` (a workout counts for the
 * day it started). Units: minutes, km, kcal (active energy), bpm, metres. A number that is
 * missing, unreadable, zero or negative is left out (v1 writes 0 for "not measured";
 * "absent fields dropped, not zeroed").
 */
export function readWorkout(w: Record<string, unknown>): PointRead {
  const start = parseHaeTimestamp(w.start);
  if (!start) return { ok: false, reason: 'unreadable start', example: w.start };
  const end = parseHaeTimestamp(w.end);
  const type = typeof w.name === 'string' && w.name.trim() !== '' ? w.name.trim() : 'Workout';

  const durationS = readNumber(w.duration).value;
  const durationMin =
    durationS !== undefined
      ? durationS / 60
      : end && end.epochMs > start.epochMs
        ? (end.epochMs - start.epochMs) / 60_000
        : undefined;

  const hrObj = (w.heartRate ?? {}) as Record<string, unknown>;
  const series = heartRateSeries(w.heartRateData);
  const avgHr =
    quantity(w.avgHeartRate, DIMENSIONS.perMin) ?? quantity(hrObj.avg, DIMENSIONS.perMin) ?? series.avg;
  const maxHr =
    quantity(w.maxHeartRate, DIMENSIONS.perMin) ?? quantity(hrObj.max, DIMENSIONS.perMin) ?? series.max;

  const elevation = w.elevation as Record<string, unknown> | undefined;
  const elevationM =
    quantity(w.elevationUp, DIMENSIONS.m, 'm') ??
    (elevation && typeof elevation === 'object'
      ? quantity({ qty: elevation.ascent, units: elevation.units }, DIMENSIONS.m, 'm')
      : undefined);

  // v1 `activeEnergy` is a {qty, units} object; v2's `activeEnergy` is a per-minute series (ignored).
  const calories =
    quantity(w.activeEnergyBurned, DIMENSIONS.kcal, 'kcal') ??
    (Array.isArray(w.activeEnergy) ? undefined : quantity(w.activeEnergy, DIMENSIONS.kcal, 'kcal'));

  const values: Record<string, SampleValue> = { type, startTime: localHourMinute(start) };
  const numbers: Record<string, number | undefined> = {
    durationMin,
    distanceKm: quantity(w.distance, DIMENSIONS.km, 'km'),
    calories,
    avgHr,
    maxHr,
    elevationM,
  };
  for (const [k, v] of Object.entries(numbers))
    if (v !== undefined && Number.isFinite(v) && v > 0) values[k] = v;
  if (typeof w.id === 'string' && w.id.trim() !== '') values.id = w.id.trim();
  if (end) values.end = String(w.end);
  return { ok: true, time: start, at: String(w.start), values, source: sourceOf(w.source) };
}
