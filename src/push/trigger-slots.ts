/**
 * When a reminder's trigger last came due: the latest slot at or before now in the user's time
 * zone. A slot is named by its wall-clock time (`2026-03-29T02:30`), so a restart, a repeated
 * hour or a gap never makes one slot two: the scheduler fires a slot whose name differs from the
 * last one it handled (src/push/scheduler.ts).
 */
import { WEEKDAY_TOKENS } from '../cards/validate-notifications.js';
import { instantOf, shiftDate, type WallClock } from './zoned-time.js';

/** A trigger as the manifest holds it (validated at load). */
export interface Trigger {
  type: 'daily' | 'weekly' | 'schedule_due';
  time: string;
  days?: string[];
  card?: string;
  time_of_day?: string;
}

/** One occurrence of a trigger: `key` `YYYY-MM-DDTHH:MM` (wall clock), `at` its instant (epoch ms). */
export interface Slot {
  key: string;
  date: string;
  time: string;
  at: number;
}

/**
 * What one tick works out once for all reminders: wall-clock → instant conversions (many
 * reminders share a time) and the dates of the days before today.
 */
export interface InstantMemo {
  instants: Map<string, number>;
  datesBack: string[];
}

/** A fresh memo for one tick. */
export function instantMemo(): InstantMemo {
  return { instants: new Map(), datesBack: [] };
}

function slotOn(date: string, time: string, timeZone: string, memo?: InstantMemo): Slot {
  const key = `${date}T${time}`;
  let at = memo?.instants.get(key);
  if (at === undefined) {
    at = instantOf(date, time, timeZone);
    memo?.instants.set(key, at);
  }
  return { key, date, time, at };
}

function dateBack(today: string, back: number, memo?: InstantMemo): string {
  if (back === 0) return today;
  let d = memo?.datesBack[back];
  if (d === undefined) {
    d = shiftDate(today, -back);
    if (memo) memo.datesBack[back] = d;
  }
  return d;
}

/** Sunday-first weekday numbers of a weekly trigger's `days` tokens. */
function weekdayNumbers(days: string[] | undefined): Set<number> {
  const out = new Set<number>();
  for (const d of days ?? []) {
    const i = (WEEKDAY_TOKENS as readonly string[]).indexOf(d);
    if (i >= 0) out.add((i + 1) % 7);
  }
  return out;
}

/**
 * The latest slot of `trigger` whose instant is at or before `nowMs`, or null (a weekly trigger
 * without days). `wall` is the wall clock at `nowMs` in `timeZone`. `schedule_due` slots are
 * daily ones. Looks back 8 days at most. With `floor` (the last slot handled) it answers null as
 * soon as the candidate is not newer, without working out an instant: the usual minute costs
 * string comparisons only.
 */
export function previousSlot(
  trigger: Trigger,
  nowMs: number,
  wall: WallClock,
  timeZone: string,
  memo?: InstantMemo,
  floor?: string,
): Slot | null {
  const days = trigger.type === 'weekly' ? weekdayNumbers(trigger.days) : null;
  if (days && days.size === 0) return null;
  for (let back = 0; back <= 8; back++) {
    if (days && !days.has((wall.weekday - back + 14) % 7)) continue;
    const date = dateBack(wall.date, back, memo);
    // today's slot later than the current minute cannot have come yet: skip the conversion
    if (back === 0 && trigger.time > wall.time) continue;
    if (floor !== undefined && `${date}T${trigger.time}` <= floor) return null;
    const slot = slotOn(date, trigger.time, timeZone, memo);
    if (slot.at <= nowMs) return slot;
  }
  return null;
}

/** True when wall-clock `time` falls in quiet hours `[start, end)`; `start > end` spans midnight. */
export function inQuietHours(
  time: string,
  quiet: { start: string; end: string } | null | undefined,
): boolean {
  if (!quiet || quiet.start === quiet.end) return false;
  if (quiet.start < quiet.end) return time >= quiet.start && time < quiet.end;
  return time >= quiet.start || time < quiet.end;
}
