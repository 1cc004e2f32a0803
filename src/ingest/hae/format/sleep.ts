/**
 * Reading `sleep_analysis` points (docs/HEALTH-AUTO-EXPORT.md, and the "Sleep" pitfalls).
 *
 * Aggregated rows ("Summarize data" ON, one row per night), four real generations:
 * - Jan 2023: `asleep`, `inBed`, `sleepStart/End`, `inBedStart/End`, `sleepSource`, `inBedSource`;
 * - Mar 2023: `asleep`, `core`, `deep`, `rem`, `awake`, `inBed`, `sleepStart/End`, `source`;
 * - Apr 2025: as Mar 2023 plus `inBedStart/End`, with `asleep: 0` while the stages are filled;
 * - Mar 2026: as Apr 2025 plus `totalSleep`.
 * Total sleep = `totalSleep` if > 0, else `core + deep + rem (+ unspecified)` if > 0, else `asleep`.
 * A row with none of those durations but a `qty` (a night sent like any other metric point,
 * `{date, qty}`) has `qty` hours asleep; one with no duration at all is skipped with a warning.
 * A night belongs to the local date it ENDS on, read from `sleepEnd` (then `inBedEnd`, then `date`):
 * `date` means a time near sleep start in 2023, near wake-up in 2025 and local midnight of the wake
 * day in 2026, so it is never used while an end time exists.
 *
 * Unaggregated segments (`startDate`, `endDate`, `qty` hours, `value` = stage) become one sample
 * each, dated by `endDate`; sleep-nights.ts joins them into nights.
 */
import { MAX_SLEEP_HOURS_WITHOUT_WINDOW, MAX_SPAN_RECORD_HOURS, SLEEP_WINDOW_TOLERANCE_H } from './limits.js';
import { readNumber } from './numbers.js';
import { type PointRead, type SampleValue, sourceOf } from './sample.js';
import { sleepStageOf } from './sleep-stages.js';
import { unreadable } from './timestamp-spellings.js';
import { type HaeTime, parseHaeTimestamp } from './timestamps.js';
import { conversionOf, convertUnit, DIMENSIONS, roundConverted } from './units.js';

/** Duration fields of an aggregated sleep row, all hours. */
export const SLEEP_DURATION_FIELDS = [
  'totalSleep',
  'asleep',
  'core',
  'deep',
  'rem',
  'unspecified',
  'awake',
  'inBed',
] as const;

const HOUR_MS = 3_600_000;

/** True for an unaggregated segment point (FreeReps: detected by `startDate`). */
export function isSleepSegment(point: Record<string, unknown>): boolean {
  return point.startDate !== undefined && typeof point.value === 'string';
}

/**
 * One `sleep_analysis` point (`units` from its block, normally `hr`) → values for one sample:
 * aggregated rows give `{hours, asleep?, core?, deep?, rem?, unspecified?, awake?, inBed?,
 * totalSleep?, sleepStart?, sleepEnd?, inBedStart?, inBedEnd?, overlapScale?}` (durations in
 * hours, times as sent); segments give `{stage, hours, start, end}`.
 *
 * Overlapping sources (pitfalls: "`totalSleep` 27 h and `inBed` 34 h", "stages stored twice, sleep
 * summed to 17–22 h", "In Bed in the hundreds of millions"): a night cannot hold more sleep than its
 * own `sleepStart`→`sleepEnd` window (an instant difference, so a DST night is 1 h longer or
 * shorter). When total sleep exceeds that window, every duration is scaled by
 * window / (total + awake), which is exactly how consistent rows relate (asleep + awake = window),
 * and `overlapScale` records the factor. `inBed` is capped at its own window the same way. With
 * no window at all, a total over 24 h is dropped as implausible. Each adjustment is named in the
 * point's `notes` (a warning line of the push, the night named by its start and end).
 * `zone`: the person's, for stamps written in UTC (extractSamples).
 */
export function readSleepPoint(point: Record<string, unknown>, units: string, zone?: string): PointRead {
  const read = isSleepSegment(point) ? readSegment(point, units, zone) : readNight(point, units, zone);
  return roundedHours(read, point, units);
}

function hoursOf(v: unknown, units: string): { value?: number; bad?: string } {
  const n = readNumber(v);
  if (n.nonFinite) return { bad: 'non-finite number' };
  if (n.value === undefined) return {};
  const h = convertUnit(DIMENSIONS.hr, units || 'hr', n.value);
  if (h === undefined) return { bad: `unknown unit "${units}"` };
  return { value: h };
}

/**
 * `read` with its hours rounded like any converted value when `units` are not hours (minutes,
 * seconds: 7 min is 0.1166666666666667 h), the exact ones kept to key the sample on
 * (Sample.keyValues). The digits kept follow the most precise duration sent in `point`.
 */
