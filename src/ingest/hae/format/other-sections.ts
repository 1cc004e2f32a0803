/**
 * The sections of a body beside `metrics` and `workouts`. Health Auto Export v2 sends the sections
 * its automation has ticked: `symptoms`, `medications`, `stateOfMind`, `ecg`,
 * `heartRateNotifications`, `cycleTracking` (docs/HEALTH-AUTO-EXPORT.md), and a later version may
 * add more. Those in READ_AS_METRIC are read as a metric block of their own; every other one
 * becomes no samples and is named in the push's warnings with how many entries it held, so it is
 * never dropped unsaid, and it never stops the metrics and workouts beside it from being stored.
 */

import { CYCLE_TRACKING_BLOCK } from './cycle-tracking.js';
import { ECG_BLOCK } from './ecg.js';
import { HEART_RATE_NOTIFICATIONS_BLOCK } from './heart-rate-notifications.js';

/** The sections the app documents beside metrics and workouts. */
const APP_SECTIONS = new Set([
  'symptoms',
  'medications',
  'stateOfMind',
  'ecg',
  'heartRateNotifications',
  'cycleTracking',
]);

/** Sections named one by one in the warnings; more are counted in one line. */
const MAX_NAMED = 20;

/**
 * The app's sections read as a metric block of their own, by the metric they fill: each entry is
 * one point of it (symptoms.ts, medications.ts; heart-rate notifications become points of three
 * metrics, heart-rate-notifications.ts).
 */
const READ_AS_METRIC = new Map<string, string>([
  ['symptoms', 'symptoms'],
  ['medications', 'medications'],
  ['stateOfMind', 'state_of_mind'],
  // split by kind of notification (heart-rate-notifications.ts)
  ['heartRateNotifications', HEART_RATE_NOTIFICATIONS_BLOCK],
  // each kind of record into its metric, others named in the warnings (cycle-tracking.ts)
  ['cycleTracking', CYCLE_TRACKING_BLOCK],
  // one recording each, counted by its classification; its voltages are not kept (ecg.ts)
  ['ecg', ECG_BLOCK],
]);

/** The metric a section of the body fills (`symptoms`, `medications`), or undefined. */
export function sectionMetric(key: string): string | undefined {
  return READ_AS_METRIC.get(key);
}

/** True for a key of the body (or of its `data`) that is not a section ingestion reads. */
export function isOtherSection(key: string): boolean {
  return key !== 'metrics' && key !== 'workouts' && key !== 'data' && !READ_AS_METRIC.has(key);
}

/**
 * How many entries the section `key` holds: the length of a list; 1 for an object with keys when
 * `key` is one of the app's sections (sent as one entry, not a list); 0 for anything else (empty,
 * a number or text beside the sections, such as a version).
 */
export function sectionEntries(key: string, value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (value === null || typeof value !== 'object' || !APP_SECTIONS.has(key)) return 0;
  for (const _ in value) return 1;
  return 0;
}

/** True when a section `key` sent as an object counts as one entry (sectionEntries). */
export function objectCounts(key: string): boolean {
  return APP_SECTIONS.has(key);
}

/**
 * One warning per section that held entries (`2 symptoms entr(ies) received, not ingested`), in
 * the order received; past MAX_NAMED sections, one line counting the rest.
 */
export function otherSectionWarnings(entries: ReadonlyMap<string, number>): string[] {
  const out: string[] = [];
  let more = 0;
  for (const [section, n] of entries) {
    if (n <= 0) continue;
    if (out.length < MAX_NAMED) out.push(`${n} ${section} entr(ies) received, not ingested`);
    else more++;
  }
  if (more) out.push(`${more} more section(s) received, not ingested`);
  return out;
}
