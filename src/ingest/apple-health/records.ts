/**
 * Apple Health `export.xml` records → HAE-shaped points (docs/HEALTH-AUTO-EXPORT.md), so they run
 * through the same extraction (units, fractions to percent, dedup keys) as webhook payloads.
 *
 * - `<Record type="HKQuantityTypeIdentifier…" unit value startDate endDate sourceName>` → a point
 *   `{date: startDate, qty: value, source}` in a block named after the catalogue metric with the
 *   record's `unit` (the local date written in `startDate` decides the day, never UTC); a
 *   percentage's `%`, a fraction of one in the export, as `fraction`.
 * - `HKCategoryTypeIdentifierSleepAnalysis` → an unaggregated sleep segment `{startDate, endDate,
 *   value: stage, source}` (sleep.ts; the night belongs to the day it ends).
 * - `HKCategoryTypeIdentifierMindfulSession` → minutes between start and end;
 *   `HKCategoryTypeIdentifierAppleStandHour` "Stood" → one stand hour;
 *   `HKCategoryTypeIdentifierSexualActivity` → one, the day logged; spotting, cervical mucus and
 *   ovulation, pregnancy and progesterone tests → their metrics (hae/format/cycle-tracking.ts);
 *   `HKCategoryTypeIdentifierHandwashingEvent` / `…ToothbrushingEvent` → seconds between start and end;
 *   a notification (high, low or irregular heart rate, walking steadiness, low cardio fitness,
 *   sleep apnea, loud noise) → one, counted per day.
 * - Blood pressure arrives as separate systolic and diastolic records (each also inside a
 *   `<Correlation>`; the DTD says every record of a correlation is also at top level, and one
 *   found only inside it is read all the same: read-export.ts); the two of one reading are
 *   joined into one `{systolic, diastolic}` point.
 * - A record of a summed metric (steps, energy, stand hours...) that starts at local midnight and
 *   ends before the day is over (a walk from 00:00 to 00:10) says so: its point carries
 *   `partOfDay: true`, so it is added to the day's other records rather than read as a daily total
 *   (aggregate.ts reads a midnight point as one unless it says so; a daily total spans the day).
 * - `<Workout>` → a v1-like workout object (name, start, end, duration in s, distance, energy;
 *   `WorkoutStatistics` children of newer exports fill what the attributes lack).
 * - The export writes every date on the clock of the zone the phone was in when it exported; a
 *   record or workout whose metadata names the zone it was recorded in (`HKTimeZone`, written by
 *   the watch and the Health app for sleep, workouts and entries made abroad) has its stamps read
 *   on that zone's clock (inRecordZone): a night slept in Tokyo by a phone living in New York is
 *   dated on Tokyo's morning, at Tokyo's bed and wake times.
 */

import { lookupTable } from '../../common/lookup-table.js';
import { CATALOGUE, resolveMetric } from '../hae/format/catalogue.js';
import { cyclePoint } from '../hae/format/cycle-tracking.js';
import {
  CATEGORY_PREFIX,
  HEALTHKIT_TYPES,
  NOTIFICATION_TYPES,
  QUANTITY_PREFIX,
} from '../hae/format/healthkit-types.js';
import { MAX_SPAN_RECORD_HOURS } from '../hae/format/limits.js';
import { ownString } from '../hae/format/own-string.js';
import { knownZone, stampInZone } from '../hae/format/recorded-zone.js';
import { SPAN_OVER_A_DAY } from '../hae/format/sleep.js';
import { SYMPTOM_TYPES, SYMPTOMS_METRIC, symptomFelt, symptomName } from '../hae/format/symptoms.js';
import { parseHaeTimestamp } from '../hae/format/timestamps.js';
import { convertUnit, DIMENSIONS } from '../hae/format/units.js';
import { splitAtMidnight } from './midnight-split.js';

