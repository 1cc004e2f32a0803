/**
 * The doctor's summary reads the person's days: a reading or a dose check-off written with `Z` or
 * an offset is an instant, in the range when its day in the person's zone is. The server runs in
 * UTC; the person lives in Los Angeles, where an evening is already the next day in UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'summary-instant-token';
let s: TestServer;
const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T, TZ: 'UTC' } });
  expect((await s.api('/api/user/tz', { json: { tz: 'America/Los_Angeles' } })).status).toBe(200);
  const weight = {
    $schema: 'klebb.datafile.v1',
    meta: { id: 'weight', label: 'Weight' },
    data: [
      // 31 March, 20:30 in Los Angeles: before the range
      { date: '2026-04-01T03:30:00Z', kg: 1 },
      { date: '2026-04-15', kg: 2 },
      // a wall-clock time is the day written
      { date: '2026-04-30T23:30', kg: 3 },
      // 30 April, 20:30 in Los Angeles: inside the range
      { date: '2026-05-01T03:30:00Z', kg: 4 },
      // 1 May in Los Angeles, written with its own offset: after the range
      { date: '2026-05-01T00:30:00-07:00', kg: 5 },
    ],
  };
  const pills = {
    $schema: 'klebb.datafile.v1',
    meta: { id: 'pills', label: 'Pills' },
    data: {
      items: [
        {
          name: 'Vitamin D',
          schedule: { type: 'daily' },
          // taken each evening at 20:00 in Los Angeles, recorded by an agent in UTC
          doses: [
            { takenAt: '2026-04-29T03:00:00Z' },
            { takenAt: '2026-04-30T03:00:00Z' },
            { takenAt: '2026-05-01T03:00:00Z' },
          ],
        },
      ],
    },
  };
  for (const c of [weight, pills]) expect((await api('/api/manifests', { json: c })).status).toBe(201);
});
afterAll(() => s.close());

describe('GET /api/summary in the person’s days', () => {
  it('takes the readings whose Los Angeles day is in the range', async () => {
    const res = await api('/api/summary?from=2026-04-01&to=2026-04-30&cards=weight');
    expect(res.status).toBe(200);
    const [card] = res.body.cards;
    expect(card.rows.map((r: { kg: number }) => r.kg)).toEqual([2, 3, 4]);
    expect(card.total).toBe(3);
    expect(card.stats).toEqual([{ field: 'kg', count: 3, avg: 3, min: 2, max: 4 }]);
  });

  it('counts each evening’s dose on its Los Angeles day', async () => {
    const res = await api('/api/summary?from=2026-04-28&to=2026-04-30&cards=pills');
    expect(res.status).toBe(200);
    expect(res.body.cards[0].adherence).toEqual([{ name: 'Vitamin D', scheduled: 3, taken: 3, rate: 1 }]);
  });
});
