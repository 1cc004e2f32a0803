/**
 * The schedule engine: which scheduled items (medications, supplements, routines) are due on a
 * calendar date, how many doses, and which of them were taken. docs/MANIFEST-SCHEMA.md "Schedule
 * block"; docs/MANIFEST-SCHEMA.md "Schedule blocks". Shared by the browser (schedule-card,
 * checklist-card, schedule-timeline, adherence-report) and the server (notifications). No Node
 * imports.
 *
 * Items live in a card's data: `data.items[]`, or `data.current[]` (the supplements layout), or an
 * array-rooted data block whose elements carry a `schedule`. Each item has a `schedule` object:
 *
 *   type           daily | weekly | every_n_days | on_off | phased | as_needed (default daily)
 *   on_days        weekdays ("Mon", "monday"); for on_off also a count of days on
 *   off_days       weekdays never due; for on_off also a count of days off
 *   interval_days  every_n_days: the N (default 1)
 *   times_per_day  doses a day (default 1)
 *   start_date     the anchor of every_n_days / on_off / phased (else the earliest cycles[].start)
 *   loading        phased: {days, duration_weeks}; maintenance: {days}. `days` is a list of
 *                  weekdays, or a count N (the first N days of every week counted from the anchor)
 *   time_of_day    morning | midday | evening | night, or a list of them (one dose each)
 *   cycle_weeks    read and kept (seen in examples), not used to decide due days
 *
 * Older spellings are read as their newer equivalents: `frequency` → `type`, `nDays`/`every` →
 * `interval_days`, `startDate` → `start_date`, `dayOfWeek: "Thu"` → `on_days: ["Thu"]`,
 * `timesPerDay` → `times_per_day`, and all of these flat on the item when it has no `schedule`.
 * Item `cycles: [{type: "on"|"off", start, end?}]` limit the days: inside an "off" cycle nothing is
 * due; when "on" cycles exist, only days inside one are. `active: false` items are never due.
 * An item whose schedule was changed keeps the schedules it had before in `schedule_history:
 * [{until: "YYYY-MM-DD", schedule: {...}}]`, each in force up to and including its `until`
 * (`itemAsOf`): a day before the change is judged by the schedule of that day, not today's.
 *
 * Every day count is calendar arithmetic on `YYYY-MM-DD` (UTC midnights, src/common/dates.ts),
 * never local millisecond spans, so 23- and 25-hour days at daylight-saving changes still count
 * as one day (every 2 days from 27 March 2026 is due on 27, 29 and 31 March in Berlin).
 */

import { addDays, dayOfDateTime, daysBetween, isIsoDate } from './dates.js';

/** The kinds of schedule. */
export const SCHEDULE_TYPES = ['daily', 'weekly', 'every_n_days', 'on_off', 'phased', 'as_needed'] as const;

/** One of `SCHEDULE_TYPES`. */
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** Times of day, in the order of a day. */
export const TIMES_OF_DAY = ['morning', 'midday', 'evening', 'night'] as const;

/** One of `TIMES_OF_DAY`. */
export type TimeOfDayToken = (typeof TIMES_OF_DAY)[number];

/** Most doses a day an item may ask for (a typo of 1000 must not draw 1000 dots). */
export const MAX_TIMES_PER_DAY = 24;

/** A phase's days: weekdays (0 = Sunday … 6 = Saturday), a count of days per week, or every day. */
export type PhaseDays =
  | { kind: 'weekdays'; days: number[] }
  | { kind: 'count'; n: number }
  | { kind: 'every' };