/** One HAE-shaped point for the block `metric` in `units`. */
export interface MappedPoint {
  metric: string;
  units: string;
  point: Record<string, unknown>;
  /** The part of the record on the day after its start, when it crosses midnight (midnight-split.ts). */
  next?: MappedPoint;
}

const Q = QUANTITY_PREFIX;

/** Apple sleep values → the stage names sleep.ts reads (`value` of an unaggregated segment). */
const SLEEP_STAGE = lookupTable<string>({
  HKCategoryValueSleepAnalysisInBed: 'In Bed',
  HKCategoryValueSleepAnalysisAsleep: 'Asleep',
  HKCategoryValueSleepAnalysisAsleepUnspecified: 'Unspecified',
  HKCategoryValueSleepAnalysisAsleepCore: 'Core',
  HKCategoryValueSleepAnalysisAsleepDeep: 'Deep',
  HKCategoryValueSleepAnalysisAsleepREM: 'REM',
  HKCategoryValueSleepAnalysisAwake: 'Awake',
});

/**
 * Notifications the watch or phone gave, written as category records (value "not applicable", or
 * which level a walking steadiness one was; healthkit-types.ts): one each, counted per day.
 */
const NOTIFICATION_METRICS = new Set(NOTIFICATION_TYPES.values());

const BP_SYSTOLIC = `${Q}BloodPressureSystolic`;

/**
 * HealthKit's insulin delivery reasons (the record's `HKInsulinDeliveryReason` metadata) in the
 * words a push names them: a basal and a bolus a pump gives at one instant are two doses.
 */
const INSULIN_REASON = lookupTable<string>({ '1': 'Basal', '2': 'Bolus' });

/**
 * The texts a point keeps (its stamps, its source) as strings of their own: an attribute value is
 * a view into the whole chunk the parser read (own-string.ts), and a point's sample lives on after
 * its chunk (a batch waiting to be stored, a date of the rows made ahead), which would keep every
 * such chunk in memory that long and make the worker's collector copy and mark them.
 */
function own(text: string | undefined): string | undefined {
  return text === undefined ? undefined : ownString(text);
}

/** Sources seen, as strings of their own: a file has a few dozen, repeated on every record. */
const sources = new Map<string, string>();
/** Sources kept in `sources` at most (a file with more copies each further one). */
const MAX_SOURCES = 1024;

/**
 * The app or device that wrote a record: `sourceName`, or `source` in the exports of iOS 8 (the
 * attribute's first name). Without it, the readings of the phone and the watch on one day would be
 * added up instead of counted once.
 */
function sourceOf(a: Record<string, string>): string | undefined {
  return a.sourceName ?? a.source;
}

/** The record's source (sourceOf, as a string of its own), undefined when absent or empty. */
function sourceName(a: Record<string, string>): string | undefined {
  const name = sourceOf(a);
  if (!name) return undefined;
  let kept = sources.get(name);
  if (kept === undefined) {
    kept = ownString(name);
    if (sources.size < MAX_SOURCES) sources.set(kept, kept);
  }
  return kept;
}

/** `point` with the record's source, when it names one. */
function withSource(point: Record<string, unknown>, a: Record<string, string>): Record<string, unknown> {
  const source = sourceName(a);
  if (source !== undefined) point.source = source;
  return point;
}

/** Metrics whose day is a total, the ones a midnight point can be a daily total of. */
const SUMMED = new Set([...HEALTHKIT_TYPES.values()].filter((m) => resolveMetric(m)?.kind === 'sum'));

/**
 * True when a record starts at local midnight and ends before its day is over (before 23:59 of
 * that date, as written): a part of the day, never the day's total. A record without a readable
 * end is not said to be one.
 */
function partOfDayRecord(startDate: string | undefined, endDate: string | undefined): boolean {
  const start = parseHaeTimestamp(startDate);
  const end = parseHaeTimestamp(endDate);
  if (start?.time !== '00:00:00' || !end) return false;
  return end.date === start.date && end.time < '23:59:00';
}

