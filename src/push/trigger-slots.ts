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

/**
 * One occurrence of a trigger: `key` `YYYY-MM-DDTHH:MM` (wall clock in `zone`), `at` its instant
 * (epoch ms).
 */
export interface Slot {
  key: string;
  date: string;
  time: string;
  at: number;
  zone: string;
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
  return { key, date, time, at, zone: timeZone };
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
 * string comparisons only. When `floorZone`, the zone the floor was named in, is another than
 * `timeZone` (the person moved), newer means a later instant: after a move west across the date
 * line the new zone's morning carries the date the old zone's morning had, and is still due.
 */
export function previousSlot(
  trigger: Trigger,
  nowMs: number,
  wall: WallClock,
  timeZone: string,
  memo?: InstantMemo,
  floor?: string,
  floorZone?: string,
): Slot | null {
  const days = trigger.type === 'weekly' ? weekdayNumbers(trigger.days) : null;
  if (days && days.size === 0) return null;
  const floorAt = floorInstant(floor, floorZone, timeZone);
  for (let back = 0; back <= 8; back++) {
    if (days && !days.has((wall.weekday - back + 14) % 7)) continue;
    const date = dateBack(wall.date, back, memo);
    // today's slot later than the current minute cannot have come yet: skip the conversion
    if (back === 0 && trigger.time > wall.time) continue;
    if (floor !== undefined && floorAt === undefined && `${date}T${trigger.time}` <= floor) return null;
    const slot = slotOn(date, trigger.time, timeZone, memo);
    if (floorAt !== undefined && slot.at <= floorAt) return null;
    if (slot.at <= nowMs) return slot;
  }
  return null;
}

/**
 * The instant of the floor slot when it was named in another zone than `timeZone`; undefined when
 * the zones are the same or unknown (the names then compare as they are).
 */
function floorInstant(floor: string | undefined, floorZone: string | undefined, timeZone: string) {
  if (floor === undefined || floorZone === undefined || floorZone === timeZone) return undefined;
  try {
    return instantOf(floor.slice(0, 10), floor.slice(11), floorZone);
  } catch {
    return undefined;
  }
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