/** A schedule read leniently into one shape (`readSchedule`). */
export interface Schedule {
  type: ScheduleType;
  /** Weekdays it may be due on (0 = Sunday); null: any day. */
  onDays: number[] | null;
  /** Weekdays it is never due on. */
  offDays: number[];
  /** on_off: days on, then days off, repeating from the anchor; null when on_off uses weekdays. */
  onOff: { on: number; off: number } | null;
  /** every_n_days: N ≥ 1. */
  intervalDays: number;
  /** Doses per due day, ≥ 1. */
  timesPerDay: number;
  /** The day counting starts from (start_date, else the earliest cycle start), or null. */
  anchor: string | null;
  /** phased: the loading phase (its days and length in weeks), or null. */
  loading: { days: PhaseDays; durationWeeks: number } | null;
  /** phased: the maintenance phase after loading, or null (then: every day). */
  maintenance: { days: PhaseDays } | null;
  /** The times of day of the doses, in day order ([] when not given). */
  timeOfDay: TimeOfDayToken[];
  /** `cycle_weeks` as written, when a positive number. */
  cycleWeeks: number | null;
}

/** A recorded dose: `{scheduledDate, takenAt, offSchedule?}` (`takenAt: null` = missed). */
export interface Dose {
  scheduledDate?: unknown;
  takenAt?: unknown;
  offSchedule?: unknown;
  [key: string]: unknown;
}

