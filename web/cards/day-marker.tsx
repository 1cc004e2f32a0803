/**
 * `day-marker`: a card's glyph on each calendar day it has an entry (docs/MANIFEST-SCHEMA.md
 * "calendar"). The calendar view (views/calendar-view.tsx) asks `dayMarkers` for the glyphs of
 * every card with `meta.calendar.enabled` and lays out each day cell with `layoutDayCell`. As a
 * card body (a view config naming `day-marker`) it draws the week ending on the shown day, with
 * the view config's own `marker` if it has one, else the card's calendar marker.
 *
 * Which days have entries: src/common/calendar-days.ts (dated rows, taken doses); which glyph:
 * src/common/calendar-marker.ts (`markerFor`: static emoji, field-emoji, trend-arrow, threshold,
 * template, with the fallback chain). Data of any other shape simply marks no day.
 */
import { entriesByDay } from '../../src/common/calendar-days.js';
import { markerFor } from '../../src/common/calendar-marker.js';
import { addDays } from '../../src/common/dates.js';
import { useCardData } from '../lib/card-data.js';
import { today } from '../lib/dates.js';
import { day as dayText } from '../lib/format.js';
import type { CardMeta } from '../lib/types.js';
import type { RendererProps } from './registry.js';
import { RendererNote } from './renderer-note.js';
import '../styles/cards/day-marker.css';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The row key holding a card's dates: `meta.calendar.dateField`, else `meta.view.dateField`, else `date`. */
export function dateFieldOf(meta: CardMeta): string {
  for (const block of [meta.calendar, meta.view]) {
    if (isObj(block) && typeof block.dateField === 'string' && block.dateField.trim() !== '')
      return block.dateField;
  }
  return 'date';
}

/** Per data block (by identity) and date field, its entries by day: computed once per data change. */
const indexes = new WeakMap<object, Map<string, Map<string, Obj[]>>>();

function indexOf(data: unknown, dateField: string): Map<string, Obj[]> {
  if (data === null || typeof data !== 'object') return new Map();
  let byField = indexes.get(data);
  if (!byField) {
    byField = new Map();
    indexes.set(data, byField);
  }
  let index = byField.get(dateField);
  if (!index) {
    index = entriesByDay(data, dateField);
    byField.set(dateField, index);
  }
  return index;
}

/**
 * The glyph card `meta` puts on each day from `from` to `to` (inclusive, `YYYY-MM-DD`) that has
 * an entry in `data`, by date. `calendarConfig` defaults to `meta.calendar`. Never throws: odd
 * data or config marks nothing or falls back to the card's emoji.
 */
export function dayMarkers(
  meta: CardMeta,
  data: unknown,
  from: string,
  to: string,
  calendarConfig: unknown = meta.calendar,
): Map<string, string> {
  const out = new Map<string, string>();
  const dateField = dateFieldOf(meta);
  const index = indexOf(data, dateField);
  if (index.size === 0) return out;
  const rows = Array.isArray(data) ? data : undefined;
  for (const [day, entries] of index) {
    if (day < from || day > to) continue;
    try {
      // today's total is only so far on a running total (markerFor then waits on some rules)
      const unfinished = day === today();
      const glyph = markerFor(calendarConfig, meta, entries, { rows, date: day, dateField, unfinished });
      if (glyph) out.set(day, glyph);
    } catch {
      // a marker that cannot be computed marks nothing rather than breaking the calendar
    }
  }
  return out;
}

/** As a card body: the seven days ending on the shown day, each with its glyph or an empty dot. */
export function DayMarker({ card, date, view }: RendererProps) {
  const { data, loading, error } = useCardData(card.id);
  if (loading) return <RendererNote>Loading…</RendererNote>;
  if (error && data === undefined) return <RendererNote tone="problem">{error.message}</RendererNote>;
  const meta = card.meta;
  // a marker in this view's config decides; without one, the card's calendar marker
  const own = view !== 'calendar' && card.viewConfig.marker !== undefined;
  const config =
    !own && isObj(meta.calendar) && meta.calendar.enabled === true
      ? meta.calendar
      : { ...card.viewConfig, enabled: true };
  const from = addDays(date, -6);
  const marks = dayMarkers(meta, data, from, date, config);
  const days = Array.from({ length: 7 }, (_, i) => addDays(from, i));
  return (
    <div class="day-marker-week">
      <ol class="day-marker-days" aria-label="The last seven days">
        {days.map((d) => {
          const glyph = marks.get(d);
          return (
            <li key={d} class={`day-marker-day${d === date ? ' day-marker-shown' : ''}`} data-date={d}>
              <span class="day-marker-weekday">{dayText(d, 'weekday-short')}</span>
              <span class="day-marker-glyph">
                {glyph ?? <span class="day-marker-none" aria-hidden="true" />}
                {!glyph && <span class="visually-hidden">no entry</span>}
              </span>
            </li>
          );
        })}
      </ol>
      <p class="day-marker-count muted">
        {marks.size === 0 ? 'No entries this week.' : `${marks.size} of 7 days with an entry.`}
      </p>
    </div>
  );
}