/** `m` with `partOfDay: true` on its point when the record is one (partOfDayRecord) of a summed metric. */
function markPartOfDay<T extends MappedPoint | SkippedRecord>(m: T, a: Record<string, string>): T {
  // the cheap test first (`YYYY-MM-DD 00:00:00 ...`): nearly every record starts at another time;
  // a stamp read in its record's zone (inRecordZone) has another time of day than it writes
  const start = a.startDate;
  if (start === undefined || (!start.startsWith('00:00:00', 11) && !isZoned(start))) return m;
  if ('point' in m && SUMMED.has(m.metric) && partOfDayRecord(start, a.endDate)) m.point.partOfDay = true;
  return m;
}

/**
 * Record type (as Apple writes it, prefix included) → catalogue metric: one lookup per record, no
 * piece of the type cut out and looked up.
 */
const METRIC_OF_TYPE = new Map<string, string>([
  ...HEALTHKIT_TYPES,
  // the two halves of a reading are joined into one point (BloodPressurePairs)
  [`${Q}BloodPressureSystolic`, 'blood_pressure'],
  [`${Q}BloodPressureDiastolic`, 'blood_pressure'],
  // every symptom type fills one metric, the symptom named in the point (symptoms.ts)
  ...SYMPTOM_TYPES.map((t): [string, string] => [`${CATEGORY_PREFIX}${t}`, SYMPTOMS_METRIC]),
]);

/** The catalogue metric an Apple record type maps to, or undefined (the record is counted, not stored). */
export function metricOfType(type: string): string | undefined {
  return METRIC_OF_TYPE.get(type);
}

/**
 * Blood pressure halves waiting for their other half, keyed by start, end and source. Each key
 * holds a queue: two readings of one instant from one cuff (taken one after the other, or entered
 * twice) are listed by the export type by type, both systolic halves before both diastolic ones,
 * and the n-th diastolic half of a key belongs with its n-th systolic half; a half never fills a
 * field that a waiting reading of its key already has.
 */
export class BloodPressurePairs {
  private readonly pending = new Map<string, Record<string, unknown>[]>();

  /**
   * Adds one systolic or diastolic record; returns the joined point when both halves are there.
   */
  add(a: Record<string, string>): MappedPoint | undefined {
    const field = a.type === BP_SYSTOLIC ? 'systolic' : 'diastolic';
    const key = `${a.startDate}|${a.endDate}|${sourceOf(a) ?? ''}`;
    const queue = this.pending.get(key);
    const at = queue ? queue.findIndex((p) => p[field] === undefined) : -1;
    if (!queue || at < 0) {
      const point = withSource({ date: own(a.startDate) }, a);
      point[field] = a.value;
      if (queue) queue.push(point);
      else this.pending.set(key, [point]);
      return undefined;
    }
    const point = queue[at];
    point[field] = a.value;
    queue.splice(at, 1);
    if (queue.length === 0) this.pending.delete(key);
    return { metric: 'blood_pressure', units: a.unit ?? 'mmHg', point };
  }

  /** Halves that never met their other half (each still a reading of one field). */
  flush(): MappedPoint[] {
    const out = [...this.pending.values()].flat().map((point) => ({
      metric: 'blood_pressure',
      units: 'mmHg',
      point,
    }));
    this.pending.clear();
    return out;
  }
}

function minutesBetween(start: string, end: string): number | undefined {
  const a = parseHaeTimestamp(start);
  const b = parseHaeTimestamp(end);
  if (!a || !b || b.epochMs < a.epochMs) return undefined;
  return (b.epochMs - a.epochMs) / 60_000;
}

/**
 * The minutes a session or event record lasts (its value), or why it is left out: no readable
 * start and end, or a span over MAX_SPAN_RECORD_HOURS (damaged: a start never set, a wrong year).
 */
