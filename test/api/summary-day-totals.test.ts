/**
 * GET /api/summary for a card that adds up its day (water by the glass, steps in parts:
 * `aggregate: "sum"`): a doctor reads how much a day held, not how big one glass was. The average,
 * minimum and maximum are of the days' totals, one per day with entries (a day without any is not
 * a day of nothing), `count` counts days and the field says `per: "day"`; today's total, while the
 * day is not over, is only so far and is left out. A card that does not add up its day (weight)
 * keeps the statistics of its readings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'summary-day-totals-token';
let s: TestServer;
const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const today = todayIn('UTC');
const ago = (n: number) => addDays(today, -n);

const card = (id: string, meta: Record<string, unknown>, data: Record<string, unknown>[]) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, ...meta },
  data,
});

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  // "today" is the person's day: UTC here, as the test counts it
  expect((await api('/api/user/tz', { json: { tz: 'UTC' } })).status).toBe(200);
  const glasses = (day: string, ns: (number | string)[]) => ns.map((glasses) => ({ date: day, glasses }));
  for (const c of [
    card('water', { trends: { enabled: true, component: 'bar-chart', aggregate: 'sum' } }, [
      ...glasses(ago(5), [1, 1, 2, 2]),
      ...glasses(ago(4), [3, '3', 2]),
      // ago(3) and ago(2): nothing logged
      ...glasses(ago(1), [0.1, 0.2]),
      ...glasses(today, [1]),
    ]),
    card(
      'sleep',
      {
        view: { enabled: true, component: 'generic-card', runningTotal: false },
        trends: { enabled: true, component: 'bar-chart', aggregate: 'sum' },
      },
      [
        { date: ago(1), hours: 6 },
        { date: ago(1), hours: 1.5 },
        { date: today, hours: 7 },
      ],
    ),
    card('weight', { trends: { enabled: true, component: 'line-chart', aggregate: 'last' } }, [
      { date: ago(1), kg: 80 },
      { date: ago(1), kg: 81 },
      { date: today, kg: 82 },
    ]),
  ]) {
    const r = await api('/api/manifests', { json: c });
    expect(r.status, r.text).toBe(201);
  }
});
afterAll(() => s.close());

const statsOf = async (id: string, from = ago(10), to = today) => {
  const res = await api(`/api/summary?from=${from}&to=${to}&cards=${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.cards[0].stats;
};

describe('GET /api/summary of a card that adds up its day', () => {
  it("gives the days' totals: average, least and most a day, counting days with entries", async () => {
    // 6, 8 and 0.3 glasses a day; today's 1 glass is so far and left out
    expect(await statsOf('water')).toEqual([
      { field: 'glasses', per: 'day', count: 3, avg: 4.77, min: 0.3, max: 8 },
    ]);
  });

  it("counts today's total once the card's day is complete when logged (a night's sleep)", async () => {
    expect(await statsOf('sleep')).toEqual([
      { field: 'hours', per: 'day', count: 2, avg: 7.25, min: 7, max: 7.5 },
    ]);
  });

  it('a range of today alone on a running total has no statistics yet, only its readings', async () => {
    const res = await api(`/api/summary?from=${today}&to=${today}&cards=water`);
    expect(res.body.cards[0].stats).toEqual([]);
    expect(res.body.cards[0].total).toBe(1);
  });

  it('a card that does not add up its day keeps the statistics of its readings', async () => {
    expect(await statsOf('weight')).toEqual([{ field: 'kg', count: 3, avg: 81, min: 80, max: 82 }]);
  });
});
