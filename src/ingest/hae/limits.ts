/**
 * Numbers the HAE ingestion rules use, each with its unit (kept here, beside the rules, because
 * this folder is the only place that reads them; move to src/limits.ts if another module needs one).
 */

/**
 * Slack when comparing a night's reported durations with its own start→end window, hours (1 min):
 * HAE rounds stage totals to the minute, so a consistent night can exceed its window by seconds.
 */
export const SLEEP_WINDOW_TOLERANCE_H = 1 / 60;

/** With no start/end window to compare against, a night longer than this is implausible, hours. */
export const MAX_SLEEP_HOURS_WITHOUT_WINDOW = 24;

/**
 * Unaggregated sleep segments (`startDate`/`endDate`/`value`) of one source with a gap up to this
 * long belong to the same session, ms (a 60-minute wake in the night does not start a new night).
 */
export const SLEEP_SEGMENT_GAP_MS = 60 * 60_000;
