/**
 * The `heartRateNotifications` section of a Health Auto Export push: one entry per notification
 * the watch raised, `{start, end, threshold?, heartRate[], heartRateVariation[]}`. The app writes
 * `threshold` only for a high or a low heart-rate notification; an entry without one is an
 * irregular-rhythm notification. Newer versions also name the kind (`heartNotification`). Each entry becomes one occurrence (count 1, at its `start`) of
 * the metric the Apple Health import fills with the same events: high_heart_rate_notifications,
 * low_heart_rate_notifications or irregular_heart_rhythm_notifications.
 */

import { readNumber } from './numbers.js';
import type { MetricBlock } from './payload.js';

/** The metric block name the section is read under (other-sections.ts) before it is split. */
export const HEART_RATE_NOTIFICATIONS_BLOCK = 'heart_rate_notifications';

/**
 * The thresholds the watch offers do not overlap: a low heart rate is one under 40 or 50 bpm, a
 * high one over 100 to 150 bpm. A threshold under this line is a low-rate notification.
 */
const LOW_HIGH_LINE_BPM = 75;

/** The kinds of notification, as the app names one in `heartNotification`. */
const KINDS: readonly [string, string][] = [
  ['low', 'low_heart_rate_notifications'],
  ['high', 'high_heart_rate_notifications'],
  ['irregular', 'irregular_heart_rhythm_notifications'],
];

/**
 * The metric one notification entry counts in: the kind the entry names
 * (`"heartNotification": "low_heart_rate_notification"`); else from its `threshold` (see the file
 * comment): none sent is an irregular rhythm, a threshold in bpm (a number, numeric text,
 * `{qty, units}`) under LOW_HIGH_LINE_BPM a low heart rate, any other one a high heart rate.
 */
function notificationMetric(entry: Record<string, unknown>): string {
  const named = entry.heartNotification ?? entry.kind ?? entry.type;
  if (typeof named === 'string') {
    const word = named.toLowerCase();
    for (const [kind, metric] of KINDS) if (word.includes(kind)) return metric;
  }
  const t = entry.threshold;
  if (t === undefined || t === null || t === '') return 'irregular_heart_rhythm_notifications';
  const bpm = readNumber(t !== null && typeof t === 'object' ? (t as Record<string, unknown>).qty : t).value;
  return bpm !== undefined && bpm < LOW_HIGH_LINE_BPM
    ? 'low_heart_rate_notifications'
    : 'high_heart_rate_notifications';
}

/**
 * The section's entries (the points of the block HEART_RATE_NOTIFICATIONS_BLOCK) as one count
 * block per kind of notification, in the order first met: each point `{start, qty: 1, source?}`
 * (the entry's `start`, or its `date` when a relay renamed it), so a notification sent again is
 * the same sample.
 */
export function notificationBlocks(block: MetricBlock): MetricBlock[] {
  const byMetric = new Map<string, MetricBlock>();
  for (const entry of block.data) {
    const metric = notificationMetric(entry);
    let out = byMetric.get(metric);
    if (!out) {
      out = { name: metric, units: 'count', data: [] };
      byMetric.set(metric, out);
    }
    const point: Record<string, unknown> = { start: entry.start ?? entry.date ?? entry.startDate, qty: 1 };
    // a source sent as an object (`{name, bundleIdentifier}`) is read as the points' are
    if (entry.source !== undefined) point.source = entry.source;
    out.data.push(point);
  }
  return [...byMetric.values()];
}
