/**
 * A point's `source` sent as a list of names (`["Watch", "AutoSleep"]`) or as an object naming
 * the device (`{"name": "Oura", "bundleIdentifier": ...}`) instead of a string, pushed through the
 * real webhook: the point is kept with its source read as one text, the same whatever the order
 * of the list, so the same point sent again is stored once and points of two devices stay apart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** One night of 7 h (core 4, deep 2, rem 1), woken 06:30 on 2 June, from `source`. */
function night(source: unknown): string {
  const point = {
    date: '2026-06-02 00:00:00 -0500',
    core: 4,
    deep: 2,
    rem: 1,
    asleep: 0,
    inBed: 0,
    sleepStart: '2026-06-01 23:30:00 -0500',
    sleepEnd: '2026-06-02 06:30:00 -0500',
    source,
  };
  return JSON.stringify({ data: { metrics: [{ name: 'sleep_analysis', units: 'hr', data: [point] }] } });
}

const NIGHT_ROW = {
  date: '2026-06-02',
  hours: 7,
  core: 4,
  deep: 2,
  rem: 1,
  bedTime: '23:30',
  wakeTime: '06:30',
};

function restingHeartRate(source: unknown): string {
  const point = { date: '2026-06-02 07:00:00 -0500', qty: 55, source };
  return JSON.stringify({
    data: { metrics: [{ name: 'resting_heart_rate', units: 'count/min', data: [point] }] },
  });
}

describe('a source that is not a string', () => {
  it('a list of names is kept as one source, the same in any order', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const first = await srv.push(night(['Watch', 'AutoSleep']));
    expect(first.status).toBe(200);
    expect(first.body.warnings ?? []).toEqual([]);
    expect(first.body.samples).toEqual({ received: 1, new: 1 });
    const row = { ...NIGHT_ROW, source: 'AutoSleep|Watch' };
    expect(await srv.rows('sleep')).toEqual([row]);

    // the same night with the list the other way round (and a name repeated): the same sample
    const again = await srv.push(night(['AutoSleep', ' Watch ', 'Watch']));
    expect(again.status).toBe(200);
    expect(again.body.samples).toEqual({ received: 1, new: 0 });
    expect(await srv.rows('sleep')).toEqual([row]);
  });

  it('an object is read by the name it gives', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const r = await srv.push(night({ name: 'Oura', bundleIdentifier: 'com.ouraring.oura' }));
    expect(r.status).toBe(200);
    expect(r.body.samples).toEqual({ received: 1, new: 1 });
    expect(await srv.rows('sleep')).toEqual([{ ...NIGHT_ROW, source: 'Oura' }]);
  });

  it('two devices sending the same value at the same time stay two samples', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const watch = await srv.push(restingHeartRate(['User’s Apple Watch']));
    expect(watch.body.samples).toEqual({ received: 1, new: 1 });
    const ring = await srv.push(restingHeartRate({ name: 'Oura' }));
    expect(ring.body.samples).toEqual({ received: 1, new: 1 });
    expect(await srv.rows('resting')).toEqual([{ date: '2026-06-02', bpm: 55 }]);
  });

  it('a list or object with no name keeps the point, without a source', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    for (const source of [[], {}, [1, null, ''], { id: 7 }]) {
      const r = await srv.push(restingHeartRate(source));
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
      expect(r.body.samples?.received).toBe(1);
    }
    expect(await srv.rows('resting')).toEqual([{ date: '2026-06-02', bpm: 55 }]);
  });
});
