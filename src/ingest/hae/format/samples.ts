/**
 * From a normalised payload to one flat list of samples (docs/HEALTH-AUTO-EXPORT.md "The metrics").
 *
 * Each metric block is read with its catalogue entry (names and aliases resolved, values converted
 * from the block's `units` into the canonical unit), each workout with workouts.ts, sleep with
 * sleep.ts. Points that cannot be read (bad timestamp, unknown unit, non-finite number) are
 * counted and reported, never thrown. Metrics the catalogue does not know are kept under their
 * own name (pitfall "Keep unknown names, don't reject"), so discovery can offer them.
 */

import { headGraphemes } from '../../../common/graphemes.js';
import { type CatalogueEntry, resolveMetric } from './catalogue.js';
import { CYCLE_TRACKING_BLOCK, cycleBlocks } from './cycle-tracking.js';
import { ECG_BLOCK, ecgBlock } from './ecg.js';
import { HEART_RATE_NOTIFICATIONS_BLOCK, notificationBlocks } from './heart-rate-notifications.js';
import { MAX_METRIC_NAME_CHARS, MAX_SAMPLE_MAGNITUDE } from './limits.js';
import { doseField, medicationOf } from './medications.js';
import { numberAndUnit, readNumber } from './numbers.js';
import { OccurrenceCounter, type OccurrenceCounting } from './occurrences.js';
import type { MetricBlock, NormalisedPayload } from './payload.js';
import { dateProblem, outOfRange, valueProblem } from './plausible.js';
import { inItsZone, namedZone } from './recorded-zone.js';
import {
  dedupKeyOf,
  makeSample,
  markedPartOfDay,
  type PointRead,
  partKeyOf,
  type Sample,
  type SampleSpan,
  type SampleValue,
  SkipCounter,
  sourceOf,
} from './sample.js';
import { readSleepPoint } from './sleep.js';
import { symptomFelt } from './symptoms.js';
import { OVER_DAYS_REASON, type TimeGrouping } from './time-grouping.js';
import { unreadable } from './timestamp-spellings.js';
import { parseHaeTimestamp } from './timestamps.js';
import { type Conversion, conversionOf, convertRounded, DIMENSIONS, isUnitFree, unitKey } from './units.js';
import { readWorkout, workoutFieldWord } from './workouts.js';

/** What `extractSamples` returns. */
export interface ExtractResult {
  /** Every readable point, metric blocks in payload order, then workouts. */
  samples: Sample[];
  /** Points that could not be read (each counted once). */
  skipped: number;
  /** One line per (metric, reason) of the skipped points. */
  warnings: string[];
  /** Metric names (as sent, lower-cased) the catalogue does not know; their samples are in `samples`. */
  unknownMetrics: string[];
  /** Canonical keys of the catalogue metrics the payload listed, including blocks with `"data": []`. */
  knownMetrics: string[];
}

/**
 * A normalised payload → samples with canonical metric keys, local dates (`YYYY-MM-DD` as written
 * in each timestamp) and content-hash dedup keys. Pure: the same payload always gives the same
 * samples and keys, so re-sent overlapping payloads dedupe in the store.
 *
 * Points with the same timestamp and source but other values differ by their values alone. A point
 * identical to one read before (same metric, instant, source and values: two equal foods logged in
 * the same minute) is another fact: the second and later copies get a `seq` value (1, 2, ...)
 * counted by `occurrences` (OccurrenceCounter), so the keys of the copies differ from each other
 * but never depend on where the points sit in the payload. A caller that extracts one file in
 * several calls passes one counter to all of them; without it each call counts afresh.
 *
 * `sharedSkips`: the same for the points that cannot be read. Given, they are counted into it (one
 * line per metric and reason over all the calls, which the caller reports once at the end: a file
 * read in hundreds of parts must not give hundreds of lines for one cause), `skipped` counts this
 * call's points and `warnings` leaves them out.
 *
 * `zone`: the person's IANA zone (the process's when undefined), whose clock dates an instant
 * written in UTC (seconds since 1970, `Z`: instant-zone.ts); a stamp with the phone's offset is
 * dated as written whatever the zone.
 *
 * `grouping`: what the automation's time grouping says of the metric points (time-grouping.ts):
 * `within-day`, a summed point is part of its day, never the day's total; `over-days`, a point
 * stamped at local midnight (a week's or month's summary) is left out with a warning.
 */