function spanMinutes(what: string, a: Record<string, string>): number | SkippedRecord {
  const min = minutesBetween(a.startDate ?? '', a.endDate ?? '');
  if (min === undefined) return { skip: `${what} without a readable start and end` };
  if (min > MAX_SPAN_RECORD_HOURS * 60) return { skip: SPAN_OVER_A_DAY, damaged: true };
  return min;
}

/** An event (handwashing, toothbrushing) → its length in seconds at its start, or the reason to skip it. */
function eventSeconds(metric: string, a: Record<string, string>): MappedPoint | SkippedRecord {
  const min = spanMinutes(`${metric} event`, a);
  if (typeof min !== 'number') return min;
  return { metric, units: 's', point: withSource({ date: own(a.startDate), qty: min * 60 }, a) };
}

/**
 * One top-level `<Record>`'s attributes → a point, or undefined with the reason (unmapped type,
 * unknown sleep value, a stand hour that is "Idle"). Blood pressure goes through BloodPressurePairs.
 * `metric`: metricOfType of its type, when the caller has it already. `zone`: the zone its
 * metadata names (`HKTimeZone`), read with inRecordZone. `homeZone`: the person's zone, whose
 * clock tells the midnight of a record over a change of the clocks (midnight-split.ts).
 */
export function mapRecord(
  a: Record<string, string>,
  metric = metricOfType(a.type ?? ''),
  zone?: string,
  homeZone?: string,
): MappedPoint | SkippedRecord {
  const attrs = zone === undefined ? a : inRecordZone(a, zone);
  const m = markPartOfDay(pointOf(attrs, metric), attrs);
  if (!('point' in m) || !SUMMED.has(m.metric) || !(a.type?.startsWith(Q) || m.metric === 'mindful_minutes'))
    return m;
  const parts = splitAtMidnight(m, attrs.startDate, attrs.endDate, homeZone);
  return parts ? { ...parts[0], next: parts[1] } : m;
}

/** A stamp read in its record's zone (stampInZone wrote it). */
function isZoned(stamp: string): boolean {
  return stamp.charCodeAt(stamp.length - 1) === 93;
}

/**
 * `a` with its `startDate` and `endDate` read on the clock of `zone`, the zone its metadata says
 * it was recorded in (module comment; format/recorded-zone.ts); `a` itself when the zone is not
 * one this runtime knows.
 */
export function inRecordZone(a: Record<string, string>, zone: string): Record<string, string> {
  const z = knownZone(zone);
  if (z === undefined) return a;
  const start = a.startDate === undefined ? undefined : stampInZone(a.startDate, z);
  const end = a.endDate === undefined ? undefined : stampInZone(a.endDate, z);
  if (start === a.startDate && end === a.endDate) return a;
  const out = { ...a };
  if (start !== undefined) out.startDate = start;
  if (end !== undefined) out.endDate = end;
  return out;
}

/**
 * A record left out: `skip` the reason; `damaged` when the record itself is wrong (not merely of
 * a kind Klebb does not keep), `unknownValue` when its type is read but its value is not one Klebb
 * knows (a sleep stage a newer iOS added): the import warns about both, as the readings are lost.
 */
export interface SkippedRecord {
  skip: string;
  damaged?: true;
  unknownValue?: true;
}

/** A value of `what` Klebb does not know, quoted. */
function unknownValue(what: string, value: string | undefined): SkippedRecord {
  return { skip: `unknown ${what} value ${JSON.stringify(value ?? '')}`, unknownValue: true };
}

/** The skip reason of a record whose end is before its start. */
export const ENDS_BEFORE_START = 'record ends before it starts';

/**
 * True when `end` is before `start` (both as Apple writes them, `YYYY-MM-DD HH:MM:SS +ZZZZ`).
 * HealthKit never makes such a sample, so one in an export is damaged: its day and its length
 * cannot be trusted. Two stamps of one offset compare as text (no parsing on the hot path).
 */
