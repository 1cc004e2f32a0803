/**
 * The `cycleTracking` section of a Health Auto Export push: the cycle-tracking records logged in
 * the Health app, one entry each (`{start, end, name: "Menstrual Flow", value: "Medium"}`, also
 * with `date`). A menstrual flow is one day logged on `menstrual_flow`, the metric the Apple
 * Health import fills with the same records; a flow of `None` (a day of the period without
 * bleeding) is not one. Records of other kinds (ovulation tests, cervical mucus...) have no metric:
 * each is left out with a warning naming it, never dropped unsaid.
 */

import type { MetricBlock } from './payload.js';

/** The metric block name the section is read under (other-sections.ts) before it is split. */
export const CYCLE_TRACKING_BLOCK = 'cycle_tracking';

/** An entry left out: the metric its warning is under, why, and what was sent. */
export interface CycleLeftOut {
  metric: string;
  reason: string;
  example: unknown;
}

/** Letters only, lower case: `Menstrual Flow`, `menstrual_flow`, `HKCategoryTypeIdentifierMenstrualFlow` end alike. */
function letters(text: string): string {
  return text.toLowerCase().replace(/[^a-z]/g, '');
}

/** True for a record of menstrual flow (iOS 18 names it vaginal bleeding). */
function isFlow(name: unknown): boolean {
  if (typeof name !== 'string') return false;
  const l = letters(name);
  return l.endsWith('menstrualflow') || l.endsWith('vaginalbleeding');
}

/**
 * Whether a flow value says there was bleeding: true for a level (`Light`, `Medium`, `Heavy`,
 * `Unspecified`, in words or as HealthKit's constant), or no value at all; false for `None`;
 * undefined for a value Klebb does not know.
 */
export function flowLogged(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value !== 'string') return undefined;
  const level = letters(value).replace(/^hkcategoryvalue(menstrualflow|vaginalbleeding)?/, '');
  if (level === 'none' || level === 'noflow') return false;
  if (['unspecified', 'light', 'medium', 'heavy'].includes(level)) return true;
  return undefined;
}

/**
 * The section's entries (the points of the block CYCLE_TRACKING_BLOCK) as a `menstrual_flow`
 * count block, one point `{start, qty: 1, partOfDay}` per day of flow logged, and the entries left
 * out (no flow, a flow level Klebb does not know, a record of another kind).
 */
export function cycleBlocks(block: MetricBlock): { blocks: MetricBlock[]; leftOut: CycleLeftOut[] } {
  const flow: MetricBlock = { name: 'menstrual_flow', units: 'count', data: [] };
  const leftOut: CycleLeftOut[] = [];
  for (const entry of block.data) {
    const name = entry.name ?? entry.type;
    if (!isFlow(name)) {
      leftOut.push({ metric: 'cycleTracking', reason: 'kind of record not read, left out', example: name });
      continue;
    }
    const value = entry.value ?? entry.flow;
    const logged = flowLogged(value);
    if (logged === undefined) {
      leftOut.push({ metric: 'menstrual_flow', reason: 'unknown menstrual flow, left out', example: value });
      continue;
    }
    if (!logged) {
      leftOut.push({ metric: 'menstrual_flow', reason: 'no menstrual flow, not counted', example: value });
      continue;
    }
    const point: Record<string, unknown> = {
      start: entry.start ?? entry.date ?? entry.startDate,
      qty: 1,
      partOfDay: true,
    };
    // a source sent as an object (`{name, bundleIdentifier}`) is read as the points' are
    if (entry.source !== undefined) point.source = entry.source;
    flow.data.push(point);
  }
  return { blocks: flow.data.length ? [flow] : [], leftOut };
}