export function extractSamples(
  payload: NormalisedPayload,
  counter?: OccurrenceCounting,
  sharedSkips?: SkipCounter,
  zone?: string,
  grouping?: TimeGrouping,
): ExtractResult {
  const skips = sharedSkips ?? new SkipCounter();
  const skippedBefore = skips.total;
  const st: ExtractState = {
    occurrences: counter,
    // with its own counter and one block, a daily block needs no counting: its points have distinct
    // (date, source), so distinct contents, and nothing before or after them shares the counter
    alone: counter === undefined && payload.metrics.length === 1,
    samples: [],
    skips,
    unknown: new Set<string>(),
    known: new Set<string>(),
    longNames: { count: 0, example: '' },
    zone,
    grouping,
  };
  for (const block of payload.metrics) readBlock(block, st);
  if (payload.workouts.length) readWorkouts(payload.workouts, st);
  const { samples, unknown, known, longNames } = st;

  const warnings = sharedSkips ? [] : skips.lines();
  if (longNames.count) {
    warnings.push(
      `${longNames.count} metric block(s) whose name is longer than ${MAX_METRIC_NAME_CHARS} characters skipped (e.g. "${longNames.example}")`,
    );
  }
  return {
    samples,
    skipped: skips.total - skippedBefore,
    warnings,
    unknownMetrics: [...unknown],
    knownMetrics: [...known],
  };
}

/**
 * What one extraction collects as it reads blocks and workouts (readBlock, readWorkouts): kept in
 * one object so each part of a payload is read by its own small function. A function the
 * optimising compiler made for the first blocks then stays valid when a later block of another
 * shape, or the workouts, takes a path the first blocks never took (that used to throw the whole
 * extraction back to the interpreter and compile it again, in the middle of a push).
 */
interface ExtractState {
  occurrences: OccurrenceCounting | undefined;
  /** One block read with its own counter (see extractSamples). */
  alone: boolean;
  samples: Sample[];
  skips: SkipCounter;
  unknown: Set<string>;
  known: Set<string>;
  longNames: { count: number; example: string };
  /** The person's zone (extractSamples). */
  zone: string | undefined;
  /** The automation's time grouping (extractSamples). */
  grouping: TimeGrouping | undefined;
}

