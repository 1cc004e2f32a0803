/**
 * What a `schedule-timeline` shows (docs/MANIFEST-SCHEMA.md "Reports-view config": `windowDays`,
 * `showPast`, `showFuture`): a read-only grid of days × scheduled items, each cell saying whether
 * a dose was due and whether it was taken. Built on the shared schedule engine
 * (src/common/schedule.ts). Shared by the browser and the server: no Node imports.
 *
 * The window holds `windowDays` days (default 14, at most MAX_TIMELINE_DAYS) around the day drawn
 * for ("today"): with `showPast` and `showFuture` both on (the default) half lies before today and
 * the rest after; with only `showPast`, it ends today; with only `showFuture`, it starts today.
 */

import { addDays } from './dates.js';
import { toFiniteNumber } from './numbers.js';
import { dosesDue, takenCount, trackedSince } from './schedule.js';

/** Default window length, in days. */
export const DEFAULT_TIMELINE_DAYS = 14;

/** Longest window drawn, in days. */
export const MAX_TIMELINE_DAYS = 62;

/**
 * A cell's state: `none` (not due, nothing taken), `extra` (taken on a day not due), `taken` (every
 * due dose taken), `partial` (some), `missed` (a past day with none), `due` (today, none yet),
 * `upcoming` (a future due day).
 */
export type TimelineCellState = 'none' | 'extra' | 'taken' | 'partial' | 'missed' | 'due' | 'upcoming';

/** One day of one item. */
export interface TimelineCell {
  date: string;
  /** Doses due that day. */
  due: number;
  /** Doses taken that day. */
  taken: number;
  state: TimelineCellState;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The days of the window (oldest first) for a timeline config, around `today`. */
export function timelineDays(viewConfig: unknown, today: string): string[] {
  const cfg = isObj(viewConfig) ? viewConfig : {};
  const w = toFiniteNumber(cfg.windowDays);
  const n = w !== null && w >= 1 ? Math.min(MAX_TIMELINE_DAYS, Math.floor(w)) : DEFAULT_TIMELINE_DAYS;
  const past = cfg.showPast !== false;
  const future = cfg.showFuture !== false;
  let start: string;
  if (past && !future) start = addDays(today, -(n - 1));
  else if (future && !past) start = today;
  else start = addDays(today, -Math.floor(n / 2));
  return Array.from({ length: n }, (_, i) => addDays(start, i));
}

/** The state of a day with `due` doses due and `taken` taken, seen from `today`. */
export function cellState(date: string, due: number, taken: number, today: string): TimelineCellState {
  if (due === 0) return taken > 0 ? 'extra' : 'none';
  if (taken >= due) return 'taken';
  if (date > today) return 'upcoming';
  if (taken > 0) return 'partial';
  return date < today ? 'missed' : 'due';
}

/**
 * One item's cells over `days`. A past day before the item was tracked (`trackedSince`: its
 * schedule's start, else its first recorded dose; today when nothing is recorded) with nothing
 * taken is `none`, not `missed`, as the adherence report counts it.
 */
export function timelineCells(item: unknown, days: string[], today: string): TimelineCell[] {
  const since = trackedSince(item) ?? today;
  return days.map((date) => {
    const due = dosesDue(item, date);
    const taken = takenCount(item, date);
    const state = date < since && taken === 0 && date < today ? 'none' : cellState(date, due, taken, today);
    return { date, due, taken, state };
  });
}
