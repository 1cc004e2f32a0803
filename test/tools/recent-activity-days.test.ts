/**
 * get_recent_activity's lastNDelta compares what a person would compare. A card that adds up its
 * day (water by the glass: `aggregate: "sum"`) compares the two latest days' totals, not the last
 * glass with the glass before, and leaves out today's total while the day is still going. A row
 * planned for a later day (an agent's goal weight next month) is not the latest reading, as it is
 * not the latest entry date either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { manifest, type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
const today = todayIn('UTC');
const day = (n: number) => addDays(today, n);
const glasses = (d: string, ns: number[]) => ns.map((n) => ({ date: d, glasses: n }));

beforeAll(async () => {
  t = await toolEnv();
  expect((await t.s.api('/api/user/tz', { json: { tz: 'UTC' } })).status).toBe(200);
  const sum = { trends: { enabled: true, component: 'bar-chart', aggregate: 'sum' } };
  for (const m of [
    manifest(
      'water',
      [...glasses(day(-2), [1, 2, 3]), ...glasses(day(-1), [2, 2]), ...glasses(today, [1])],
      sum,
    ),
    manifest(
      'sleep',
      [
        { date: day(-1), hours: 6 },
        { date: day(-1), hours: 1.5 },
        { date: today, hours: 8 },
      ],
      {
        ...sum,
        view: { enabled: true, component: 'generic-card', runningTotal: false },
      },
    ),
    manifest('weight', [
      { date: day(-2), kg: 80 },
      { date: day(-1), kg: 79.5 },
      { date: day(30), kg: 75 },
    ]),
  ])
    expect((await t.call('create_manifest', { manifest: m })).json.ok).toBe(true);
});
afterAll(async () => {
  await t?.close();
});

const deltaOf = async (id: string) =>
  (await t.call('get_recent_activity', {})).json.cards.find((c: { id: string }) => c.id === id).lastNDelta;

describe('lastNDelta', () => {
  it("compares the two latest days' totals of a card that adds up its day, today's left out", async () => {
    // 4 glasses yesterday against 6 the day before; today's one glass is only so far
    expect(await deltaOf('water')).toBe(-2);
  });

  it('counts today on a card whose day is complete once logged (a night of sleep)', async () => {
    expect(await deltaOf('sleep')).toBe(0.5);
  });

  it('passes over a row planned for a later day', async () => {
    expect(await deltaOf('weight')).toBe(-0.5);
  });
});