/** One metric block's points → samples, into `st`. */
function readBlock(block: MetricBlock, st: ExtractState): void {
  const skips = st.skips;
  const name = metricName(block.name);
  if (name === HEART_RATE_NOTIFICATIONS_BLOCK) {
    for (const b of notificationBlocks(block)) readBlock(b, st);
    return;
  }
  if (name === CYCLE_TRACKING_BLOCK) {
    const { blocks, leftOut } = cycleBlocks(block);
    for (const l of leftOut) skips.add(l.metric, l.reason, l.example);
    for (const b of blocks) readBlock(b, st);
    return;
  }
  if (name === ECG_BLOCK) {
    readBlock(ecgBlock(block), st);
    return;
  }
  if (name.length > MAX_METRIC_NAME_CHARS) {
    if (st.longNames.count++ === 0) st.longNames.example = `${headGraphemes(name, 40)}...`;
    return;
  }
  const entry = resolveMetric(name);
  if (entry?.shape === 'workouts') {
    skips.add(name, 'workouts sent as a metric block are not read; send them in "workouts"');
    return;
  }
  if (entry) st.known.add(entry.reads);
  else st.unknown.add(name);
  const metric = entry ? entry.reads : name;
  const reads: Extract<PointRead, { ok: true }>[] = [];
  const units = entry ? blockUnits(entry, block.units) : undefined;
  for (const point of block.data) {
    const zone = namedZone(point);
    const p = zone === undefined ? point : inItsZone(point, zone);
    const r = units ? readPoint(units, p, st.zone) : readUnknownPoint(block, p, st.zone);
    if (!r.ok) {
      skips.add(metric, r.reason, r.example);
      continue;
    }
    if (zone !== undefined) r.zoneNamed = true;
    if (st.grouping && entry && entry.shape !== 'sleep' && !grouped(r, st.grouping)) {
      skips.add(metric, OVER_DAYS_REASON, r.at);
      continue;
    }
    const bad = implausible(entry, r);
    if (bad) skips.add(metric, bad.reason, bad.example);
    else {
      if (r.notes) for (const n of r.notes) skips.note(metric, n.reason, n.example);
      reads.push(r);
    }
  }
  const span: SampleSpan = entry?.shape !== 'sleep' && isDailyBlock(reads) ? 'day' : 'sample';
  const samples = st.samples;
  const inDay = st.grouping !== undefined && st.grouping !== 'over-days' && entry?.kind === 'sum';
  if (st.alone && span === 'day' && !inDay) {
    for (const r of reads)
      samples.push(zoned(makeSample(metric, r.time, r.at, r.values, r.source, span, r.keyValues), r));
    return;
  }
  for (const r of reads) {
    const s = makeSample(metric, r.time, r.at, r.values, r.source, span, r.keyValues);
    // counted by content with span `sample`: a streamed block or a file read in parts may see
    // one chunk of a block as daily and the next not
    const content =
      span === 'sample'
        ? s.dedupKey
        : dedupKeyOf(metric, r.time, 'sample', r.keyValues ?? r.values, r.source);
    st.occurrences ??= new OccurrenceCounter();
    const n = st.occurrences.next(content, metric, r.time.date);
    const keyed = r.keyValues && { ...r.keyValues, seq: n };
    const made = n > 0 ? makeSample(metric, r.time, r.at, { ...r.values, seq: n }, r.source, span, keyed) : s;
    samples.push(zoned(entry?.kind === 'sum' ? withPartKey(made, r, inDay) : made, r));
  }
}

/**
 * Sample `s` of a summed metric's point `r` with its part-of-day key (Sample.partKey), and marked
 * a part of its day when a grouping within the day (`inDay`: the automation-aggregation header
 * says Hours, Minutes or Seconds) stamps it at local midnight. The mark never enters the key, so
 * the same measurement sent under another header, or none, is the same sample. A point whose
 * own kind makes it part of its day (a symptom, a dose, an Apple record) is left as it is; a
 * daily total sent with no header has no such key to look for.
 */
function withPartKey(s: Sample, r: Extract<PointRead, { ok: true }>, inDay: boolean): Sample {
  if (r.values.partOfDay === true) return s;
  const midnight = r.time.time === '00:00:00';
  if (!inDay && (!midnight || s.span === 'day')) return s;
  const out = inDay && midnight ? markedPartOfDay(s) : s;
  out.partKey = partKeyOf(out, r.time);
  return out;
}

/**
 * Applies the automation's time grouping to point `r` (time-grouping.ts): false when the point
 * is a summary over several days (left out). A summed point of a grouping within the day is
 * marked as part of its day when its sample is made (withPartKey).
 */
function grouped(r: Extract<PointRead, { ok: true }>, grouping: TimeGrouping): boolean {
  return grouping !== 'over-days' || r.time.time !== '00:00:00';
}

/**
 * `s` marked as its point's zone was named (Sample.zoneNamed), when it was, and as restating its
 * stored row (Sample.restates), when its point does.
 */
