/**
 * The reminder scheduler's decision for one minute (`evaluate`), kept apart from the timer and
 * the sending so a test can drive it on any clock. For each active, switched-on reminder it
 * finds the latest slot at or before now in the user's time zone and fires it when that slot is
 * newer than the last one handled:
 * - a reminder seen for the first time, or whose trigger changed, is armed instead: its memory
 *   is set to the latest past slot (a reminder made at 21:05 for 21:00 waits for tomorrow) and
 *   what it last fired is cleared;
 * - a slot older than REMINDER_CATCH_UP_GRACE_MS (the server was down or asleep) is recorded as
 *   missed and not sent: coming back never fires a burst of old reminders;
 * - a slot inside quiet hours is recorded as `quiet` and not sent: judged by the wall-clock time
 *   it was set for (07:30 is 07:30 local on both sides of a daylight-saving change) and by the
 *   time it would arrive, which differs in a spring-forward gap (02:30 arrives at 03:30) and for
 *   a slot caught up after downtime;
 * - while paused nothing is decided (the memory is not advanced, so a slot that comes due during
 *   the pause still fires after it if it is within the grace window);
 * - the reminders of one card due in the same minute become one event (one push per device).
 * The memory is the slot's wall-clock name and is saved before anything is sent, so a restart
 * in the due minute neither loses nor repeats it, and a repeated or skipped hour fires once.
 * With it goes the zone it was named in: once the person's zone changes, a slot is newer when
 * its instant is later, so a move west across the date line does not skip the next morning.
 */
import type { CardContext } from '../cards/card-context.js';
import { REMINDER_CATCH_UP_GRACE_MS } from '../limits.js';
import type { NotificationState } from './notification-state.js';
import { fullRef, type ReminderRef, reminderParts, type StaticRef } from './reminder-list.js';
import type { DueReminder } from './reminder-payload.js';
import { type DueNames, dueAtTimeOfDay, fillPlaceholders } from './schedule-due.js';
import { type InstantMemo, inQuietHours, instantMemo, previousSlot, type Slot } from './trigger-slots.js';
import { type WallClock, wallClockAt } from './zoned-time.js';

/** One card's reminders due in one minute. */
export interface DueEvent {
  cardId: string;
  slot: string;
  reminders: DueReminder[];
}

/** What one evaluation decided. */
export interface Evaluation {
  events: DueEvent[];
  /** Reminders whose slot was recorded without sending, and why. */
  skipped: { id: string; slot: string; status: 'missed' | 'quiet' | 'nothing-due' }[];
  /** Whether the state changed (and must be saved before sending). */
  changed: boolean;
}

/**
 * The filled-in words of a reminder for a slot (`reminders.due_now` empty: a `schedule_due` with
 * nothing due). `date` is the slot's day in `timeZone`, the person's, which also files check-offs.
 */
export function dueReminder(
  ref: ReminderRef,
  cards: CardContext,
  date: string,
  time: string,
  timeZone?: string,
): DueReminder {
  const meta = ref.card.manifest.meta;
  let names: DueNames | null = null;
  // a schedule_due reminder is about the doses of its schedule card on the slot's day: a tap
  // opens that card on that day, so a dose ticked after midnight is still the evening's
  let schedule: string | undefined;
  if (ref.trigger.type === 'schedule_due') {
    const source = typeof ref.trigger.card === 'string' ? ref.trigger.card : '';
    if (cards.registry.has(source)) schedule = source;
    names = schedule
      ? dueAtTimeOfDay(cards.store.read(schedule), date, String(ref.trigger.time_of_day), timeZone)
      : { due_now: [], missed_earlier: [] };
  }
  const action = ref.item.action as { card?: unknown; intent?: unknown } | undefined;
  return {
    id: ref.id,
    cardId: ref.card.id,
    cardLabel: String(meta.label ?? ref.card.id),
    cardEmoji: typeof meta.emoji === 'string' ? meta.emoji : null,
    time,
    privacy: ref.privacy,
    title: fillPlaceholders(String(ref.item.title ?? ''), names),
    body: fillPlaceholders(String(ref.item.body ?? ''), names),
    openCard: typeof action?.card === 'string' ? action.card : (schedule ?? ref.card.id),
    intent: action?.intent === 'log' ? 'log' : action?.intent === 'view' ? 'view' : undefined,
    ...(schedule ? { day: date } : {}),
    ...(names ? { reminders: names } : {}),
  };
}

/**
 * Arms `ref` if it is new or its trigger changed: memory set to its latest past slot, last fire
 * cleared. @returns whether it was armed (then it does not fire this minute).
 */
