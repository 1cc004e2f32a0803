/**
 * The sample: one HAE data point in canonical form, the unit the samples store keeps
 * ("stores every sample in a SQLite samples table deduplicated by content").
 */
import { hash } from 'node:crypto';
import { headGraphemes } from '../../../common/graphemes.js';
import { ownString } from './own-string.js';
import { sourceKeyText, sourceTextOf } from './sources.js';
import { canonicalTimestamp, type HaeTime } from './timestamps.js';

/** A value inside a sample: numbers in the catalogue's canonical unit, or text / flags. */
export type SampleValue = number | string | boolean;

/**
 * `span` says how the sample's metric block of one payload looked: `day` when every point of the
 * block sits at local midnight with at most one point per date and source (HAE "Summarize data"
 * ON, daily grouping), `sample` otherwise (minute/second samples, hourly buckets, sleep,
 * workouts). It is part of the dedup key, so keys stored stay valid, but aggregation does not read
 * it: the same sample sent in another push can get the other span, and a day's row must not
 * depend on how its samples were batched (aggregate.ts tells a daily total from the set of the
 * day's samples).
 */
export type SampleSpan = 'day' | 'sample';

/** One sample (see samples.ts for how each payload shape maps to it). */
export interface Sample {
  /** Canonical catalogue key the sample belongs to (`weight_body_mass`), or the raw name for a metric the catalogue does not know. */
  metric: string;
  /** Local calendar date `YYYY-MM-DD` the sample counts for (sleep: the wake day; workout: the start day). */
  date: string;
  /** The original timestamp string the sample was dated from. */
  at: string;
  /** Canonical values, e.g. `{kg: 85.59}`, `{min: 48, avg: 61.2, max: 120}`, `{hours: 7.2, ...}`. */
  values: Record<string, SampleValue>;
  /** Source as sent (devices joined with `|` in arbitrary order), null when `null` or absent. */
  source: string | null;
  span: SampleSpan;
  /**
   * Content hash of (metric, instant as written, span, source, values): the same point re-sent in
   * an overlapping payload gets the same key, so the store adds it once. 32 hex characters.
   */
  dedupKey: string;
  /**
   * The values `dedupKey` was made from, when they differ from `values`: converted values before
   * they were rounded (units.ts convertRounded). Samples stored before converted values were
   * rounded were keyed on the unrounded values, so the same point sent again keeps its key and
   * is not stored twice. A key made again (another span) uses these; so must any code that
   * re-keys stored samples from their stored values, which are the rounded ones.
   */
  keyValues?: Record<string, SampleValue>;
  /**
   * Set when `date` was worked out on the person's clock from an instant written in UTC
   * (instant-zone.ts): under another zone, or filed by older code on its UTC date, the same
   * sample may be stored on the day before or after, so the store looks there before adding it.
   */
  filedByZone?: true;
  /**
   * For a converted sample of several devices (`keyValues` set, a source with `|`): its key made
   * from its values as stored, rounded. A home that keyed such a sample on its source as sent is
   * keyed again on the names in one order from what it stored (source-order-keys.ts), and the
   * unrounded values are not stored: the store looks for that key too before adding the sample.
   */
  roundedKey?: string;
  /**
   * The date the sample's stamp has as written, when the zone it names put it on another
   * (HaeTime.writtenDate: a night slept abroad, from an Apple Health export written in the home
   * zone). An import made before such zones were read filed the same record there, read on the
   * export's clock: the store removes that reading of it rather than keep it on both days.
   */
  movedFrom?: string;
  /**
   * Set when the pushed point named the zone it was recorded in (metadata `HKTimeZone`): a push
   * that named another zone (a correction, a phone that learnt the zone later) filed the same
   * sample, with the same key, on another day; the store moves it here rather than keep both.
   */
  zoneNamed?: true;
  /**
   * The key this sample has with `partOfDay` among its key values (partKeyOf): the key a point
   * of a summed metric had when an automation grouping within the day (Hours, Minutes) stored
   * it, as older code keyed the mark, and the key a point at local midnight that says it is a
   * part of its day has. The store looks for it before adding the sample, so the same
   * measurement is one row whatever header came with it.
   */
  partKey?: string;
  /**
   * Set when the row stored under this sample's key is to take its values, being an older
   * reading of the same measurement: a point at local midnight that a grouping within the day
   * marked `partOfDay` (its `dedupKey` made without the mark, the point's key under any header),
   * whose row stored with no header (or Days) takes the mark, so the midnight hour stays a part of
   * its day; the part before midnight of an Apple Health record that crosses it
   * (apple-health/midnight-split.ts), keyed as the whole record, whose row an import before the
   * split stored with the whole value.
   */
  restates?: true;
  /**
   * The start stamp of the Apple Health record that crossed midnight, when this sample is its
   * part after midnight (apple-health/midnight-split.ts): the part before midnight, stamped so,
   * may restate a row an older import stored whole, and the undo of that restatement takes this
   * part off again (restated-samples.ts).
   */
  splitOf?: string;
}