function zoned(s: Sample, r: Extract<PointRead, { ok: true }>): Sample {
  if (r.zoneNamed) s.zoneNamed = true;
  if (r.restates) s.restates = true;
  if (r.splitOf !== undefined) s.splitOf = r.splitOf;
  return s;
}

/** The workouts section → samples, into `st`. */
function readWorkouts(workouts: NormalisedPayload['workouts'], st: ExtractState): void {
  st.known.add('workouts');
  const workoutsEntry = resolveMetric('workouts');
  for (const w of workouts) {
    const zone = namedZone(w);
    const r = readWorkout(zone === undefined ? w : inItsZone(w, zone), st.zone);
    if (r.ok && workoutsEntry) leaveOutOfRangeOut(workoutsEntry, r);
    const bad = r.ok ? implausible(workoutsEntry, r) : r;
    if (bad) st.skips.add('workouts', bad.reason, bad.example);
    else if (r.ok) {
      for (const n of r.notes ?? []) st.skips.note('workouts', n.reason, n.example);
      const s = makeSample('workouts', r.time, r.at, r.values, r.source, 'sample', r.keyValues);
      if (zone !== undefined) s.zoneNamed = true;
      st.samples.push(s);
    }
  }
}

/**
 * A workout's fields that are no reading of a body or of a workout (a heart rate of 2500, an
 * energy of 1e12 kcal: plausible.ts; any number beyond MAX_SAMPLE_MAGNITUDE) left out of it,
 * each with a note; the workout itself is kept.
 */
function leaveOutOfRangeOut(
  entry: CatalogueEntry,
  r: Extract<PointRead, { ok: true }> & { notes?: { reason: string; example?: unknown }[] },
): void {
  for (const [k, v] of Object.entries(r.values)) {
    if (typeof v !== 'number') continue;
    const out =
      Math.abs(v) > MAX_SAMPLE_MAGNITUDE
        ? `${workoutFieldWord(k)} beyond ±${MAX_SAMPLE_MAGNITUDE.toExponential()}`
        : outOfRange(entry, k, v);
    if (out === undefined) continue;
    delete r.values[k];
    if (r.keyValues) delete r.keyValues[k];
    r.notes = [...(r.notes ?? []), { reason: `${out}, left out`, example: v }];
  }
}

/** Lone UTF-16 surrogates (a `\ud800` escape in the JSON): not text, stored by SQLite as U+FFFD. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The metric name a block's samples are stored and discovered under: trimmed, lower case, each
 * lone surrogate replaced by U+FFFD, the form the database keeps, so the name the answer echoes
 * (`availableUnsubscribed`) is the name discoveries list.
 */
function metricName(raw: string): string {
  return raw.trim().toLowerCase().replace(LONE_SURROGATE, '\ufffd');
}

/**
 * Why a read point is refused as implausible (plausible.ts: date out of range; for catalogue
 * metrics, a negative count or total, a value beyond the magnitude bound), or undefined.
 */
function implausible(
  entry: CatalogueEntry | undefined,
  r: Extract<PointRead, { ok: true }>,
): { reason: string; example?: unknown } | undefined {
  const date = dateProblem(r.time.date);
  if (date) return { reason: date, example: r.at };
  return entry ? valueProblem(entry, r.values) : undefined;
}

/**
 * A block is daily when every point sits at local midnight and no (date, source) repeats
 * ("Summarize data" ON with daily grouping: docs/HEALTH-AUTO-EXPORT.md, "Daily aggregates are stamped at
 * local midnight"). Minute samples, hourly buckets and the midnight-stamped `sexual_activity`
 * events (several a day) are not.
 */
