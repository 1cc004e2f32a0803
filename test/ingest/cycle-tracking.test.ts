/**
 * The `cycleTracking` section of a Health Auto Export push, through the real webhook: a menstrual
 * flow (`{start, end, name: "Menstrual Flow", value: "Medium"}`, also with `date`, also named
 * as iOS 18 does, `Vaginal Bleeding`) is a day logged on `menstrual_flow`; a flow of `None` is
 * not; a record of another kind (an ovulation test) and a flow level Klebb does not know are each
 * left out with a warning naming them; a re-send adds nothing, and a body streamed for its size
 * reads them the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAE_INLINE_MAX_BYTES } from '../../src/ingest/hae/env.js';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const cycle = [
  {
    start: '2026-05-10 00:00:00 +0200',
    end: '2026-05-10 23:59:59 +0200',
    name: 'Menstrual Flow',
    value: 'Medium',
  },
  {
    start: '2026-05-11 00:00:00 +0200',
    end: '2026-05-11 23:59:59 +0200',
    name: 'Menstrual Flow',
    value: 'Light',
  },
  { date: '2026-05-12 00:00:00 +0200', name: 'Vaginal Bleeding', value: 'Heavy', source: 'Health' },
  {
    start: '2026-05-13 00:00:00 +0200',
    end: '2026-05-13 23:59:59 +0200',
    name: 'Menstrual Flow',
    value: 'None',
  },
  { start: '2026-05-14 00:00:00 +0200', name: 'Menstrual Flow', value: 'Spotting-ish' },
  { start: '2026-05-24 00:00:00 +0200', name: 'Ovulation Test Result', value: 'Positive' },
];

const ROWS = [
  { date: '2026-05-10', logged: true },
  { date: '2026-05-11', logged: true },
  { date: '2026-05-12', logged: true },
];

const WARNINGS = [
  'cycleTracking: kind of record not read, left out (1 point, e.g. "Ovulation Test Result")',
  'menstrual_flow: no menstrual flow, not counted (1 point, e.g. "None")',
  'menstrual_flow: unknown menstrual flow, left out (1 point, e.g. "Spotting-ish")',
];

describe('cycle tracking', () => {
  it('a menstrual flow is a day logged; no flow, unknown levels and other records are named', async () => {
    const s = await startIngestServer({ cards: [['flow', 'menstrual_flow']] });
    srv = s;
    const body = JSON.stringify({ data: { metrics: [], workouts: [], cycleTracking: cycle } });
    const r = await s.push(body);
    expect(r.status, r.text).toBe(200);
    expect([...r.body.warnings].sort()).toEqual(WARNINGS);
    expect(r.body.samples).toEqual({ received: 3, new: 3 });
    expect(await s.rows('flow')).toEqual(ROWS);
    expect((await s.push(body)).body.samples).toEqual({ received: 3, new: 0 });
    expect(await s.rows('flow')).toEqual(ROWS);
  });

  it('read the same from a body streamed for its size', async () => {
    const s = await startIngestServer({ cards: [['flow', 'menstrual_flow']] });
    srv = s;
    const steps = Array.from({ length: 70_000 }, (_, i) => ({
      date: `2026-05-19 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} +0100`,
      qty: 1,
      source: `Watch ${Math.floor(i / 86400)}`,
    }));
    const body = JSON.stringify({
      data: { cycleTracking: cycle, metrics: [{ name: 'step_count', units: 'count', data: steps }] },
    });
    expect(body.length).toBeGreaterThan(HAE_INLINE_MAX_BYTES);
    const r = await s.push(body);
    expect(r.status, r.text).toBe(200);
    expect([...r.body.warnings].sort()).toEqual(WARNINGS);
    expect(await s.rows('flow')).toEqual(ROWS);
  });
});