function endsBeforeStart(start: string | undefined, end: string | undefined): boolean {
  if (start === undefined || end === undefined) return false;
  const n = start.length;
  let sameOffset = n === end.length && n > 5 && !isZoned(start);
  for (let i = 1; sameOffset && i <= 5; i++) sameOffset = start.charCodeAt(n - i) === end.charCodeAt(n - i);
  if (sameOffset) return end < start;
  const s = parseHaeTimestamp(start);
  const e = parseHaeTimestamp(end);
  return s !== null && e !== null && e.epochMs < s.epochMs;
}

/** mapRecord without the partOfDay mark. */
function pointOf(a: Record<string, string>, metric: string | undefined): MappedPoint | SkippedRecord {
  const type = a.type ?? '';
  if (!metric) return { skip: `unmapped type ${type || '(none)'}` };
  if (endsBeforeStart(a.startDate, a.endDate)) return { skip: ENDS_BEFORE_START, damaged: true };
  switch (metric) {
    case 'sleep_analysis': {
      const stage = SLEEP_STAGE[a.value ?? ''];
      if (!stage) return unknownValue('sleep', a.value);
      return {
        metric,
        units: 'hr',
        point: withSource({ startDate: own(a.startDate), endDate: own(a.endDate), value: stage }, a),
      };
    }
    case 'mindful_minutes': {
      const qty = spanMinutes('mindful session', a);
      if (typeof qty !== 'number') return qty;
      return { metric, units: 'min', point: withSource({ date: own(a.startDate), qty }, a) };
    }
    case 'apple_stand_hour':
      if (a.value === 'HKCategoryValueAppleStandHourIdle') return { skip: 'stand hour not stood' };
      if (a.value !== 'HKCategoryValueAppleStandHourStood') return unknownValue('stand hour', a.value);
      return { metric, units: 'count', point: withSource({ date: own(a.startDate), qty: 1 }, a) };
    case 'handwashing':
    case 'toothbrushing':
      return eventSeconds(metric, a);
    case 'sexual_activity':
      // one record each time; whether protection was used is in its metadata, which the row
      // (logged on the day) does not show, so each counts as unspecified
      return { metric, units: 'count', point: withSource({ date: own(a.startDate), Unspecified: 1 }, a) };
    case SYMPTOMS_METRIC:
      return symptomPoint(a);
    case 'menstrual_flow':
    case 'bleeding_during_pregnancy':
    case 'bleeding_after_pregnancy':
    case 'bleeding_after_menopause':
      return flowPoint(metric, a);
    case 'intermenstrual_bleeding':
    case 'cervical_mucus_quality':
    case 'ovulation_test':
    case 'pregnancy_test':
    case 'progesterone_test': {
      const read = cyclePoint(metric, a.value, own(a.startDate));
      if ('leftOut' in read) return unknownValue(metric.replace(/_/g, ' '), a.value);
      return { metric, units: read.units, point: withSource(read.point, a) };
    }
    case 'insulin_delivery': {
      const point: Record<string, unknown> = { date: own(a.startDate), qty: a.value };
      const reason = INSULIN_REASON[a.HKInsulinDeliveryReason ?? ''];
      if (reason) point.reason = reason;
      return { metric, units: unitOf(metric, a.unit), point: withSource(point, a) };
    }
    default:
      if (NOTIFICATION_METRICS.has(metric))
        return { metric, units: 'count', point: withSource({ date: own(a.startDate), qty: 1 }, a) };
      return {
        metric,
        units: unitOf(metric, a.unit),
        point: withSource({ date: own(a.startDate), qty: a.value }, a),
      };
  }
}

/**
 * A symptom record → one symptom felt at its start, named (`Lower Back Pain`); a record saying it
 * was absent is left out, a value Klebb does not know is left out with a warning. Never a daily
 * total, whatever its times (partOfDay).
 */