function isDailyBlock(reads: Extract<PointRead, { ok: true }>[]): boolean {
  if (reads.length === 0) return false;
  // per date, the source of its one point so far (no key text built per point: a daily block has
  // one point a date), or the sources once a date has points from several
  const seen = new Map<string, string | Set<string>>();
  for (const r of reads) {
    if (r.time.time !== '00:00:00') return false;
    const date = r.time.date;
    const source = r.source ?? '';
    const prev = seen.get(date);
    if (prev === undefined) seen.set(date, source);
    else if (typeof prev === 'string') {
      if (prev === source) return false;
      seen.set(date, new Set([prev, source]));
    } else {
      if (prev.has(source)) return false;
      prev.add(source);
    }
  }
  return true;
}

/**
 * A metric block's entry and how its numbers convert, resolved once per block from its `units`
 * (one `units` string per block: docs/HEALTH-AUTO-EXPORT.md), not once per value.
 */
interface BlockUnits {
  entry: CatalogueEntry;
  units: string;
  /** Into the entry's canonical unit; undefined for a unit its dimension does not know. */
  conv: Conversion | undefined;
  /** `blood_glucose`: the field the block's unit names (`mgdl` or `mmol`), undefined when neither. */
  glucoseField: 'mgdl' | 'mmol' | undefined;
}

const MG_DL = unitKey('mg/dL');
// whatever molar mass Apple writes inside it (units.ts); mmol/mol (an HbA1c) is not a glucose level
const MMOL_L = unitKey('mmol/L');

function blockUnits(entry: CatalogueEntry, units: string): BlockUnits {
  let glucoseField: BlockUnits['glucoseField'];
  if (entry.shape === 'glucose') {
    const key = unitKey(units);
    glucoseField = key === MG_DL ? 'mgdl' : key === MMOL_L ? 'mmol' : undefined;
  }
  const dimension = DIMENSIONS[entry.dimension];
  // no `units` at all: canonical only where no other unit exists (a weight may be lb)
  const conv = units.trim() === '' && !isUnitFree(dimension) ? undefined : conversionOf(dimension, units);
  return { entry, units, conv, glucoseField };
}

const NON_FINITE = 'non-finite number';
/** Text like `12,345`: 12.345 in one region, 12345 in another (numbers.ts localNumber). */
const AMBIGUOUS = 'number whose comma or point may be a decimal or a thousands mark';

/**
 * The exact converted values of a point's fields whose stored value was rounded (field → value),
 * to key the sample on (Sample.keyValues).
 */
type ExactValues = Record<string, number>;

/**
 * One numeric field of a point: the number in the canonical unit, rounded when it was converted
 * (units.ts convertRounded; the exact value goes into `exact[field]`), undefined when absent, or
 * a string saying why it cannot be read (non-finite, unknown unit).
 */
function numberField(
  b: BlockUnits,
  raw: unknown,
  field: string,
  exact: ExactValues,
): number | string | undefined {
  let n: number;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return NON_FINITE;
    n = raw;
  } else {
    const r = readNumber(raw);
    if (r.nonFinite) return NON_FINITE;
    if (r.ambiguous) return AMBIGUOUS;
    if (r.value === undefined) return undefined;
    n = r.value;
  }
  const conv = b.conv;
  if (conv === undefined)
    return b.units.trim() === ''
      ? `no units sent for ${b.entry.key}, ${DIMENSIONS[b.entry.dimension].canonical} or another unit cannot be told`
      : `unknown unit "${b.units}" for ${b.entry.key}`;
  let v = typeof conv === 'number' ? n * conv : conv(n);
  if (!Number.isFinite(v)) return NON_FINITE;
  let scale = 1;
  // a value sent in a percent unit (not one already a fraction made a percent)
  if (b.entry.fractionToPercent && conv === 1 && v >= 0 && v <= 1) {
    v *= 100;
    scale = 100;
  }
  const rounded = convertRounded(conv, n, scale);
  if (rounded !== v) exact[field] = v;
  return rounded;
}

/** Puts one numeric field into `values`; returns why it cannot be read, if so. */
function putNumber(
  values: Record<string, SampleValue>,
  field: string,
  b: BlockUnits,
  raw: unknown,
  exact: ExactValues,
): string | undefined {
  const v = numberField(b, raw, field, exact);
  if (typeof v === 'string') return v;
  if (v !== undefined) values[field] = v;
  return undefined;
}

