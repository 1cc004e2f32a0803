/**
 * A scheduled item's past schedules, kept when a write changes its schedule (an agent's
 * update_row, a whole data block, a script's PATCH /rows). Adherence, the timeline and the
 * doctor's summary judge each day by the schedule in force that day (src/common/schedule.ts
 * `itemAsOf`): without the old schedule, a medication taken twice a day for a month and then
 * moved to once a day read as a month of extra doses, and one moved from weekly to daily as a
 * month of missed ones. The old schedule goes into the item's `schedule_history` with `until` the
 * day before the person's today; a schedule that never saw a day before today (set up today,
 * changed again the same day) is not kept, and a write that sets `schedule_history` itself is
 * taken as it is.
 */
import { canonicalJson } from '../common/canonical-json.js';
import { addDays } from '../common/dates.js';
import {
  type EarlierSchedule,
  earlierSchedules,
  readSchedule,
  SCHEDULE_HISTORY_KEY,
  type ScheduleItemRef,
  scheduleItems,
  trackedSince,
} from '../common/schedule.js';

/** The keys a schedule is written with, in a `schedule` object or flat on an older item. */
const SCHEDULE_KEYS = [
  'schedule',
  'frequency',
  'type',
  'on_days',
  'onDays',
  'days',
  'dayOfWeek',
  'daysOfWeek',
  'off_days',
  'offDays',
  'interval_days',
  'intervalDays',
  'nDays',
  'every',
  'times_per_day',
  'timesPerDay',
  'start_date',
  'startDate',
  'loading',
  'maintenance',
  'time_of_day',
  'timeOfDay',
  'cycle_weeks',
  'cycleWeeks',
];

/** Text that names a schedule key as a JSON key, or a row path that walks into a schedule. */
const MENTIONS_SCHEDULE = new RegExp(`"(?:${SCHEDULE_KEYS.join('|')})"\\s*:`);

/**
 * True when a write at `pathText` of `payload` (the appended value, the changes, the whole data)
 * may change a schedule: the path walks into one, or the payload names a schedule key. A dose
 * ticked off (`{scheduledDate, takenAt}`) does not, so ticks cost no extra read.
 */
export function maySetSchedules(pathText: string, payload: unknown): boolean {
  if (/schedule/i.test(pathText)) return true;
  if (payload === null || typeof payload !== 'object') return false;
  // a whole list of items (a data block, `items`): the items themselves, not the text of them all
  if (Array.isArray(payload) || Array.isArray((payload as Record<string, unknown>).items))
    return scheduleItems(payload).length > 0;
  return MENTIONS_SCHEDULE.test(JSON.stringify(payload));
}

/** The schedule an item is written with: its `schedule` object, else its flat schedule keys. */
function writtenSchedule(item: Record<string, unknown>): Record<string, unknown> {
  const s = item.schedule;
  if (s !== null && typeof s === 'object' && !Array.isArray(s)) return s as Record<string, unknown>;
  const flat: Record<string, unknown> = {};
  for (const k of SCHEDULE_KEYS) if (k !== 'schedule' && item[k] !== undefined) flat[k] = item[k];
  return flat;
}

/** The item of `refs` that `ref` is, after a write: the one of its unique name, else the one at its place. */
function counterpart(ref: ScheduleItemRef, before: ScheduleItemRef[], after: ScheduleItemRef[]) {
  const name = ref.item.name;
  const named = (list: ScheduleItemRef[]) =>
    typeof name === 'string' && name !== '' ? list.filter((r) => r.item.name === name) : [];
  const was = named(before);
  if (was.length === 1 && named(after).length === 1) return was[0];
  const same = before.find((r) => r.index === ref.index);
  return same && (same.item.name === undefined || same.item.name === name) ? same : undefined;
}

/** One item whose schedule a write changed: the row path of the item and the history it should keep. */
export interface KeptSchedule {
  path: string;
  history: EarlierSchedule[];
}

/**
 * The items of `after` (a card's data after a write) whose schedule differs from what it was in
 * `before`, each with the history to keep: the earlier list plus the old schedule, in force until
 * the day before `today` (the person's). Items the write gave a history of their own, and items
 * whose old schedule was in force no day before today, are left out.
 */
export function replacedSchedules(before: unknown, after: unknown, today: string): KeptSchedule[] {
  const out: KeptSchedule[] = [];
  const yesterday = addDays(today, -1);
  for (const list of ['', 'items', 'current'] as const) {
    const was = scheduleItems(before).filter((r) => r.list === list);
    const now = scheduleItems(after).filter((r) => r.list === list);
    for (const ref of now) {
      const old = counterpart(ref, was, now);
      if (!old) continue;
      if (canonicalJson(readSchedule(old.item)) === canonicalJson(readSchedule(ref.item))) continue;
      // a history the write brings is the writer's: kept as written
      if (canonicalJson(old.item[SCHEDULE_HISTORY_KEY]) !== canonicalJson(ref.item[SCHEDULE_HISTORY_KEY]))
        continue;
      const history = earlierSchedules(old.item);
      const since = trackedSince(old.item);
      if (since === null || since > yesterday) continue;
      if (history.some((e) => e.until >= yesterday)) continue;
      out.push({
        path: `${list}[index=${ref.index}]`,
        history: [...history, { until: yesterday, schedule: writtenSchedule(old.item) }],
      });
    }
  }
  return out;
}

/**
 * The `meta.schedule_history` a manifest patch should leave on a card of dated rows with a
 * card-level `meta.schedule` (each row a dose), when the patch changes that schedule: as
 * replacedSchedules for an item, the card being the item. `doseBy` is a row date on or before
 * yesterday (the card was in use before today), or null. Undefined: nothing to keep.
 */
export function replacedCardSchedule(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  doseBy: string | null,
  today: string,
): EarlierSchedule[] | undefined {
  const item = (meta: Record<string, unknown>) =>
    meta.schedule !== null && typeof meta.schedule === 'object' && !Array.isArray(meta.schedule)
      ? [
          {
            schedule: meta.schedule,
            ...(meta[SCHEDULE_HISTORY_KEY] === undefined
              ? {}
              : { [SCHEDULE_HISTORY_KEY]: meta[SCHEDULE_HISTORY_KEY] }),
            doses: doseBy === null ? [] : [{ scheduledDate: doseBy, takenAt: doseBy }],
          },
        ]
      : [];
  return replacedSchedules(item(before), item(after), today)[0]?.history;
}
