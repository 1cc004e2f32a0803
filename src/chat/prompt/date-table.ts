/**
 * The `## Today's date` block of the system prompt (docs/CHAT-AGENT.md "Dates and the time zone":
 * models get weekdays wrong when left to work them out from an ISO date, so the server
 * hands them a precomputed table). It sits in the volatile segment, after both cache breakpoints
 * because it changes every day.
 */
import { addDays, isIsoDate, weekdayOf } from '../../common/dates.js';

/** First offset of the table, days before today. */
export const DATE_TABLE_FIRST_OFFSET = -14;
/** Last offset of the table, days after today. */
export const DATE_TABLE_LAST_OFFSET = 60;

/** The label a table row carries: today, tomorrow, yesterday, or none. */
function labelOf(offset: number): string {
  if (offset === 0) return ' today';
  if (offset === 1) return ' tomorrow';
  if (offset === -1) return ' yesterday';
  return '';
}

/** `+3`, `0`, `-2`: the offset column. */
function signed(offset: number): string {
  return offset > 0 ? `+${offset}` : String(offset);
}

/**
 * Input: `today`, the user's calendar date `YYYY-MM-DD` (compute it with `todayIn(timeZone)` from
 * src/common/dates.ts), and the IANA `timeZone` it was taken in (only named in the text).
 * Output: the markdown block: today's date and weekday, then one line per offset from
 * DATE_TABLE_FIRST_OFFSET to DATE_TABLE_LAST_OFFSET as `offset weekday ISO [label]`, and the
 * instruction to copy weekdays and years from the table rather than compute them.
 * Days are counted on calendar dates (UTC-midnight arithmetic), so a daylight-saving change in
 * `timeZone` never skips or repeats a date. Pure: same inputs, same bytes.
 * @throws RangeError when `today` is not a real `YYYY-MM-DD` date.
 */
export function dateContextBlock(today: string, timeZone: string): string {
  if (!isIsoDate(today))
    throw new RangeError(`today must be a YYYY-MM-DD date, got ${JSON.stringify(today)}`);
  const lines = [
    "## Today's date",
    `Today is ${weekdayOf(today)} ${today} (time zone ${timeZone}).`,
    'Take every weekday and every year from this table: find the row, copy its weekday and ISO date. ' +
      'Never work a weekday out yourself and never assume a year. For a date outside the table, ' +
      'give the ISO date and leave the weekday out unless the user named it.',
    '',
    'offset weekday ISO',
  ];
  for (let offset = DATE_TABLE_FIRST_OFFSET; offset <= DATE_TABLE_LAST_OFFSET; offset++) {
    const date = addDays(today, offset);
    lines.push(`${signed(offset)} ${weekdayOf(date)} ${date}${labelOf(offset)}`);
  }
  return lines.join('\n');
}