/** Reads one point of a catalogue metric per its shape (docs/HEALTH-AUTO-EXPORT.md "Special shapes"). */
function readPoint(block: BlockUnits, sent: Record<string, unknown>, zone: string | undefined): PointRead {
  const point = withOwnQuantity(withPlainParts(sent));
  const b = ownUnits(block, point);
  const entry = b.entry;
  if (entry.shape === 'sleep') return readSleepPoint(point, b.units, zone);
  // the app's sections beside the metrics (symptoms, medications) name their time `start`
  const stamp = point.date ?? point.startDate ?? point.start;
  const time = parseHaeTimestamp(stamp, zone);
  if (!time) return { ok: false, reason: unreadable('unreadable timestamp', stamp), example: stamp };
  const values: Record<string, SampleValue> = {};
  const exact: ExactValues = {};
  let bad: string | undefined;
  switch (entry.shape) {
    case 'minAvgMax':
      bad =
        putNumber(values, 'min', b, point.Min ?? point.min ?? point.qty, exact) ??
        putNumber(values, 'avg', b, point.Avg ?? point.avg ?? point.qty, exact) ??
        putNumber(values, 'max', b, point.Max ?? point.max ?? point.qty, exact);
      break;
    case 'bloodPressure':
      bad =
        putNumber(values, 'systolic', b, point.systolic, exact) ??
        putNumber(values, 'diastolic', b, point.diastolic, exact);
      break;
    case 'glucose': {
      const field = b.glucoseField;
      if (!field) return { ok: false, reason: `unknown unit "${b.units}" for blood_glucose` };
      const n = readNumber(point.qty);
      if (n.nonFinite) bad = NON_FINITE;
      else if (n.value !== undefined) values[field] = n.value;
      break;
    }
    case 'symptom': {
      // a symptom logged as absent is no symptom felt; a severity in words Klebb does not know
      // (the app writes the phone's language) still says it was felt
      if (symptomFelt(point.severity ?? point.value) === false)
        return {
          ok: false,
          reason: 'symptom logged as not present, not counted',
          example: point.severity ?? point.value,
        };
      values.count = 1;
      const name = point.symptom ?? point.name;
      if (typeof name === 'string') values.symptom = name;
      // one event each, never a day's total, whatever its time
      values.partOfDay = true;
      break;
    }
    case 'mood':
      bad = putNumber(values, 'valence', b, point.valence ?? point.qty, exact);
      break;
    case 'doses': {
      const field = doseField(point.status);
      if (!field)
        return {
          ok: false,
          reason: 'dose neither taken nor skipped, left out',
          example: point.status ?? null,
        };
      values[field] = 1;
      const name = medicationOf(point);
      if (name !== undefined) values.medication = name;
      values.partOfDay = true;
      break;
    }
    case 'outcome': {
      // the field of the outcome the point names (cycle-tracking.ts, ecg.ts wrote it); any other is none
      const outcome = point.outcome;
      if (typeof outcome !== 'string' || !entry.fields.some((f) => f.name === outcome))
        return {
          ok: false,
          reason: 'unknown result, left out',
          example: point.value ?? outcome ?? null,
        };
      values[outcome] = 1;
      values.partOfDay = true;
      break;
    }
    case 'counts':
      values.logged = true;
      bad =
        putNumber(values, 'unspecified', b, point.Unspecified, exact) ??
        putNumber(values, 'protectionUsed', b, point['Protection Used'], exact) ??
        putNumber(values, 'protectionNotUsed', b, point['Protection Not Used'], exact);
      break;
    default: {
      const unitMs = point.qty === undefined ? SPAN_UNIT_MS[entry.dimension] : undefined;
      if (unitMs !== undefined) {
        const length = spanLength(point, unitMs, zone);
        if (typeof length === 'string') return { ok: false, reason: length, example: point.endDate };
        if (length !== undefined) values[entry.fields[0].name] = length;
      } else bad = putNumber(values, entry.fields[0].name, b, point.qty, exact);
    }
  }
  if (bad) return { ok: false, reason: bad, example: point.qty ?? point.Avg ?? point.systolic };
  if (entry.textFields) {
    for (const t of entry.textFields) if (typeof point[t] === 'string') values[t] = point[t] as string;
  }
  // a point known to cover part of its day only (an Apple record, records.ts): never a daily total
  if (point.partOfDay === true) values.partOfDay = true;
  if (entry.shape !== 'counts' && !hasField(entry, values)) {
    return { ok: false, reason: 'no value', example: point };
  }
  const read: PointRead = { ok: true, time, at: String(stamp), values, source: sourceOf(point.source) };
  if (Object.keys(exact).length > 0) read.keyValues = { ...values, ...exact };
  if (point.wholeQty !== undefined || point.splitOf !== undefined) return splitPart(read, point, b);
  return read;
}

