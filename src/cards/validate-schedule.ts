/**
 * The schedule block's `time_of_day` (docs/MANIFEST-SCHEMA.md "Schedule block"): one token or an
 * array of distinct tokens from morning|midday|evening|night; anything else is a 422
 * `invalid schedule.time_of_day`. Other schedule keys (type, on_days, legacy `frequency` ...) are
 * read leniently by the schedule engine and are not checked here.
 */
import { describeValue, type Issue, isPlainObject, type Segment } from './field-issues.js';

/** The time-of-day tokens (docs/MANIFEST-SCHEMA.md, schedule block and `schedule_due` triggers). */
export const TIME_OF_DAY_TOKENS = ['morning', 'midday', 'evening', 'night'] as const;

/** One of `TIME_OF_DAY_TOKENS`. */
export type TimeOfDay = (typeof TIME_OF_DAY_TOKENS)[number];

/** True when `v` is one time-of-day token. */
export function isTimeOfDay(v: unknown): v is TimeOfDay {
  return typeof v === 'string' && (TIME_OF_DAY_TOKENS as readonly string[]).includes(v);
}

const EXPECTED = `one of ${TIME_OF_DAY_TOKENS.join('|')} or a non-empty array of distinct ones`;

/**
 * Checks `schedule.time_of_day` when present (`at` is the path of the schedule object). An empty
 * array is rejected (it names no time). Issues drop the `time_of_day` key.
 */
export function checkScheduleTimeOfDay(schedule: unknown, at: Segment[]): Issue[] {
  if (!isPlainObject(schedule) || schedule.time_of_day === undefined) return [];
  const value = schedule.time_of_day;
  const where = [...at, 'time_of_day'];
  const issue = (detail: string): Issue[] => [
    { path: where, drops: [where], message: `invalid schedule.time_of_day: ${detail}` },
  ];
  if (isTimeOfDay(value)) return [];
  if (!Array.isArray(value)) return issue(`expected ${EXPECTED}, got ${describeValue(value)}`);
  if (value.length === 0) return issue(`expected ${EXPECTED}, got an empty array`);
  const bad = value.find((t) => !isTimeOfDay(t));
  if (bad !== undefined) return issue(`${describeValue(bad)} is not one of ${TIME_OF_DAY_TOKENS.join('|')}`);
  if (new Set(value).size !== value.length) return issue('tokens must be distinct');
  return [];
}

/**
 * Checks every `data.items[].schedule` and `data.current[].schedule` (the supplements shape) of a
 * card's data block. Only an object `data` has schedules; arrays of rows and primitives pass.
 */
export function checkDataSchedules(data: unknown): Issue[] {
  if (!isPlainObject(data)) return [];
  const issues: Issue[] = [];
  for (const list of ['items', 'current'] as const) {
    const entries = data[list];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, i) => {
      if (isPlainObject(entry))
        issues.push(...checkScheduleTimeOfDay(entry.schedule, ['data', list, i, 'schedule']));
    });
  }
  return issues;
}

/**
 * Checks the card-level `meta.schedule` when present (the cadence
 * read by `schedule-timeline`): an object, whose `time_of_day` follows the schedule-block rule.
 * Lenient drops: a non-object block whole, else a bad `time_of_day`.
 */
export function checkMetaSchedule(value: unknown, at: Segment[]): Issue[] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) {
    return [
      { path: at, drops: [at], message: `meta.schedule must be an object, got ${describeValue(value)}` },
    ];
  }
  return checkScheduleTimeOfDay(value, at);
}
