/**
 * Numbers the HAE ingestion rules use, each with its unit (kept here, beside the rules, because
 * this folder is the only place that reads them; move to src/limits.ts if another module needs one).
 */

import { FIRST_PLAUSIBLE_DAY, LAST_PLAUSIBLE_DAY } from '../../../limits.js';

/**
 * Slack when comparing a night's reported durations with its own start→end window, hours (1 min):
 * HAE rounds stage totals to the minute, so a consistent night can exceed its window by seconds.
 */
export const SLEEP_WINDOW_TOLERANCE_H = 1 / 60;

/** With no start/end window to compare against, a night longer than this is implausible, hours. */
export const MAX_SLEEP_HOURS_WITHOUT_WINDOW = 24;

/**
 * Longest span a record whose length is its value may cover, hours: a sleep stage, a mindful
 * session, a handwashing or toothbrushing event. A longer one is no night nor session but a start
 * never set (1970) or written with the wrong year, and read as one it would add thousands of
 * hours to a single day; it is left out with a warning.
 */
export const MAX_SPAN_RECORD_HOURS = 24;

/**
 * Unaggregated sleep segments (`startDate`/`endDate`/`value`) of one source with a gap up to this
 * long belong to the same session, ms (a 60-minute wake in the night does not start a new night).
 */
export const SLEEP_SEGMENT_GAP_MS = 60 * 60_000;

/**
 * Oldest local date a sample may carry, `YYYY-MM-DD`: the first day a person may enter at all
 * (src/common/limits.ts). HealthKit has no data before the iPhone, and a `0001-01-01` stamp is a
 * zeroed date, not history (the Apple Health export's oldest records are years after 1900).
 */
export const EARLIEST_SAMPLE_DATE = FIRST_PLAUSIBLE_DAY;

/**
 * Newest local date a sample may carry, `YYYY-MM-DD`: the last day a person may enter. A fixed
 * date, not "now + a margin": block extraction is memoised by content (../service.ts), so a rule
 * that changed with the clock would keep a memoised verdict after it stopped being true. 2100 is
 * past any real sample while catching a year typed or parsed as 9999 or 3023.
 */
export const LATEST_SAMPLE_DATE = LAST_PLAUSIBLE_DAY;

/**
 * Largest magnitude of one numeric value of a catalogue metric, in its canonical unit: no real
 * sample comes near (a day of steps is ~10^5, of energy in kcal ~10^4, a mcg nutrient ~10^6), and
 * millions of such samples still sum to a finite number (two samples of `1e308` summed to Infinity
 * and silently wrote no row).
 */
export const MAX_SAMPLE_MAGNITUDE = 1e9;

/**
 * Longest metric name read, characters: the longest catalogue name has 34
 * (`walking_double_support_percentage`); a block with a longer name is skipped with a warning,
 * so a 100,000-character name is neither stored nor listed in discoveries.
 */
export const MAX_METRIC_NAME_CHARS = 100;

/**
 * Metric names the catalogue does not know kept as discoveries, in all (docs/API.md
 * discoveries): past it a new unknown name is not recorded (its samples are still stored) and the
 * push says so in a warning. Catalogue metrics are always recorded (there are about 110).
 */
export const MAX_UNKNOWN_DISCOVERIES = 200;

/**
 * Longest workout name kept, characters as a person counts them: Apple's longest activity names
 * ("Traditional Strength Training", "Mixed Cardio" in any language) are a few dozen; a longer
 * name is cut, with a warning, so a 100,000-character name is not stored in every row of its day.
 */
export const MAX_WORKOUT_NAME_CHARS = 100;

/** Longest workout `id` kept, characters (the app sends a UUID, 36): a longer one is left out with a warning. */
export const MAX_WORKOUT_ID_CHARS = 100;