/**
 * `read`, the part of an Apple Health record on one side of midnight (apple-health/midnight-split.ts),
 * keyed as that part: the part before midnight (`wholeQty`) on the whole record's values, with
 * the mark that it restates what the whole record stored (Sample.restates); the part after
 * (`splitOf`) with the record's stamp among its key values. A point whose whole value cannot be
 * read is keyed as it is.
 */
function splitPart(
  read: Extract<PointRead, { ok: true }>,
  point: Record<string, unknown>,
  b: BlockUnits,
): PointRead {
  const field = b.entry.fields[0].name;
  if (point.splitOf !== undefined) {
    read.keyValues = { ...(read.keyValues ?? read.values), splitOf: String(point.splitOf) };
    read.splitOf = String(point.splitOf);
    return read;
  }
  const whole: Record<string, SampleValue> = { ...read.values };
  const exact: ExactValues = {};
  if (putNumber(whole, field, b, point.wholeQty, exact) !== undefined || whole[field] === undefined)
    return read;
  read.keyValues = Object.keys(exact).length > 0 ? { ...whole, ...exact } : whole;
  read.restates = true;
  return read;
}

/**
 * `point` with a quantity written as `{qty, units}` (the shape of a workout's quantities, as some
 * exporters write every value; `{value, unit}` alike) or as text with its unit (`"70.5 kg"`,
 * also in the phone's own digits, `"٧٠٫٥ kg"`) as the number and its `units`; `point` itself
 * otherwise. A point with no `qty` whose `value` is a number (`{"date": …, "value": 55}`, as
 * HealthKit readers and scripts name a sample's quantity) has that number as its quantity; a
 * `value` that is a word (a sleep stage, a handwashing `Complete`) is not one.
 */
function withOwnQuantity(point: Record<string, unknown>): Record<string, unknown> {
  const q = point.qty === undefined && isNumberValue(point.value) ? point.value : point.qty;
  if (typeof q === 'string') {
    const m = numberAndUnit(q);
    return m ? { ...point, ...m } : q === point.qty ? point : { ...point, qty: q };
  }
  if (q === null || typeof q !== 'object' || Array.isArray(q))
    return q === point.qty ? point : { ...point, qty: q };
  const o = q as Record<string, unknown>;
  const units = o.units ?? o.unit;
  return {
    ...point,
    qty: o.qty ?? o.value,
    ...(typeof units === 'string' && units.trim() !== '' ? { units } : {}),
  };
}

/** A `value` that is a quantity: a finite number, or text that reads as one (`"55"`, `"70.5 kg"`). */
function isNumberValue(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'string') return false;
  return readNumber(v).value !== undefined || numberAndUnit(v) !== undefined;
}