function roundedHours(read: PointRead, point: Record<string, unknown>, units: string): PointRead {
  if (!read.ok || conversionOf(DIMENSIONS.hr, units || 'hr') === 1) return read;
  let sent = 0;
  for (const k of ['qty', ...SLEEP_DURATION_FIELDS]) {
    const n = readNumber(point[k]).value;
    if (n !== undefined && (sent === 0 || String(Math.abs(n)).length > String(Math.abs(sent)).length))
      sent = n;
  }
  const values: Record<string, SampleValue> = { ...read.values };
  let changed = false;
  for (const k of ['hours', ...SLEEP_DURATION_FIELDS]) {
    const v = values[k];
    if (typeof v !== 'number') continue;
    const r = roundConverted(v, sent);
    if (r !== v) {
      values[k] = r;
      changed = true;
    }
  }
  return changed ? { ...read, values, keyValues: read.values } : read;
}

/** Why a segment longer than MAX_SPAN_RECORD_HOURS is left out (a start never set, a wrong year). */
export const SPAN_OVER_A_DAY = `longer than a day (over ${MAX_SPAN_RECORD_HOURS} h from start to end): a start never set or of another year`;

function readSegment(point: Record<string, unknown>, units: string, zone: string | undefined): PointRead {
  const start = parseHaeTimestamp(point.startDate, zone);
  const end = parseHaeTimestamp(point.endDate, zone);
  if (!start || !end) {
    const bad = start ? point.endDate : point.startDate;
    return { ok: false, reason: unreadable('unreadable startDate/endDate', bad), example: bad };
  }
  if (end.epochMs < start.epochMs)
    return { ok: false, reason: 'segment ends before it starts', example: point.endDate };
  if (end.epochMs - start.epochMs > MAX_SPAN_RECORD_HOURS * HOUR_MS)
    return { ok: false, reason: SPAN_OVER_A_DAY, example: point.startDate };
  // the stage as the phone's language writes it (sleep-stages.ts); an unknown one is named
  const stage = sleepStageOf(String(point.value));
  if (!stage) return { ok: false, reason: 'unknown sleep stage', example: point.value };
  const q = hoursOf(point.qty, units);
  if (q.bad) return { ok: false, reason: q.bad, example: point.qty };
  const hours = q.value ?? (end.epochMs - start.epochMs) / HOUR_MS;
  return {
    ok: true,
    time: end,
    at: String(point.endDate),
    values: { stage, hours, start: String(point.startDate), end: String(point.endDate) },
    source: sourceOf(point.source),
  };
}

/** Keys of a nightly row that are not a stage's hours. */
const NIGHT_KEYS = new Set<string>([
  ...SLEEP_DURATION_FIELDS,
  'qty',
  'date',
  'source',
  'sleepSource',
  'inBedSource',
  'sleepStart',
  'sleepEnd',
  'inBedStart',
  'inBedEnd',
  'units',
]);

/**
 * `sent` with the hours of stages sent under another name (`Kern`, `Tief`, `Im Bett`: a
 * translated key, sleep-stages.ts) under the stage's own key, unless that key is sent too; and the
 * names of number fields that are no stage, to report.
 */
function nightFields(sent: Record<string, unknown>): {
  point: Record<string, unknown>;
  unknown: string[];
} {
  let point = sent;
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(sent)) {
    if (NIGHT_KEYS.has(k) || readNumber(v).value === undefined) continue;
    const stage = sleepStageOf(k);
    if (stage && sent[stage] === undefined && (point === sent || point[stage] === undefined)) {
      if (point === sent) point = { ...sent };
      point[stage] = v;
    } else unknown.push(k);
  }
  return { point, unknown };
}