/**
 * Builds a sample and its `dedupKey`. The timestamp is hashed in its canonical spelling, so a
 * phone switching between 12- and 24-hour display does not create duplicates; values are hashed
 * with sorted keys (HAE writes keys in random order); from `keyValues` when given (see
 * Sample.keyValues).
 */
export function makeSample(
  metric: string,
  time: HaeTime,
  at: string,
  values: Record<string, SampleValue>,
  source: string | null,
  span: SampleSpan,
  keyValues?: Record<string, SampleValue>,
): Sample {
  const s: Sample = {
    metric,
    date: time.date,
    at,
    values,
    source,
    span,
    dedupKey: dedupKeyOf(metric, time, span, keyValues ?? values, source),
  };
  if (keyValues) s.keyValues = keyValues;
  if (time.writtenDate !== undefined) s.movedFrom = time.writtenDate;
  if (keyValues && source?.includes('|')) s.roundedKey = dedupKeyOf(metric, time, span, values, source);
  // an instant at midnight UTC stays on its date whatever the zone (instant-zone.ts)
  if (time.utc && time.epochMs % 86_400_000 !== 0) s.filedByZone = true;
  return s;
}

/**
 * `s` with another span, its keys made again for it (a block read in parts may turn out daily, an
 * Apple Health record is always a sample); `s` itself when the span is its own.
 */
export function withSpan(s: Sample, time: HaeTime, span: SampleSpan): Sample {
  if (s.span === span) return s;
  const out: Sample = {
    ...s,
    span,
    dedupKey: dedupKeyOf(s.metric, time, span, s.keyValues ?? s.values, s.source),
  };
  if (s.roundedKey !== undefined) out.roundedKey = dedupKeyOf(s.metric, time, span, s.values, s.source);
  if (s.partKey !== undefined) out.partKey = partKeyOf(out, time);
  return out;
}

/**
 * The key of `s` with `partOfDay: true` among its key values (Sample.partKey): `s.keyValues` (or
 * its values) with the mark added, for its metric, instant, span and source.
 */
export function partKeyOf(s: Sample, time: HaeTime): string {
  return dedupKeyOf(s.metric, time, s.span, { ...(s.keyValues ?? s.values), partOfDay: true }, s.source);
}

/**
 * `s` (made from its point as read, no mark in its key) marked `partOfDay` in its values, its
 * key unchanged (Sample.restates): the key values keep the point as read, so the same point
 * sent without the mark has the same key.
 */
export function markedPartOfDay(s: Sample): Sample {
  return {
    ...s,
    values: { ...s.values, partOfDay: true },
    keyValues: s.keyValues ?? s.values,
    restates: true,
  };
}

/**
 * The content hash used as `dedupKey` (sha-256, first 128 bits, hex) of the text
 * `JSON.stringify([metric, canonical instant, span, source, [[key, value], ...]])` with the
 * value keys sorted. Stored keys are these bytes: the text is spelled here piece by piece (the
 * same characters JSON.stringify writes, test/hae/dedup-key.test.ts proves it) because building
 * the nested arrays and stringifying them cost more than the hash itself. The source is the text
 * sourceKeyText gives (a list of names in one order), or with `asSent` the text as it came (how
 * homes keyed it before, which a test of their migration plants).
 */
export function dedupKeyOf(
  metric: string,
  time: HaeTime,
  span: SampleSpan,
  values: Record<string, SampleValue>,
  source: string | null,
  asSent = false,
): string {
  const keys = Object.keys(values);
  if (keys.length > 1) keys.sort();
  // the canonical spelling is digits, `-`, `T`, `:`, `.` and `+` only: JSON quotes it as it is
  let text = `[${jsonOfMetric(metric)},"${canonicalTimestamp(time)}",${spanJson(span)},${typeof source === 'string' ? jsonOfSource(asSent ? source : sourceKeyText(source)) : elementJson(source)},[`;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    text += `${i ? ',' : ''}[${jsonOfKey(k)},${elementJson(values[k])}]`;
  }
  text += ']]';
  // one-shot hash: no Hash object per sample (a tenth of a push's extraction time)
  return hash('sha256', text, 'hex').slice(0, 32);
}

function spanJson(span: SampleSpan): string {
  if (span === 'day') return '"day"';
  return span === 'sample' ? '"sample"' : JSON.stringify(span);
}