/** The fields of a point that hold a part of its reading: a heart rate's, a blood pressure's. */
const PART_KEYS = ['Min', 'Avg', 'Max', 'min', 'avg', 'max', 'systolic', 'diastolic'];

/**
 * `point` with each part of its reading written as a quantity object (`"systolic": {"qty": 120,
 * "units": "mmHg"}`, also `{value, unit}`, as exporters that write every value so send a blood
 * pressure or a heart rate) as the number; the point takes the object's unit when it names none.
 * `point` itself when no part is such an object.
 */
function withPlainParts(point: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of PART_KEYS) {
    const v = point[key];
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    const q = v as Record<string, unknown>;
    out ??= { ...point };
    out[key] = q.qty ?? q.value;
    const units = q.units ?? q.unit;
    if (typeof units === 'string' && units.trim() !== '' && out.units === undefined) out.units = units.trim();
  }
  return out ?? point;
}

/** How a unit a point names converts, by metric and unit (a few units per metric in practice). */
const pointUnits = new Map<string, BlockUnits>();

/**
 * The units `point`'s numbers are in: its own `units` when it names one other than its block's
 * (a block sent without `units`, each point with its own, as scripts write them), else the
 * block's.
 */
function ownUnits(b: BlockUnits, point: Record<string, unknown>): BlockUnits {
  const units = point.units;
  if (typeof units !== 'string' || units.trim() === '' || units.trim() === b.units) return b;
  const key = `${b.entry.key}\u0000${units}`;
  let own = pointUnits.get(key);
  if (own === undefined) {
    own = blockUnits(b.entry, units.trim());
    if (pointUnits.size >= 1024) pointUnits.clear();
    pointUnits.set(key, own);
  }
  return own;
}

/** Milliseconds in the canonical unit of the dimensions a session's length is counted in. */
const SPAN_UNIT_MS: Partial<Record<string, number>> = { min: 60_000, s: 1000 };

/**
 * The length of a point sent as a span with no quantity (`{startDate, endDate}`: a mindful
 * session, a handwashing event, as HealthKit's category samples are), in units of `unitMs`;
 * undefined when it is no such span, a reason when its end is before its start.
 */
function spanLength(
  point: Record<string, unknown>,
  unitMs: number,
  zone: string | undefined,
): number | string | undefined {
  if (point.endDate === undefined) return undefined;
  const start = parseHaeTimestamp(point.startDate ?? point.date, zone);
  const end = parseHaeTimestamp(point.endDate, zone);
  if (!start || !end) return undefined;
  if (end.epochMs < start.epochMs) return 'span ends before it starts';
  return (end.epochMs - start.epochMs) / unitMs;
}

function hasField(entry: CatalogueEntry, values: Record<string, SampleValue>): boolean {
  for (const f of entry.fields) if (values[f.name] !== undefined) return true;
  return false;
}

/** A point of a metric the catalogue does not know: every finite number, text and flag is kept, plus `units`. */
function readUnknownPoint(
  block: MetricBlock,
  point: Record<string, unknown>,
  zone: string | undefined,
): PointRead {
  // the app's sections beside the metrics (symptoms, medications) name their time `start`
  const stamp = point.date ?? point.startDate ?? point.start;
  const time = parseHaeTimestamp(stamp, zone);
  if (!time) return { ok: false, reason: unreadable('unreadable timestamp', stamp), example: stamp };
  const values: Record<string, SampleValue> = {};
  for (const [k, v] of Object.entries(point)) {
    if (k === 'date' || k === 'source') continue;
    if (typeof v === 'number' && Number.isFinite(v)) values[k] = v;
    else if (typeof v === 'string' || typeof v === 'boolean') values[k] = v;
  }
  if (Object.keys(values).length === 0) return { ok: false, reason: 'no value', example: point };
  if (block.units) values.units = block.units;
  return {
    ok: true,
    time,
    at: String(stamp),
    values,
    source: sourceOf(point.source),
  };
}
