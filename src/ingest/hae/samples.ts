/**
 * From a normalised payload to one flat list of samples (HAE-FORMAT sections 3–7).
 *
 * Each metric block is read with its catalogue entry (names and aliases resolved, values converted
 * from the block's `units` into the canonical unit), each workout with workouts.ts, sleep with
 * sleep.ts. Points that cannot be read (bad timestamp, unknown unit, non-finite number) are
 * counted and reported, never thrown. Metrics the catalogue does not know are kept under their
 * own name (pitfall "Keep unknown names, don't reject"), so discovery can offer them.
 */
import { type CatalogueEntry, resolveMetric } from './catalogue.js';
import { readNumber } from './numbers.js';
import type { MetricBlock, NormalisedPayload } from './payload.js';
import {
  makeSample,
  type PointRead,
  type Sample,
  type SampleSpan,
  type SampleValue,
  SkipCounter,
  sourceOf,
} from './sample.js';
import { readSleepPoint } from './sleep.js';
import { canonicalTimestamp, parseHaeTimestamp } from './timestamps.js';
import { convertUnit, DIMENSIONS, unitKey } from './units.js';
import { readWorkout } from './workouts.js';

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
 * Within one block, two points with the same timestamp and source are distinct facts (two foods
 * logged in the same minute); the second and later ones get a `seq` value (1, 2, ...) so their
 * keys differ from each other but stay stable across re-sends.
 */
export function extractSamples(payload: NormalisedPayload): ExtractResult {
  const samples: Sample[] = [];
  const skips = new SkipCounter();
  const unknown = new Set<string>();
  const known = new Set<string>();

  for (const block of payload.metrics) {
    const entry = resolveMetric(block.name);
    if (entry?.shape === 'workouts') {
      skips.add(block.name, 'workouts sent as a metric block are not read; send them in "workouts"');
      continue;
    }
    if (entry) known.add(entry.reads);
    else unknown.add(block.name.trim().toLowerCase());
    const metric = entry ? entry.reads : block.name.trim().toLowerCase();
    const reads: Extract<PointRead, { ok: true }>[] = [];
    for (const point of block.data) {
      const r = entry ? readPoint(entry, block.units, point) : readUnknownPoint(block, point);
      if (r.ok) reads.push(r);
      else skips.add(metric, r.reason, r.example);
    }
    const span: SampleSpan = entry?.shape !== 'sleep' && isDailyBlock(reads) ? 'day' : 'sample';
    const seen = new Map<string, number>();
    for (const r of reads) {
      const key = `${canonicalTimestamp(r.time)}|${r.source ?? ''}`;
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      const values = n > 0 ? { ...r.values, seq: n } : r.values;
      samples.push(makeSample(metric, r.time, r.at, values, r.source, span));
    }
  }

  if (payload.workouts.length) known.add('workouts');
  for (const w of payload.workouts) {
    const r = readWorkout(w);
    if (r.ok) samples.push(makeSample('workouts', r.time, r.at, r.values, r.source, 'sample'));
    else skips.add('workouts', r.reason, r.example);
  }

  return {
    samples,
    skipped: skips.total,
    warnings: skips.lines(),
    unknownMetrics: [...unknown],
    knownMetrics: [...known],
  };
}

/**
 * A block is daily when every point sits at local midnight and no (date, source) repeats
 * ("Summarize data" ON with daily grouping: HAE-FORMAT section 3, "Daily aggregates are stamped at
 * local midnight"). Minute samples, hourly buckets and the midnight-stamped `sexual_activity`
 * events (several a day) are not.
 */
function isDailyBlock(reads: Extract<PointRead, { ok: true }>[]): boolean {
  if (reads.length === 0) return false;
  const seen = new Set<string>();
  for (const r of reads) {
    if (r.time.time !== '00:00:00') return false;
    const key = `${r.time.date}|${r.source ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function numberField(entry: CatalogueEntry, units: string, raw: unknown): { value?: number; bad?: string } {
  const n = readNumber(raw);
  if (n.nonFinite) return { bad: 'non-finite number' };
  if (n.value === undefined) return {};
  let v = convertUnit(DIMENSIONS[entry.dimension], units, n.value);
  if (v === undefined) return { bad: `unknown unit "${units}" for ${entry.key}` };
  if (!Number.isFinite(v)) return { bad: 'non-finite number' };
  if (entry.fractionToPercent && v >= 0 && v <= 1) v *= 100;
  return { value: v };
}

/** Reads one point of a catalogue metric per its shape (HAE-FORMAT section 4 "Special shapes"). */
function readPoint(entry: CatalogueEntry, units: string, point: Record<string, unknown>): PointRead {
  if (entry.shape === 'sleep') return readSleepPoint(point, units);
  const time = parseHaeTimestamp(point.date ?? point.startDate);
  if (!time) return { ok: false, reason: 'unreadable timestamp', example: point.date ?? point.startDate };
  const values: Record<string, SampleValue> = {};
  const put = (field: string, raw: unknown): string | undefined => {
    const r = numberField(entry, units, raw);
    if (r.bad) return r.bad;
    if (r.value !== undefined) values[field] = r.value;
    return undefined;
  };
  let bad: string | undefined;
  switch (entry.shape) {
    case 'minAvgMax':
      bad =
        put('min', point.Min ?? point.min ?? point.qty) ??
        put('avg', point.Avg ?? point.avg ?? point.qty) ??
        put('max', point.Max ?? point.max ?? point.qty);
      break;
    case 'bloodPressure':
      bad = put('systolic', point.systolic) ?? put('diastolic', point.diastolic);
      break;
    case 'glucose': {
      const key = unitKey(units);
      const field = key === unitKey('mg/dL') ? 'mgdl' : key.startsWith('mmol') ? 'mmol' : undefined;
      if (!field) return { ok: false, reason: `unknown unit "${units}" for blood_glucose` };
      const n = readNumber(point.qty);
      if (n.nonFinite) bad = 'non-finite number';
      else if (n.value !== undefined) values[field] = n.value;
      break;
    }
    case 'counts':
      values.logged = true;
      bad =
        put('unspecified', point.Unspecified) ??
        put('protectionUsed', point['Protection Used']) ??
        put('protectionNotUsed', point['Protection Not Used']);
      break;
    default:
      bad = put(entry.fields[0].name, point.qty);
  }
  if (bad) return { ok: false, reason: bad, example: point.qty ?? point.Avg ?? point.systolic };
  for (const t of entry.textFields ?? []) if (typeof point[t] === 'string') values[t] = point[t] as string;
  if (!entry.fields.some((f) => values[f.name] !== undefined) && entry.shape !== 'counts') {
    return { ok: false, reason: 'no value', example: point };
  }
  return {
    ok: true,
    time,
    at: String(point.date ?? point.startDate),
    values,
    source: sourceOf(point.source),
  };
}

/** A point of a metric the catalogue does not know: every finite number, text and flag is kept, plus `units`. */
function readUnknownPoint(block: MetricBlock, point: Record<string, unknown>): PointRead {
  const time = parseHaeTimestamp(point.date ?? point.startDate);
  if (!time) return { ok: false, reason: 'unreadable timestamp', example: point.date ?? point.startDate };
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
    at: String(point.date ?? point.startDate),
    values,
    source: sourceOf(point.source),
  };
}