export function armIfNew(ref: ReminderRef, state: NotificationState, slot: Slot | null): boolean {
  const st = state.peek(ref.id);
  if (st?.trigger === ref.triggerKey) return false;
  const s = state.item(ref.id);
  s.trigger = ref.triggerKey;
  s.lastSlot = slot?.key;
  s.lastSlotZone = slot?.zone;
  delete s.lastFired;
  delete s.lastFireStatus;
  return true;
}

/**
 * The reminders of a card that is switched off (its master switch, or `notifications.enabled`
 * false) keep their memory up with the clock, without sending or recording a fire: switched on
 * again, such a reminder waits for its next slot, never sending one that came due while it was
 * off (the catch-up window would otherwise send a slot from minutes before). Only reminders
 * already armed are kept up; the rest are armed when they first run. @returns whether any moved.
 */
function keepUp(
  refs: readonly StaticRef[],
  state: NotificationState,
  nowMs: number,
  now: () => { wall: WallClock; timeZone: string },
  memo: InstantMemo,
): boolean {
  let moved = false;
  for (const r of refs) {
    const s = state.peek(r.id);
    if (s?.trigger !== r.triggerKey) continue;
    const { wall, timeZone } = now();
    const slot = previousSlot(r.trigger, nowMs, wall, timeZone, memo, s.lastSlot, s.lastSlotZone);
    if (!slot) continue;
    s.lastSlot = slot.key;
    s.lastSlotZone = slot.zone;
    moved = true;
  }
  return moved;
}

/**
 * Decides the minute at `nowMs` in the zone `zone()` names, updating `state` in memory (the
 * caller saves it). The zone and the wall clock are read only once a reminder needs them: a home
 * without reminders never loads the time-zone data of `Intl` (about 8 MB resident).
 */
export function evaluate(
  cards: CardContext,
  state: NotificationState,
  nowMs: number,
  zone: () => string,
): Evaluation {
  const out: Evaluation = { events: [], skipped: [], changed: false };
  const paused = state.data.paused_until;
  if (paused && Date.parse(paused) > nowMs) return out;
  let clock: { wall: WallClock; timeZone: string } | undefined;
  const now = () => {
    if (!clock) {
      const timeZone = zone();
      clock = { wall: wallClockAt(nowMs, timeZone), timeZone };
    }
    return clock;
  };
  const memo = instantMemo();
  const quiet = state.data.quiet_hours;
  for (const card of cards.registry.all()) {
    const due: DueReminder[] = [];
    let slotKey = '';
    const { active, refs } = reminderParts(card);
    if (!active) {
      if (keepUp(refs, state, nowMs, now, memo)) out.changed = true;
      continue;
    }
    for (const r of refs) {
      let s = state.peek(r.id);
      if (!(s?.enabled ?? r.item.default !== 'off')) continue;
      if (s?.trigger !== r.triggerKey) {
        const { wall, timeZone } = now();
        armIfNew(fullRef(card, r, s, active), state, previousSlot(r.trigger, nowMs, wall, timeZone, memo));
        out.changed = true;
        continue;
      }
      s ??= state.item(r.id);
      const { wall, timeZone } = now();
      const slot = previousSlot(r.trigger, nowMs, wall, timeZone, memo, s.lastSlot, s.lastSlotZone);
      if (!slot) continue;
      const ref = fullRef(card, r, s, active);
      s.lastSlot = slot.key;
      s.lastSlotZone = slot.zone;
      out.changed = true;
      if (nowMs - slot.at > REMINDER_CATCH_UP_GRACE_MS) {
        s.lastFireStatus = 'missed';
        out.skipped.push({ id: ref.id, slot: slot.key, status: 'missed' });
        continue;
      }
      // quiet when the time it was set for is, and when the time it would arrive is: not the
      // same in a spring-forward gap (02:30 arrives at 03:30) or when a slot is caught up late
      if (inQuietHours(slot.time, quiet) || inQuietHours(now().wall.time, quiet)) {
        s.lastFireStatus = 'quiet';
        out.skipped.push({ id: ref.id, slot: slot.key, status: 'quiet' });
        continue;
      }
      const filled = dueReminder(ref, cards, slot.date, slot.time, now().timeZone);
      if (filled.reminders && filled.reminders.due_now.length === 0) {
        s.lastFireStatus = 'nothing-due';
        out.skipped.push({ id: ref.id, slot: slot.key, status: 'nothing-due' });
        continue;
      }
      due.push(filled);
      slotKey = slot.key;
    }
    if (due.length > 0) out.events.push({ cardId: card.id, slot: slotKey, reminders: due });
  }
  return out;
}
