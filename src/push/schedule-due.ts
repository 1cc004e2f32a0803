/**
 * `schedule_due` reminders: at a time of day, the items of a schedule card (medication,
 * supplements) due then and not yet checked off today, plus the ones of earlier times of day
 * still open ("carried forward"). Fills the `{schedule_due}` and `{missed_earlier}` placeholders.
 */

import { clipGraphemes } from '../common/graphemes.js';
import { doseSlots, dueItems, shortItemName, TIMES_OF_DAY, takenCount } from '../common/schedule.js';
import { MAX_PLACEHOLDER_CHARS } from '../limits.js';

/** Names due now and names missed earlier today (each at most 20). */
export interface DueNames {
  due_now: string[];
  missed_earlier: string[];
}

const order = (token: string) => (TIMES_OF_DAY as readonly string[]).indexOf(token);

/**
 * What of schedule card data `data` is due at `timeOfDay` on `date` and not yet taken, and what
 * of earlier times of day is still open. A dose counts as taken when the day's check-offs reach
 * its place in the day (the second dose of the day needs two check-offs). A check-off written as an
 * instant (`Z` or an offset) counts on its day in `timeZone`, the person's.
 */
export function dueAtTimeOfDay(data: unknown, date: string, timeOfDay: string, timeZone?: string): DueNames {
  const out: DueNames = { due_now: [], missed_earlier: [] };
  const at = order(timeOfDay);
  for (const ref of dueItems(data, date)) {
    const slots = doseSlots(ref.item, date);
    const taken = takenCount(ref.item, date, timeZone);
    // the short name where the item has one: a reminder is read on a lock screen
    const name = shortItemName(ref.item, ref.index);
    const idx = slots.indexOf(timeOfDay);
    if (idx >= 0 && taken <= idx) out.due_now.push(name);
    else if (slots.some((tok, j) => order(tok) >= 0 && order(tok) < at && taken <= j))
      out.missed_earlier.push(name);
  }
  out.due_now = out.due_now.slice(0, 20);
  out.missed_earlier = out.missed_earlier.slice(0, 20);
  return out;
}

function cap(s: string): string {
  return clipGraphemes(s, MAX_PLACEHOLDER_CHARS);
}

/**
 * `text` with `{schedule_due}` (the names due now, comma-separated) and `{missed_earlier}`
 * (". Also missed earlier: A, B", or nothing) filled in.
 */
export function fillPlaceholders(text: string, names: DueNames | null): string {
  const due = names ? cap(names.due_now.join(', ')) : '';
  const missed =
    names && names.missed_earlier.length > 0
      ? cap(`. Also missed earlier: ${names.missed_earlier.join(', ')}`)
      : '';
  return text.replaceAll('{schedule_due}', due).replaceAll('{missed_earlier}', missed);
}
