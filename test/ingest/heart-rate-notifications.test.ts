/**
 * The `heartRateNotifications` section of a Health Auto Export push, in the shape the app
 * documents (`{start, end, threshold?, heartRate[], heartRateVariation[]}`), through the real
 * webhook: an entry with a high threshold counts as a high heart-rate notification, one with a low
 * threshold as a low one, one without a threshold as an irregular rhythm (unless it names its kind,
 * `heartNotification`), each on the day it started; a re-send adds nothing, and a body streamed for its size reads them the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const CARDS: [string, string][] = [
  ['high', 'high_heart_rate_notifications'],
  ['low', 'low_heart_rate_notifications'],
  ['irregular', 'irregular_heart_rhythm_notifications'],
];

function hr(at: string, bpm: number) {
  return { hr: bpm, units: 'bpm', timestamp: { start: at, end: at, interval: { duration: 5, units: 's' } } };
}

const notifications = [
  {
    start: '2026-05-19 14:02:10 +0100',
    end: '2026-05-19 14:12:10 +0100',
    source: { name: 'Watch', bundleIdentifier: 'com.apple.health.1' },
    threshold: 120,
    heartRate: [hr('2026-05-19 14:02:10 +0100', 126), hr('2026-05-19 14:07:10 +0100', 131)],
    heartRateVariation: [],
  },
  {
    // the kind named as newer versions of the app do, with its source as an object
    heartNotification: 'high_heart_rate_notification',
    start: '2026-05-19 21:40:00 +0100',
    end: '2026-05-19 21:50:00 +0100',
    source: { name: 'Watch', bundleIdentifier: 'com.apple.health.1' },
    heartRate: [hr('2026-05-19 21:40:00 +0100', 124)],
    heartRateVariation: [],
  },
  {
    start: '2026-05-20 03:15:00 +0100',
    end: '2026-05-20 03:25:00 +0100',
    threshold: 40,
    heartRate: [hr('2026-05-20 03:15:00 +0100', 38)],
    heartRateVariation: [],
  },
  {
    start: '2026-05-20 09:00:00 +0100',
    end: '2026-05-20 11:00:00 +0100',
    heartRate: [],
    heartRateVariation: [
      {
        hrv: 112,
        units: 'ms',
        timestamp: { start: '2026-05-20 09:00:00 +0100', end: '2026-05-20 09:01:00 +0100' },
      },
    ],
  },
];

const ROWS = {
  high: [{ date: '2026-05-19', count: 2 }],
  low: [{ date: '2026-05-20', count: 1 }],
  irregular: [{ date: '2026-05-20', count: 1 }],
};

async function expectRows(s: IngestServer): Promise<void> {
  expect(await s.rows('high')).toEqual(ROWS.high);
  expect(await s.rows('low')).toEqual(ROWS.low);
  expect(await s.rows('irregular')).toEqual(ROWS.irregular);
}

describe('heart-rate notifications', () => {
  it('count by kind on the day each started; a re-send adds nothing', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const body = JSON.stringify({
      data: { metrics: [], workouts: [], heartRateNotifications: notifications },
    });
    const r = await s.push(body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(r.body.samples).toEqual({ received: 4, new: 4 });
    await expectRows(s);
    expect((await s.push(body)).body.samples).toEqual({ received: 4, new: 0 });
    await expectRows(s);
  });

  it('read the same from a body streamed for its size', async () => {
    const s = await startIngestServer({ cards: CARDS });
    srv = s;
    const steps = Array.from({ length: 70_000 }, (_, i) => ({
      date: `2026-05-19 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} +0100`,
      qty: 1,
      source: `Watch ${Math.floor(i / 86400)}`,
    }));
    const body = JSON.stringify({
      data: {
        heartRateNotifications: notifications,
        metrics: [{ name: 'step_count', units: 'count', data: steps }],
      },
    });
    expect(body.length).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const r = await s.push(body);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    await expectRows(s);
  });
});