/** A value as JSON.stringify writes it as an array element (`undefined`, a function: `null`). */
function elementJson(v: unknown): string {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'string':
      return JSON.stringify(v);
    default: {
      // objects (toJSON honoured), null, undefined, functions: exactly what the array form writes
      const text = JSON.stringify([v]);
      return text.slice(1, -1);
    }
  }
}

/** JSON text of the last metric name and source seen: a block repeats them on every point. */
let lastMetric = '';
let lastMetricJson = '""';
let lastSource = '';
let lastSourceJson = '""';

function jsonOfMetric(metric: string): string {
  if (metric !== lastMetric) {
    lastMetricJson = JSON.stringify(metric);
    lastMetric = metric;
  }
  return lastMetricJson;
}

/**
 * JSON text of value keys met: the catalogue's few field names and `seq` recur on every sample;
 * the keys of unknown metrics are the payload's own, so only the first MAX_KEYS_JSON are kept.
 */
const keyJson = new Map<string, string>();
const MAX_KEYS_JSON = 256;

function jsonOfKey(key: string): string {
  let json = keyJson.get(key);
  if (json === undefined) {
    json = JSON.stringify(key);
    if (keyJson.size < MAX_KEYS_JSON) keyJson.set(ownString(key), json);
  }
  return json;
}

function jsonOfSource(source: string): string {
  if (source !== lastSource) {
    lastSourceJson = JSON.stringify(source);
    lastSource = source;
  }
  return lastSourceJson;
}

/**
 * Counts points that could not be read, per metric and reason, with one example each, so a bad
 * 100 MB payload produces a handful of warning lines, not millions.
 */
export class SkipCounter {
  private readonly byReason = new Map<string, { count: number; example: string }>();
  total = 0;

  /** Records one skipped point of `metric` for `reason`; `example` is the offending text. */
  add(metric: string, reason: string, example?: unknown): void {
    this.total++;
    this.note(metric, reason, example);
  }

  /**
   * Records a point kept with a part of it left out (a workout's distance in an unknown unit):
   * a warning line like add's, not counted in `total`.
   */
  note(metric: string, reason: string, example?: unknown): void {
    const key = `${metric}: ${reason}`;
    const seen = this.byReason.get(key);
    if (seen) seen.count++;
    else this.byReason.set(key, { count: 1, example: exampleText(example) });
  }

  /**
   * One line per (metric, reason): `step_count: unreadable timestamp (2 points, e.g. "...")`, in
   * the order first met, or with `mostFirst` the causes that cost the most points first.
   */
  lines(mostFirst = false): string[] {
    const entries = [...this.byReason];
    if (mostFirst) entries.sort((a, b) => b[1].count - a[1].count);
    return entries.map(
      ([key, { count, example }]) =>
        `${key} (${count} point${count === 1 ? '' : 's'}${example ? `, e.g. ${example}` : ''})`,
    );
  }
}

function exampleText(v: unknown): string {
  if (v === undefined) return '';
  let text: string;
  try {
    text = typeof v === 'number' ? String(v) : String(JSON.stringify(v) ?? v);
  } catch {
    text = String(v);
  }
  return text.length > 80 ? `${headGraphemes(text, 77)}...` : text;
}

/** A point read from the payload, before it becomes a sample (or why it could not be read). */
export type PointRead =
  | {
      ok: true;
      time: HaeTime;
      at: string;
      values: Record<string, SampleValue>;
      source: string | null;
      /** The values to key the sample on, when some were rounded (Sample.keyValues). */
      keyValues?: Record<string, SampleValue>;
      /** The point named the zone it was recorded in (Sample.zoneNamed). */
      zoneNamed?: true;
      /** The stored row under the point's key is to take its values (Sample.restates). */
      restates?: true;
      /** The point is the part after midnight of the record stamped so (Sample.splitOf). */
      splitOf?: string;
      /**
       * What was adjusted to keep the point (a sleep night's stages scaled to fit its window):
       * a warning line each, as for skipped points (SkipCounter.note), the point is kept.
       */
      notes?: { reason: string; example?: unknown }[];
    }
  | { ok: false; reason: string; example?: unknown };

/**
 * The `source` of a point: the first of the candidates that names one, else null (`"source":
 * null`, absent). A non-blank string is taken as sent; a list of names or an object naming the
 * device is read as one text (sources.ts sourceTextOf). Up to three candidates (sleep rows:
 * `source`, `sleepSource`, `inBedSource`); fixed parameters, not a rest array, as this runs once
 * per point, and the usual string is taken before anything else is looked at.
 */
export function sourceOf(a: unknown, b?: unknown, c?: unknown): string | null {
  if (typeof a === 'string' && a.trim() !== '') return a;
  if (typeof a === 'object' && a !== null) {
    const text = sourceTextOf(a);
    if (text !== null) return text;
  }
  return b === undefined && c === undefined ? null : sourceOf(b, c);
}