function symptomPoint(a: Record<string, string>): MappedPoint | SkippedRecord {
  const felt = symptomFelt(a.value);
  if (felt === undefined) return unknownValue('symptom', a.value);
  if (!felt) return { skip: 'symptom logged as not present' };
  const symptom = symptomName((a.type ?? '').slice(CATEGORY_PREFIX.length));
  const point: Record<string, unknown> = { date: own(a.startDate), qty: 1, symptom, partOfDay: true };
  const severity = (a.value ?? '').replace(/^HKCategoryValue(?:Severity|Presence|AppetiteChanges)?/, '');
  if (severity) point.severity = symptomName(severity);
  return { metric: SYMPTOMS_METRIC, units: 'count', point: withSource(point, a) };
}

/**
 * The flows a menstrual flow record can say, as iOS 17 and earlier (`HKCategoryValueMenstrualFlow…`)
 * and iOS 18 (`HKCategoryValueVaginalBleeding…`) name them: true for bleeding, false for `None`.
 */
const FLOW = lookupTable<boolean>({ Unspecified: true, Light: true, Medium: true, Heavy: true, None: false });

/**
 * A menstrual flow record, or one of bleeding during or after a pregnancy or after menopause
 * (`metric`, levels named
 * as the flow's) → the day logged; a record of no flow (`…None`, which the Health app writes for a
 * day of the period without bleeding) is left out, a value Klebb does not know is left out with a
 * warning.
 */
function flowPoint(metric: string, a: Record<string, string>): MappedPoint | SkippedRecord {
  const what = metric === 'menstrual_flow' ? 'menstrual flow' : 'bleeding';
  const level = (a.value ?? '').replace(/^HKCategoryValue(?:MenstrualFlow|VaginalBleeding)/, '');
  const flow = level === a.value ? undefined : FLOW[level];
  if (flow === undefined) return unknownValue(what, a.value);
  if (!flow) return { skip: `no ${what}` };
  const point = { date: own(a.startDate), qty: 1, partOfDay: true };
  return { metric, units: 'count', point: withSource(point, a) };
}

/** The metrics kept in percent. */
const PERCENT_METRICS = new Set(CATALOGUE.filter((e) => e.dimension === 'pct').map((e) => e.key));

/**
 * A record's unit as the extraction reads it. Apple writes every percentage as a fraction of one
 * with the unit `%` (walking asymmetry 0.05 is 5 %, an atrial fibrillation burden 0.02 is 2 %):
 * named `fraction`, so each is read ×100, not only those that cannot be a percent below 1.
 */
function unitOf(metric: string, unit: string | undefined): string {
  if (unit === '%' && PERCENT_METRICS.has(metric)) return 'fraction';
  return unit ?? '';
}

/** `HKWorkoutActivityTypeTraditionalStrengthTraining` → `Traditional Strength Training`. */
export function workoutName(activityType: string | undefined): string {
  const t = (activityType ?? '').replace(/^HKWorkoutActivityType/, '');
  if (!t) return 'Workout';
  return t.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
}

/** Seconds per `durationUnit` Apple writes. */
const DURATION_S = lookupTable<number>({ s: 1, sec: 1, min: 60, hr: 3600, h: 3600 });

/** `"4523 cm"` (a `<MetadataEntry value>` with its unit) → `{qty, units}`; undefined when not so. */
function quantityText(text: string | undefined): { qty: string; units: string } | undefined {
  const m = /^\s*([-+]?[0-9.,eE+-]+)\s*([^\s\d].*?)?\s*$/.exec(text ?? '');
  if (!m) return undefined;
  return { qty: m[1], units: m[2] ?? 'm' };
}