function readNight(sent: Record<string, unknown>, units: string, zone: string | undefined): PointRead {
  const { point, unknown } = nightFields(sent);
  const times: Record<string, HaeTime | null> = {};
  for (const k of ['sleepStart', 'sleepEnd', 'inBedStart', 'inBedEnd', 'date'] as const) {
    times[k] = parseHaeTimestamp(point[k], zone);
  }
  const endKey = (['sleepEnd', 'inBedEnd', 'date'] as const).find((k) => times[k] !== null);
  if (!endKey)
    return {
      ok: false,
      reason: 'no readable sleepEnd, inBedEnd or date',
      example: point.sleepEnd ?? point.date,
    };

  const d: Partial<Record<(typeof SLEEP_DURATION_FIELDS)[number], number>> = {};
  for (const k of SLEEP_DURATION_FIELDS) {
    const h = hoursOf(point[k], units);
    if (h.bad) return { ok: false, reason: h.bad, example: point[k] };
    if (h.value !== undefined) d[k] = h.value;
  }
  if (Object.keys(d).length === 0) {
    // a night sent as a plain `{date, qty}` point: the qty is the hours asleep
    const q = hoursOf(point.qty, units);
    if (q.bad) return { ok: false, reason: q.bad, example: point.qty };
    if (q.value === undefined) return { ok: false, reason: 'no sleep duration', example: point[endKey] };
    d.asleep = q.value;
  }
  const stages = (d.core ?? 0) + (d.deep ?? 0) + (d.rem ?? 0) + (d.unspecified ?? 0);
  let hours = (d.totalSleep ?? 0) > 0 ? (d.totalSleep as number) : stages > 0 ? stages : (d.asleep ?? 0);

  const values: Record<string, SampleValue> = {};
  const notes: { reason: string; example: string }[] = [];
  if (unknown.length > 0)
    notes.push({
      reason: 'unknown sleep stage, its hours left out',
      example: `${unknown.join(', ')} in the night ending ${String(point[endKey])}`,
    });
  const sleepWindow = windowHours(times.sleepStart, times.sleepEnd);
  // time in bed is held to its own window only: it starts before sleep and ends after it (in bed
  // at 22:30, asleep 23:00 to 06:30), so a night sent without inBedStart/inBedEnd keeps it
  const inBedWindow = windowHours(times.inBedStart, times.inBedEnd);
  if (sleepWindow !== undefined && hours > sleepWindow + SLEEP_WINDOW_TOLERANCE_H) {
    const factor = sleepWindow / (hours + (d.awake ?? 0));
    for (const k of SLEEP_DURATION_FIELDS)
      if (k !== 'inBed' && d[k] !== undefined) d[k] = (d[k] as number) * factor;
    notes.push({
      reason: 'sleep longer than its night (sleepStart to sleepEnd), scaled down to fit it',
      example: `${nightName(point.sleepStart, point.sleepEnd)} (${round2(hours)} h in ${round2(sleepWindow)} h)`,
    });
    hours *= factor;
    values.overlapScale = factor;
  } else if (sleepWindow === undefined && hours > MAX_SLEEP_HOURS_WITHOUT_WINDOW) {
    return {
      ok: false,
      reason: `implausible sleep over ${MAX_SLEEP_HOURS_WITHOUT_WINDOW} h with no start/end`,
      example: hours,
    };
  }
  if (d.inBed !== undefined) {
    const cap = inBedWindow ?? MAX_SLEEP_HOURS_WITHOUT_WINDOW;
    if (d.inBed > cap + SLEEP_WINDOW_TOLERANCE_H) {
      const inBedEnds = ['inBedStart', 'inBedEnd'];
      notes.push(
        inBedWindow === undefined
          ? {
              reason: `time in bed over ${MAX_SLEEP_HOURS_WITHOUT_WINDOW} h with no start/end, left out`,
              example: `night ending ${String(point[endKey])}: ${round2(d.inBed)} h in bed`,
            }
          : {
              reason: `time in bed longer than its night (${inBedEnds[0]} to ${inBedEnds[1]}), cut to it`,
              example: `${nightName(point[inBedEnds[0]], point[inBedEnds[1]])} (${round2(d.inBed)} h in ${round2(inBedWindow)} h)`,
            },
      );
      if (inBedWindow === undefined) delete d.inBed;
      else d.inBed = inBedWindow;
    }
  }

  // nothing slept nor in bed (all zeros, or a time in bed left out above): no night to show
  if (!(hours > 0) && !((d.inBed ?? 0) > 0)) {
    const inBedLeftOut = d.inBed === undefined && hoursOf(point.inBed, units).value !== undefined;
    return {
      ok: false,
      reason: inBedLeftOut
        ? `no sleep duration, and a time in bed over ${MAX_SLEEP_HOURS_WITHOUT_WINDOW} h with no start/end`
        : 'no sleep duration',
      example: inBedLeftOut
        ? `night ending ${String(point[endKey])}: ${point.inBed} h in bed`
        : point[endKey],
    };
  }
  values.hours = hours;
  for (const k of SLEEP_DURATION_FIELDS) if (d[k] !== undefined) values[k] = d[k] as number;
  for (const k of ['sleepStart', 'sleepEnd', 'inBedStart', 'inBedEnd'] as const) {
    if (times[k]) values[k] = String(point[k]);
  }
  return {
    ok: true,
    time: times[endKey] as HaeTime,
    at: String(point[endKey]),
    values,
    source: sourceOf(point.source, point.sleepSource, point.inBedSource),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** A night named by its two ends as sent: `2026-03-01 23:00:00 +0100 to 2026-03-02 07:00:00 +0100`. */
function nightName(start: unknown, end: unknown): string {
  return `${String(start)} to ${String(end)}`;
}

/** Hours to two decimals, for a warning. */
function round2(h: number): number {
  return Math.round(h * 100) / 100;
}

/** Hours from `a` to `b` (instants, so DST nights count their real length); undefined if unknown or ≤ 0. */
function windowHours(a: HaeTime | null, b: HaeTime | null): number | undefined {
  if (!a || !b) return undefined;
  const h = (b.epochMs - a.epochMs) / HOUR_MS;
  return h > 0 ? h : undefined;
}
