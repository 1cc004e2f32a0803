/**
 * The person's day of a card's latest row. Stored dates mix plain days (`2026-04-21`) and
 * instants written with `Z` or an offset (`2026-04-21T03:30Z`, which is 20 April in Los Angeles),
 * so the value that sorts last as text is not always the latest day: each value near the end is
 * filed on the person's day (dayOfDateTime) and the latest of those is taken. Dates a person
 * wrote by hand another way (`2026/04/06`, `6.4.2026`) count by the day they name.
 */

import { addDays, dayOfDateTime } from '../common/dates.js';
import { DAY_FIRST_RANGES, from } from '../common/day-spellings.js';
import type { CardContext } from './card-context.js';

/**
 * The dates of the card's rows written by hand another way than `YYYY-MM-DD` that may name a
 * day after the written day `after` (`YYYY-MM-DD…`, the greatest stored that way; null: none).
 * A year-first spelling of a later day always sorts after `after` as text (`2026/…`, `2026-4-…`
 * and `2026-04-6` follow `2026-04-05`); a day-first one (`6.4.2026`) can sort anywhere, so all
 * of those are read (a few reads of the date index).
 */
export function handDatesAfter(
  ctx: Pick<CardContext, 'store'>,
  cardId: string,
  field: string,
  after: string | null,
): string[] {
  return ctx.store.handDateValues(cardId, field, [from(after ?? ''), ...DAY_FIRST_RANGES]);
}

/**
 * How many days before the text-latest written day a value may still be filed on a later day:
 * an instant moves at most two days from its written day (offsets reach -12:00 and +14:00), and
 * the text-latest value itself may move two days back.
 */
const REACH_DAYS = 4;

/**
 * The latest day (`YYYY-MM-DD`, in `timeZone`, the person's zone) that a row of the card's
 * top-level array is filed under by its `field`, or null when no row carries a real date (values
 * naming no calendar day are passed over). With `notAfter` (the person's today), the latest day
 * up to it: a row planned for a later day is not the last thing logged.
 */
export function latestRowDay(
  ctx: Pick<CardContext, 'store'>,
  cardId: string,
  field: string,
  timeZone?: string,
  notAfter?: string,
): string | null {
  // an instant is filed up to two days from the day written
  const top = ctx.store.maxDate(
    cardId,
    field,
    notAfter === undefined ? undefined : `${addDays(notAfter, 2)}~`,
  );
  // a value that names no day (2026-13-01, 9999-99-99, a time of 25:00, trailing text: a typo, a
  // hand edit) may sort after every real one, so then every dated value is read (only cards
  // holding such a value at the top pay for it)
  const topNamesDay = top !== null && dayOfDateTime(top, timeZone) !== null;
  const values = handDatesAfter(ctx, cardId, field, topNamesDay ? top : null);
  if (top !== null) {
    const first = topNamesDay ? addDays(top.slice(0, 10), -REACH_DAYS) : '';
    values.push(...ctx.store.datesFrom(cardId, field, first));
  }
  let latest: string | null = null;
  for (const v of values) {
    // a value no reader files under a day (trailing text, 25:00) is not the latest day either
    const day = dayOfDateTime(v, timeZone);
    if (day === null || (notAfter !== undefined && day > notAfter)) continue;
    if (latest === null || day > latest) latest = day;
  }
  return latest;
}