/**
 * A `<Workout>` (attributes, its `<WorkoutStatistics>` children's attributes and its
 * `<MetadataEntry>` children as `{key: value}`) → a v1-like HAE workout object for workouts.ts:
 * `{name, start, end, duration (s, or {qty, units} in a unit not listed here), distance,
 * activeEnergyBurned, avgHeartRate, maxHeartRate, elevationUp, source}`. The ascent is the
 * `HKElevationAscended` metadata, a number with its unit as Apple writes it (`4523 cm`, `120 m`,
 * `980 ft`).
 *
 * Its start and end are read in the zone its `HKTimeZone` metadata names (inRecordZone).
 *
 * Newer exports (iOS 16 on) nest a `<WorkoutActivity>` per activity in the workout, and may write
 * the ascent only in an activity's metadata: `activityAscents` are those values, summed (in
 * metres) when the workout's own metadata has none. A multisport workout (swim, bike, run) has
 * one `WorkoutStatistics` per distance type: its distance is their sum, in km.
 */
export function mapWorkout(
  a: Record<string, string>,
  stats: Record<string, string>[],
  meta: Record<string, string> = {},
  activityAscents: string[] = [],
): Record<string, unknown> {
  const zoned = meta.HKTimeZone === undefined ? a : inRecordZone(a, meta.HKTimeZone);
  const w: Record<string, unknown> = {
    name: workoutName(a.workoutActivityType),
    start: zoned.startDate,
    end: zoned.endDate,
  };
  const source = sourceOf(a);
  if (source) w.source = source;
  const d = Number(a.duration);
  const unit = a.durationUnit ?? 'min';
  const perUnit = DURATION_S[unit];
  if (Number.isFinite(d) && perUnit) w.duration = d * perUnit;
  else if (a.duration !== undefined) w.duration = { qty: a.duration, units: unit };
  // a total written as 0 is "not recorded" (workouts.ts leaves it out): the statistics may have it
  if (a.totalDistance !== undefined && Number(a.totalDistance) !== 0)
    w.distance = { qty: a.totalDistance, units: a.totalDistanceUnit ?? 'km' };
  if (a.totalEnergyBurned !== undefined && Number(a.totalEnergyBurned) !== 0) {
    w.activeEnergyBurned = { qty: a.totalEnergyBurned, units: a.totalEnergyBurnedUnit ?? 'kcal' };
  }
  const ascent =
    quantityText(meta.HKElevationAscended) ?? summedQuantity(activityAscents.map(quantityText), 'm');
  if (ascent) w.elevationUp = ascent;
  const distances = new Map<string, { qty: string; units: string }>();
  for (const s of stats) {
    const type = s.type ?? '';
    if (type === `${Q}ActiveEnergyBurned` && w.activeEnergyBurned === undefined && s.sum !== undefined) {
      w.activeEnergyBurned = { qty: s.sum, units: s.unit ?? 'kcal' };
    } else if (type.startsWith(`${Q}Distance`) && s.sum !== undefined) {
      if (!distances.has(type)) distances.set(type, { qty: s.sum, units: s.unit ?? 'km' });
    } else if (type === `${Q}HeartRate`) {
      if (s.average !== undefined) w.avgHeartRate = { qty: s.average, units: s.unit ?? 'count/min' };
      if (s.maximum !== undefined) w.maxHeartRate = { qty: s.maximum, units: s.unit ?? 'count/min' };
    }
  }
  if (w.distance === undefined && distances.size > 0)
    w.distance = summedQuantity([...distances.values()], 'km');
  return w;
}

/**
 * Quantities `{qty, units}` → one: the only one as it is (so a single value keeps its unit and
 * text), several summed in `unit` (`m` or `km`). Undefined when there is none; the first as it is
 * when one of them cannot be converted (workouts.ts then names its unit in a warning).
 */
function summedQuantity(
  qs: ({ qty: string; units: string } | undefined)[],
  unit: 'm' | 'km',
): { qty: string; units: string } | undefined {
  const present = qs.filter((q): q is { qty: string; units: string } => q !== undefined);
  if (present.length <= 1) return present[0];
  let total = 0;
  for (const q of present) {
    const v = convertUnit(DIMENSIONS[unit], q.units, Number(q.qty));
    if (v === undefined || !Number.isFinite(v)) return present[0];
    total += v;
  }
  return { qty: String(total), units: unit };
}
