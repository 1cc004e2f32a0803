/**
 * Values and dates that make no sense, refused per sample with a warning (the point is skipped and
 * counted by SkipCounter, so a bad payload gives one warning line per metric and reason, naming the
 * metric and the number of points dropped). The bounds are in limits.ts:
 * - a local date before EARLIEST_SAMPLE_DATE or after LATEST_SAMPLE_DATE (`0001-01-01 …`, `9999-…`;
 *   a year of a Japanese era or of the Persian or Islamic calendar is said so);
 * - a number whose magnitude exceeds MAX_SAMPLE_MAGNITUDE (`1e308`: its sum overflows to Infinity);
 * - a negative number of a metric that counts or accumulates (kind `sum`: steps, distance, energy,
 *   water, minutes, nutrients; `sleep` durations; `sexual_activity` counts). Averages and readings
 *   (`mean`, `last`, `max`) may be negative (temperatures in °C, wrist temperature deviations).
 * - a reading of the body outside what a person or a sensor can give (PLAUSIBLE_RANGES: a heart
 *   rate of 2500 or 0 bpm, blood oxygen over 100 %, a body temperature of 98.6 °C, which was °F
 *   labelled °C): a sensor glitch or a wrong unit, never a value to average into the day or to
 *   chart. The point is left out with a warning naming the metric, the field and the value (a
 *   workout keeps everything else: only its heart rate is left out, workouts.ts).
 * A numeric string (`"500"`) is read as the number (numbers.ts) and judged like it.
 */
import type { CatalogueEntry } from './catalogue.js';
import { EARLIEST_SAMPLE_DATE, LATEST_SAMPLE_DATE, MAX_SAMPLE_MAGNITUDE } from './limits.js';
import { otherCalendarYear } from './phone-calendars.js';
import { PLAUSIBLE_RANGES } from './plausible-ranges.js';
import type { SampleValue } from './sample.js';

/**
 * Why a sample's local date `YYYY-MM-DD` is refused, or undefined when it is in range. A year a
 * phone set to another calendar writes (phone-calendars.ts otherCalendarYear) is said so.
 */
export function dateProblem(date: string): string | undefined {
  if (date < EARLIEST_SAMPLE_DATE) {
    const calendar = otherCalendarYear(Number(date.slice(0, 4)));
    return `date before ${EARLIEST_SAMPLE_DATE}${calendar ? `: ${calendar}` : ''}`;
  }
  if (date > LATEST_SAMPLE_DATE) return `date after ${LATEST_SAMPLE_DATE}`;
  return undefined;
}

/** True when the metric's numbers count or accumulate, so a negative one is an error (module comment). */
export function mustBeNonNegative(entry: CatalogueEntry): boolean {
  return entry.kind === 'sum' || entry.kind === 'sleep' || entry.shape === 'counts';
}

/**
 * Why a catalogue sample's canonical `values` are refused (`negative value`, `value beyond ±1e9`),
 * with the offending number, or undefined when all are plausible. `seq` and text are not judged.
 */
export function valueProblem(
  entry: CatalogueEntry,
  values: Record<string, SampleValue>,
): { reason: string; example: number } | undefined {
  const nonNegative = mustBeNonNegative(entry);
  for (const k in values) {
    const v = values[k];
    if (typeof v !== 'number' || k === 'seq' || k === 'overlapScale') continue;
    if (Math.abs(v) > MAX_SAMPLE_MAGNITUDE) {
      return { reason: `value beyond ±${MAX_SAMPLE_MAGNITUDE.toExponential()}`, example: v };
    }
    if (nonNegative && v < 0) return { reason: 'negative value', example: v };
    const out = outOfRange(entry, k, v);
    if (out) return { reason: out, example: v };
  }
  return undefined;
}

/**
 * Why `v`, field `field` of a sample of `entry`'s metric, is no reading of a body
 * (PLAUSIBLE_RANGES): `heart rate above 300 count/min`, `blood oxygen above 100 %`; undefined
 * when it is in range or its metric has no range.
 */
export function outOfRange(entry: CatalogueEntry, field: string, v: number): string | undefined {
  const range = PLAUSIBLE_RANGES[entry.reads]?.[field];
  if (range === undefined || (v >= range.min && v <= range.max)) return undefined;
  const unit = entry.fields.find((f) => f.name === field)?.unit;
  const bound = v < range.min ? `below ${range.min}` : `above ${range.max}`;
  return `${range.name} ${bound}${unit ? ` ${unit}` : ''}`;
}
