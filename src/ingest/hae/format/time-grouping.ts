/**
 * The time grouping of the automation that sent a push, as Health Auto Export names it in the
 * `automation-aggregation` header it adds to every request (Seconds, Minutes, Hours, Days, Weeks,
 * Months, Years: the automation's "Time Grouping" when "Summarize data" is on).
 *
 * A pushed point has a time stamp only, so without the header a point stamped at local midnight
 * is taken for the day's total (aggregate.ts). The header says more:
 * - `within-day` (Seconds, Minutes, Hours): each point is a part of its day. The midnight hour of
 *   a night-shift worker (3000 steps from 00:00 to 01:00, the day's largest hour) is added to the
 *   day's other hours instead of being read as the whole day.
 * - `over-days` (Weeks, Months, Years): a point stamped at local midnight holds a whole week's,
 *   month's or year's total or mean, which is no day's value: it is left out, with a warning
 *   naming the header. A point at another time is a single sample (the automation does not
 *   summarize) and is read as usual.
 * - `default` (the app's Default): a JSON export groups by minutes (seconds for the heart rate), so
 *   it reads as `within-day`; a CSV export groups by days (csvGrouping), so as no header.
 * - undefined (Days, no header, a value not known): the point is read as before.
 */

/** What the automation's time grouping says of a push's metric points. */
export type TimeGrouping = 'within-day' | 'over-days' | 'default';

const WITHIN_DAY = new Set(['second', 'minute', 'hour']);
const OVER_DAYS = new Set(['week', 'month', 'quarter', 'year']);

/**
 * The grouping named by an `automation-aggregation` header value (`Hours`, `hours`, `hour`,
 * `Weeks`, `Default`; a list's first value). Undefined for Days, an absent header or a value not
 * known.
 */
export function timeGroupingOf(header: string | string[] | undefined): TimeGrouping | undefined {
  const raw = Array.isArray(header) ? header[0] : header;
  if (typeof raw !== 'string') return undefined;
  const word = raw.split(',')[0].trim().toLowerCase().replace(/s$/, '').replace(/ly$/, '');
  if (WITHIN_DAY.has(word)) return 'within-day';
  if (OVER_DAYS.has(word)) return 'over-days';
  if (word === 'default') return 'default';
  return undefined;
}

/** The grouping of a CSV export: the app's Default groups a CSV export by days, as no header says. */
export function csvGrouping(grouping: TimeGrouping | undefined): TimeGrouping | undefined {
  return grouping === 'default' ? undefined : grouping;
}

/** The warning reason of a point left out for an `over-days` grouping. */
export const OVER_DAYS_REASON =
  "summarized over more than a day (the automation's Time Grouping, header automation-aggregation, is weeks, months or years), so it is no day's value and is left out; set Time Grouping to Days or shorter";

/** The grouping as part of a memo key: the same bytes read under another grouping read differently. */
export function groupingKey(grouping: TimeGrouping | undefined): string {
  return grouping === undefined ? '' : `grouping=${grouping}\u0000`;
}