/** Where an item sits in a card's data, for reading and for row-path writes. */
export interface ScheduleItemRef {
  item: Record<string, unknown>;
  /** Position in its list. */
  index: number;
  /** `items`, `current`, or '' for an array-rooted data block. */
  list: 'items' | 'current' | '';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FULL_WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Weekday number (0 = Sunday) of a name: "Mon", "mon", "Monday", "tues", "thurs"; null if none. */
export function weekdayNumber(name: unknown): number | null {
  if (typeof name !== 'string') return null;
  const t = name.trim().toLowerCase();
  if (t.length < 2) return null;
  const full = FULL_WEEKDAYS.indexOf(t);
  if (full >= 0) return full;
  const short = WEEKDAYS.indexOf(t.slice(0, 3));
  // "tues", "thurs", "weds": a prefix of the full name
  return short >= 0 &&
    FULL_WEEKDAYS[short].startsWith(t.slice(0, Math.min(t.length, FULL_WEEKDAYS[short].length)))
    ? short
    : null;
}

/** Weekday (0 = Sunday) of a `YYYY-MM-DD` date. */
export function weekdayIndex(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

function weekdayList(v: unknown): number[] | null {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(/[\s,]+/) : null;
  if (!list) return null;
  const out = new Set<number>();
  for (const x of list) {
    const n = weekdayNumber(x);
    if (n !== null) out.add(n);
  }
  return out.size > 0 ? [...out].sort((a, b) => a - b) : null;
}

const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0
    ? v
    : typeof v === 'string' && /^\d+$/.test(v.trim())
      ? Number(v)
      : null;

function phaseDays(v: unknown): PhaseDays {
  const n = count(v);
  if (n !== null && n >= 1 && n <= 7) return { kind: 'count', n };
  const days = weekdayList(v);
  return days ? { kind: 'weekdays', days } : { kind: 'every' };
}

const first = (o: Record<string, unknown>, keys: string[]): unknown => {
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) return o[k];
  return undefined;
};

function scheduleType(v: unknown): ScheduleType {
  if (typeof v !== 'string') return 'daily';
  const t = v
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if ((SCHEDULE_TYPES as readonly string[]).includes(t)) return t as ScheduleType;
  // spellings seen in hand-written files
  if (t === 'every_other_day') return 'every_n_days';
  if (t === 'asneeded' || t === 'prn') return 'as_needed';
  if (t === 'onoff' || t === 'cycle' || t === 'cycled') return 'on_off';
  return 'daily';
}

function timesOfDay(v: unknown): TimeOfDayToken[] {
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  const set = new Set(
    list.filter((t): t is TimeOfDayToken => (TIMES_OF_DAY as readonly unknown[]).includes(t)),
  );
  return TIMES_OF_DAY.filter((t) => set.has(t));
}

/** The earliest `cycles[].start` of an item, or null. */
function earliestCycleStart(item: Record<string, unknown>): string | null {
  const cycles = Array.isArray(item.cycles) ? item.cycles : [];
  let best: string | null = null;
  for (const c of cycles) {
    const s = isObject(c) ? dayText(c.start) : null;
    if (s && (best === null || s < best)) best = s;
  }
  return best;
}

/**
 * The calendar day a date or timestamp is filed under, or null: a date or a wall-clock time its
 * written date; a time with `Z` or an offset its date in `timeZone` (default: the process's zone,
 * in the browser the person's; see dayOfDateTime), so a dose recorded as `…T03:30Z` by an agent
 * counts on a Los Angeles person's evening, not the next day.
 */
export function dayText(v: unknown, timeZone?: string): string | null {
  if (typeof v !== 'string') return null;
  const d = v.slice(0, 10);
  if (!isIsoDate(d)) return dayOfDateTime(v, timeZone);
  return v.length === 10 ? d : (dayOfDateTime(v, timeZone) ?? d);
}

/**
 * Reads an item's schedule into one shape: its `schedule` object, or (older files) the schedule
 * keys written flat on the item; legacy spellings mapped (see the file comment). Never throws:
 * anything unreadable falls back to the default (a daily, one-dose schedule).
 * @param item the item (`{name, schedule, cycles?, doses?}`) or a bare schedule object.
 */
export function readSchedule(item: unknown): Schedule {
  const it = isObject(item) ? item : {};
  const s = isObject(it.schedule) ? it.schedule : it;
  const rawType = first(s, ['type', 'frequency']) ?? it.frequency;
  const type = scheduleType(rawType);
  let onDays = weekdayList(first(s, ['on_days', 'onDays', 'days', 'dayOfWeek', 'daysOfWeek']));
  let onOff: Schedule['onOff'] = null;
  const offRaw = first(s, ['off_days', 'offDays']);
  if (type === 'on_off') {
    const on = count(first(s, ['on_days', 'onDays']));
    const off = count(offRaw);
    if (on !== null && off !== null && on + off > 0) {
      onOff = { on, off };
      onDays = null;
    }
  }
  const interval = count(first(s, ['interval_days', 'intervalDays', 'nDays', 'every']));
  const times = count(first(s, ['times_per_day', 'timesPerDay']));
  const anchor =
    dayText(first(s, ['start_date', 'startDate'])) ??
    dayText(first(it, ['start_date', 'startDate'])) ??
    earliestCycleStart(it);
  const loading = isObject(s.loading)
    ? {
        days: phaseDays(s.loading.days),
        durationWeeks: count(first(s.loading, ['duration_weeks', 'durationWeeks', 'weeks'])) ?? 0,
      }
    : null;
  const maintenance = isObject(s.maintenance) ? { days: phaseDays(s.maintenance.days) } : null;
  const cycleWeeks = first(s, ['cycle_weeks', 'cycleWeeks']);
  return {
    type,
    onDays,
    offDays: onOff ? [] : (weekdayList(offRaw) ?? []),
    onOff,
    intervalDays: interval !== null && interval >= 1 ? interval : rawType === 'every_other_day' ? 2 : 1,
    timesPerDay: Math.min(MAX_TIMES_PER_DAY, times !== null && times >= 1 ? times : 1),
    anchor,
    loading,
    maintenance,
    timeOfDay: timesOfDay(s.time_of_day ?? s.timeOfDay),
    cycleWeeks: typeof cycleWeeks === 'number' && cycleWeeks > 0 ? cycleWeeks : null,
  };
}

function inPhase(days: PhaseDays, date: string, anchor: string): boolean {
  if (days.kind === 'every') return true;
  if (days.kind === 'weekdays') return days.days.includes(weekdayIndex(date));
  const since = daysBetween(anchor, date);
  return ((since % 7) + 7) % 7 < days.n;
}

/**
 * Whether a schedule is due on `date` (`YYYY-MM-DD`), by its type and weekday rules only (no
 * cycles, no `active` flag: see `isItemDue`). `as_needed` is never due. Types counting days
 * (every_n_days, on_off with counts, phased) are not due before their anchor; every_n_days
 * without an anchor counts from 1970-01-01, so its days are at least stable.
 * @param schedule a raw schedule object, an item, or a `Schedule` from `readSchedule`.
 */
export function isDue(schedule: unknown, date: string): boolean {
  if (!isIsoDate(date)) return false;
  const s = isSchedule(schedule) ? schedule : readSchedule(schedule);
  const wd = weekdayIndex(date);
  if (s.offDays.includes(wd)) return false;
  switch (s.type) {
    case 'as_needed':
      return false;
    case 'daily':
      return s.onDays === null || s.onDays.includes(wd);
    case 'weekly': {
      if (s.onDays !== null) return s.onDays.includes(wd);
      return s.anchor !== null && date >= s.anchor && weekdayIndex(s.anchor) === wd;
    }
    case 'every_n_days': {
      const since = daysBetween(s.anchor ?? '1970-01-01', date);
      return since >= 0 && since % s.intervalDays === 0 && (s.onDays === null || s.onDays.includes(wd));
    }
    case 'on_off': {
      if (s.onOff) {
        if (s.anchor === null) return false;
        const since = daysBetween(s.anchor, date);
        if (since < 0) return false;
        return since % (s.onOff.on + s.onOff.off) < s.onOff.on;
      }
      return s.onDays === null || s.onDays.includes(wd);
    }
    case 'phased': {
      if (s.anchor !== null && date < s.anchor) return false;
      if (s.loading && s.anchor !== null && daysBetween(s.anchor, date) < s.loading.durationWeeks * 7) {
        return inPhase(s.loading.days, date, s.anchor);
      }
      if (s.maintenance) {
        const from =
          s.anchor !== null && s.loading
            ? addDays(s.anchor, s.loading.durationWeeks * 7)
            : (s.anchor ?? date);
        return inPhase(s.maintenance.days, date, from);
      }
      return s.onDays === null || s.onDays.includes(wd);
    }
  }
}

function isSchedule(v: unknown): v is Schedule {
  return (
    isObject(v) && typeof v.type === 'string' && typeof v.timesPerDay === 'number' && Array.isArray(v.offDays)
  );
}

/** Whether `date` lies inside the item's cycles: not in an "off" cycle, and in an "on" one when any exist. */
export function inCycles(item: unknown, date: string): boolean {
  const cycles = isObject(item) && Array.isArray(item.cycles) ? item.cycles.filter(isObject) : [];
  let hasOn = false;
  let inOn = false;
  for (const c of cycles) {
    const start = dayText(c.start);
    const end = dayText(c.end);
    const inside = (start === null || date >= start) && (end === null || date <= end);
    if (c.type === 'off') {
      if (inside && (start !== null || end !== null)) return false;
    } else {
      hasOn = true;
      if (inside) inOn = true;
    }
  }
  return !hasOn || inOn;
}

/** One schedule an item had before its schedule changed: in force up to and including `until`. */
export interface EarlierSchedule {
  /** The last day it was in force, `YYYY-MM-DD`. */
  until: string;
  schedule: Record<string, unknown>;
}

/** The key of an item's earlier schedules. */
export const SCHEDULE_HISTORY_KEY = 'schedule_history';

/**
 * The item's earlier schedules (`schedule_history`), ordered by `until`; entries without a real
 * `until` day or a schedule object are passed over.
 */
export function earlierSchedules(item: unknown): EarlierSchedule[] {
  const list = isObject(item) ? item[SCHEDULE_HISTORY_KEY] : undefined;
  if (!Array.isArray(list)) return [];
  const out: EarlierSchedule[] = [];
  for (const e of list) {
    if (isObject(e) && isIsoDate(e.until) && isObject(e.schedule))
      out.push({ until: e.until, schedule: e.schedule });
  }
  return out.sort((a, b) => (a.until < b.until ? -1 : a.until > b.until ? 1 : 0));
}

/**
 * The item as it was scheduled on `date`: with the earlier schedule in force that day (the first
 * of `schedule_history` whose `until` is on or after it), else the item itself. Everything else
 * of the item (its name, cycles, doses) is the same.
 */
export function itemAsOf(item: unknown, date: string): unknown {
  const earlier = earlierSchedules(item).find((e) => date <= e.until);
  return earlier && isObject(item) ? { ...item, schedule: earlier.schedule } : item;
}

/**
 * Whether an item is due on `date`: not `active: false`, inside its cycles (`inCycles`), and the
 * schedule in force that day (`itemAsOf`) due (`isDue`).
 */
export function isItemDue(item: unknown, date: string): boolean {
  if (!isObject(item) || item.active === false) return false;
  return inCycles(item, date) && isDue(readSchedule(itemAsOf(item, date)), date);
}

/**
 * The doses an item asks for on a due day, as labels in day order: its times of day
 * (`["morning", "evening"]`), then "Dose N" for any further `times_per_day` beyond them; a single
 * unnamed dose is `["Dose"]`. With `date`, by the schedule in force that day (`itemAsOf`), else
 * by its schedule now.
 */
export function doseSlots(item: unknown, date?: string): string[] {
  const s = readSchedule(date === undefined ? item : itemAsOf(item, date));
  const n = Math.max(s.timesPerDay, s.timeOfDay.length);
  if (n === 1 && s.timeOfDay.length === 0) return ['Dose'];
  const out: string[] = [...s.timeOfDay];
  for (let i = out.length; i < n; i++) out.push(`Dose ${i + 1}`);
  return out;
}

/** How many doses an item is due on `date` (0 when not due), by the schedule in force that day. */
export function dosesDue(item: unknown, date: string): number {
  return isItemDue(item, date) ? doseSlots(item, date).length : 0;
}

/** The item's recorded doses (objects only), in the order written. */
export function dosesOf(item: unknown): Dose[] {
  if (!isObject(item)) return [];
  const doses = Array.isArray(item.doses) ? (item.doses.filter(isObject) as Dose[]) : [];
  if (!Array.isArray(item.takenDates)) return doses;
  // older cards list the days a plain daily item was taken: each is a dose taken that day
  const taken: Dose[] = [];
  for (const v of item.takenDates) {
    const at = typeof v === 'string' ? v : isObject(v) ? (v.takenAt ?? v.date) : undefined;
    if (typeof at !== 'string' || dayText(at) === null) continue;
    taken.push({ scheduledDate: dayText(at) as string, takenAt: at });
  }
  return taken.length === 0 ? doses : [...taken, ...doses];
}

/**
 * The group an item names itself (`group: "morning"`), for cards without `data.groups`; undefined
 * when it names none.
 */
export function itemGroupName(item: unknown): string | undefined {
  const g = isObject(item) ? item.group : undefined;
  return typeof g === 'string' && g.trim() !== '' ? g.trim() : undefined;
}

/** A group name as a heading: "morning" → "Morning". */
export function groupHeading(name: string): string {
  return name[0].toUpperCase() + name.slice(1);
}

/**
 * The item's doses recorded for `date` (by `scheduledDate`, else the day of `takenAt`; instants
 * filed in `timeZone`, see dayText), taken or missed.
 */
export function dosesOn(item: unknown, date: string, timeZone?: string): Dose[] {
  return dosesOf(item).filter(
    (d) => (dayText(d.scheduledDate, timeZone) ?? dayText(d.takenAt, timeZone)) === date,
  );
}

/** True when a dose was taken (`takenAt` is a non-empty string; `null` marks a missed dose). */
export function isTaken(dose: Dose): boolean {
  return typeof dose.takenAt === 'string' && dose.takenAt.trim() !== '';
}

/** How many doses of the item were taken on `date` (instants filed in `timeZone`, see dayText). */
export function takenCount(item: unknown, date: string, timeZone?: string): number {
  return dosesOn(item, date, timeZone).filter(isTaken).length;
}

/** The display name of an item: `name`, else `label`, else `title`, else "Item N". */
export function itemName(item: unknown, index: number): string {
  if (isObject(item)) {
    for (const k of ['name', 'label', 'title']) {
      const v = item[k];
      if (typeof v === 'string' && v.trim() !== '') return v;
    }
  }
  return `Item ${index + 1}`;
}

/**
 * The item's short name for where space is short (a reminder's "Time for BPC, insulin"):
 * `short_name` (or `shortName`), else `itemName`.
 */
export function shortItemName(item: unknown, index: number): string {
  if (isObject(item)) {
    for (const k of ['short_name', 'shortName']) {
      const v = item[k];
      if (typeof v === 'string' && v.trim() !== '') return v.trim();
    }
  }
  return itemName(item, index);
}

/**
 * The scheduled items of a card's data: `data.items[]` and `data.current[]` when `data` is an
 * object, or the elements of an array-rooted data block that have a `schedule` (or a legacy flat
 * `frequency`). Non-object entries are skipped. [] for anything else.
 */
export function scheduleItems(data: unknown): ScheduleItemRef[] {
  const out: ScheduleItemRef[] = [];
  if (Array.isArray(data)) {
    data.forEach((item, index) => {
      if (isObject(item) && (isObject(item.schedule) || typeof item.frequency === 'string'))
        out.push({ item, index, list: '' });
    });
    return out;
  }
  if (!isObject(data)) return out;
  for (const list of ['items', 'current'] as const) {
    const arr = data[list];
    if (!Array.isArray(arr)) continue;
    arr.forEach((item, index) => {
      if (isObject(item)) out.push({ item, index, list });
    });
  }
  return out;
}

/** The items due on `date`, each with its dose count (`dosesDue`). */
export function dueItems(data: unknown, date: string): (ScheduleItemRef & { doses: number })[] {
  return scheduleItems(data)
    .map((ref) => ({ ...ref, doses: dosesDue(ref.item, date) }))
    .filter((r) => r.doses > 0);
}

/** Quotes a string for a row-path filter literal (`"a \"b\""`): only `\\` and `"` need escaping. */
function quote(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The row path (docs/API.md "Rows") of an item's `doses` list, for appending a check-off
 * `{scheduledDate, takenAt, offSchedule?}` with `POST /api/manifests/:id/rows`. The item is chosen
 * by its `name` when that name is a string unique in its list (so a concurrent reorder cannot
 * misdirect the write), else by position (`[index=N]`; send the data ETag as If-Match then).
 * `items[name="Vitamin D"].doses`, `current[index=2].doses`, `[index=0].doses`.
 */
export function dosesPath(data: unknown, ref: ScheduleItemRef): string {
  const siblings =
    ref.list === ''
      ? Array.isArray(data)
        ? data
        : []
      : isObject(data) && Array.isArray(data[ref.list])
        ? (data[ref.list] as unknown[])
        : [];
  const name = ref.item.name;
  const unique =
    typeof name === 'string' &&
    name !== '' &&
    siblings.filter((x) => isObject(x) && x.name === name).length === 1;
  const selector = unique ? `[name=${quote(name as string)}]` : `[index=${ref.index}]`;
  return `${ref.list}${selector}.doses`;
}

/** Adherence over a range of days: doses scheduled, taken on schedule, and the share taken. */
export interface Adherence {
  /** Doses the schedule asked for. */
  scheduled: number;
  /** Of those, how many were taken (at most the number due each day). */
  taken: number;
  /** Doses logged on days the item was not due (or beyond the day's count). */
  extra: number;
  /** taken / scheduled, or null when nothing was scheduled. */
  rate: number | null;
}

/** The most days adherence counts: the last ones of a longer range (ten years and a few days). */
const ADHERENCE_MAX_DAYS = 3660;

/**
 * Adherence of an item from `from` to `to` (inclusive, `YYYY-MM-DD`; of a longer range, the last
 * ADHERENCE_MAX_DAYS days are counted, so a range reaching far back still counts the recent
 * doses). A day's taken doses count up to the number due that day; the rest are `extra`.
 * Instants are filed under their day in `timeZone` (the person's; see dayText).
 */
export function adherence(item: unknown, from: string, to: string, timeZone?: string): Adherence {
  let scheduled = 0;
  let taken = 0;
  let extra = 0;
  if (!isIsoDate(from) || !isIsoDate(to) || to < from) return { scheduled, taken, extra, rate: null };
  const first = daysBetween(from, to) >= ADHERENCE_MAX_DAYS ? addDays(to, 1 - ADHERENCE_MAX_DAYS) : from;
  const byDay = new Map<string, number>();
  for (const d of dosesOf(item)) {
    if (!isTaken(d)) continue;
    const day = dayText(d.scheduledDate, timeZone) ?? dayText(d.takenAt, timeZone);
    if (day && day >= first && day <= to) byDay.set(day, (byDay.get(day) ?? 0) + 1);
  }
  const days = daysBetween(first, to);
  for (let i = 0; i <= days; i++) {
    const date = addDays(first, i);
    const due = dosesDue(item, date);
    const got = byDay.get(date) ?? 0;
    scheduled += due;
    taken += Math.min(due, got);
    extra += Math.max(0, got - due);
  }
  return { scheduled, taken, extra, rate: scheduled > 0 ? taken / scheduled : null };
}

/** A heading and its items, for drawing a schedule grouped as `data.groups` says. */
export interface ItemGroup<T extends ScheduleItemRef = ScheduleItemRef> {
  /** The group's `id`, or null for the items no group names. */
  id: string | null;
  /** The group's `label` (else its id), or null for the ungrouped items. */
  label: string | null;
  items: T[];
}

/**
 * `refs` arranged by `data.groups` (`[{id, label, items: [item names]}]`): each group in order with
 * its items in the group's order, then the items no group names (label null). An item named by
 * two groups appears in the first. Groups with no item among `refs` are left out; without groups,
 * one unlabelled group holds everything.
 */
export function groupItems<T extends ScheduleItemRef>(data: unknown, refs: readonly T[]): ItemGroup<T>[] {
  const groups = isObject(data) && Array.isArray(data.groups) ? data.groups.filter(isObject) : [];
  const used = new Set<T>();
  const out: ItemGroup<T>[] = [];
  groups.forEach((g, gi) => {
    const names = Array.isArray(g.items) ? g.items : [];
    const items: T[] = [];
    for (const n of names) {
      const hit = refs.find((r) => !used.has(r) && r.item.name === n);
      if (hit) {
        used.add(hit);
        items.push(hit);
      }
    }
    if (items.length === 0) return;
    const id = typeof g.id === 'string' ? g.id : `group-${gi + 1}`;
    const label = typeof g.label === 'string' && g.label.trim() !== '' ? g.label : id;
    out.push({ id, label, items });
  });
  // items that name their own group, in the order the groups first appear
  for (const r of refs) {
    const name = used.has(r) ? undefined : itemGroupName(r.item);
    if (name === undefined) continue;
    let g = out.find((x) => x.id === name);
    if (!g) {
      g = { id: name, label: groupHeading(name), items: [] };
      out.push(g);
    }
    g.items.push(r);
    used.add(r);
  }
  const rest = refs.filter((r) => !used.has(r));
  if (rest.length > 0) out.push({ id: null, label: null, items: rest });
  return out;
}

/**
 * The first day an item's adherence counts from: its schedule's start (`start_date`, else its
 * earliest `cycles[].start`; `readSchedule`'s anchor), else the day of its first recorded dose,
 * taken or missed; null when it has neither (nothing recorded yet). Days before it are not
 * "missed": nobody was tracking the item then (a card made today is not 1/30 taken). Instants are
 * filed under their day in `timeZone` (see dayText).
 */
export function trackedSince(item: unknown, timeZone?: string): string | null {
  // an item whose schedule changed was tracked from the start of its first schedule: the start
  // of a schedule that replaced it (an every-2-days count begun again) is not where tracking began
  const earlier = earlierSchedules(item);
  const anchor = readSchedule(
    earlier.length > 0 ? { ...(item as object), schedule: earlier[0].schedule } : item,
  ).anchor;
  if (anchor) return anchor;
  let first: string | null = null;
  for (const d of dosesOf(item)) {
    const day = dayText(d.scheduledDate, timeZone) ?? dayText(d.takenAt, timeZone);
    if (day && (first === null || day < first)) first = day;
  }
  return first ?? (earlier.length > 0 ? readSchedule(item).anchor : null);
}

/**
 * For each of the `n` days ending on `to` (oldest first), the share of the card's due doses that
 * were taken (each item's taken doses counted up to its due count, from the day it was tracked:
 * `trackedSince`), or null when nothing was due.
 */
export function dailyShares(data: unknown, to: string, n: number): { date: string; share: number | null }[] {
  const refs = scheduleItems(data);
  const out: { date: string; share: number | null }[] = [];
  if (!isIsoDate(to)) return out;
  // days before an item was tracked are not missed (trackedSince); nothing recorded: only `to`
  const since = refs.map((r) => trackedSince(r.item) ?? to);
  for (let i = Math.max(0, Math.floor(n)) - 1; i >= 0; i--) {
    const date = addDays(to, -i);
    let due = 0;
    let taken = 0;
    for (const [j, r] of refs.entries()) {
      if (date < since[j]) continue;
      const k = dosesDue(r.item, date);
      due += k;
      taken += Math.min(k, takenCount(r.item, date));
    }
    out.push({ date, share: due > 0 ? taken / due : null });
  }
  return out;
}

const DAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Weekdays as text in week order from Monday: "Mon, Wed, Fri"; "Weekdays" and "Weekends" where they fit. */
function daysText(days: readonly number[]): string {
  const set = new Set(days);
  if (set.size === 5 && [1, 2, 3, 4, 5].every((d) => set.has(d))) return 'Weekdays';
  if (set.size === 2 && set.has(0) && set.has(6)) return 'Weekends';
  return [1, 2, 3, 4, 5, 6, 0]
    .filter((d) => set.has(d))
    .map((d) => DAY_SHORT[d])
    .join(', ');
}

/**
 * A short description of an item's schedule for people: "Daily", "Mon, Wed, Fri", "Every 2 days",
 * "2 days on, 1 off", "Phased", "As needed", followed by the doses ("4 times a day", "morning and
 * evening").
 */
export function describeSchedule(item: unknown): string {
  const s = readSchedule(item);
  let when: string;
  switch (s.type) {
    case 'daily':
      when = s.onDays && s.onDays.length < 7 ? daysText(s.onDays) : 'Daily';
      if (s.offDays.length > 0 && !s.onDays) {
        const off = daysText(s.offDays);
        when = `Daily except ${off.startsWith('Week') ? off.toLowerCase() : off}`;
      }
      break;
    case 'weekly':
      when = s.onDays
        ? `Weekly: ${daysText(s.onDays)}`
        : s.anchor
          ? `Weekly: ${DAY_SHORT[weekdayIndex(s.anchor)]}`
          : 'Weekly';
      break;
    case 'every_n_days':
      when =
        s.intervalDays === 1
          ? 'Daily'
          : s.intervalDays === 2
            ? 'Every other day'
            : `Every ${s.intervalDays} days`;
      break;
    case 'on_off':
      when = s.onOff
        ? `${s.onOff.on} ${s.onOff.on === 1 ? 'day' : 'days'} on, ${s.onOff.off} off`
        : s.onDays
          ? daysText(s.onDays)
          : 'On and off';
      break;
    case 'phased':
      when = 'Phased';
      break;
    case 'as_needed':
      return 'As needed';
  }
  const n = Math.max(s.timesPerDay, s.timeOfDay.length);
  const tod = s.timeOfDay.length > 0 ? s.timeOfDay.join(s.timeOfDay.length === 2 ? ' and ' : ', ') : '';
  const times = tod !== '' && n === s.timeOfDay.length ? tod : n > 1 ? `${n} times a day` : '';
  return times ? `${when} · ${times}` : when;
}
