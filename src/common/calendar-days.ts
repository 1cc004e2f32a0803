/**
 * Which calendar days a card has entries on, for the calendar's day markers (docs/MANIFEST-SCHEMA.md
 * "calendar": "one glyph per day with data"; src/common/calendar-marker.ts draws the glyph).
 * Shared by the browser and the server: no Node imports.
 *
 * - An array of dated rows (most cards): each object row counts on the day its date field names
 *   (`meta.view.dateField`, default `date`; a timestamp counts on the day written in it, never
 *   converted through a time zone).
 * - Scheduled items (`data.items[]` / `data.current[]`, or array rows with a `schedule`): each
 *   dose taken (`takenAt` set; a missed dose, `takenAt: null`, is no entry) counts on its
 *   `scheduledDate`, else the day of its `takenAt`.
 * Anything else (a document such as `{markdown}`, a primitive, null) has no days.
 */
import { getValue } from './display-template.js';
import { dayText, dosesOf, isTaken, scheduleItems } from './schedule.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A card's entries grouped by calendar day (`YYYY-MM-DD` → entries in the order written, so the
 * last one is the day's latest, as `latestEntry` expects). Days without entries are absent.
 * @param data the card's whole data block.
 * @param dateField the row key holding the date (default `date`); dotted paths allowed.
 */
export function entriesByDay(data: unknown, dateField = 'date'): Map<string, Obj[]> {
  const out = new Map<string, Obj[]>();
  const add = (day: string | null, entry: Obj) => {
    if (day === null) return;
    const list = out.get(day);
    if (list) list.push(entry);
    else out.set(day, [entry]);
  };
  const items = scheduleItems(data);
  const itemSet = new Set<unknown>(items.map((r) => r.item));
  for (const { item } of items) {
    for (const dose of dosesOf(item)) {
      if (isTaken(dose)) add(dayText(dose.scheduledDate) ?? dayText(dose.takenAt), dose);
    }
  }
  if (Array.isArray(data)) {
    for (const row of data) {
      if (isObj(row) && !itemSet.has(row)) add(dayText(getValue(row, dateField)), row);
    }
  }
  return out;
}
