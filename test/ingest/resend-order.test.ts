/**
 * Versions of one day sent by different exports (docs/HEALTH-AUTO-EXPORT.md "Re-sends and
 * partial days": the hour or day in progress is sent partially and later complete): the row must
 * not depend on which export arrives last. Two exports written here: a long one made after the
 * fact and a week's export made the morning of 29 January, whose last day is partial.
 * - step_count 2023-01-29: long 18250, week 64 → 18250 (largest: a cumulative day only grows).
 * - step_count 2023-01-22: long 15012.31, week 15008.8 → 15012 (rounded to 0 decimals).
 * - active_energy 2023-01-29: long 612.6, week 11.2 → 613 kcal.
 * - carbohydrates 2023-01-29: long 201.26, week 12 → 201.3 g (1 decimal).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { haeCard, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** An export with one point per day for steps, active energy and carbohydrates (+1100, `source: null`). */
function exportOf(label: string, values: Record<'steps' | 'energy' | 'carbs', [string, number][]>) {
  const block = (name: string, units: string, pts: [string, number][]) => ({
    name,
    units,
    data: pts.map(([day, qty]) => ({ date: `${day} 00:00:00 +1100`, qty, source: null })),
  });
  const body = JSON.stringify({
    data: {
      metrics: [
        block('step_count', 'count', values.steps),
        block('active_energy', 'kcal', values.energy),
        block('carbohydrates', 'g', values.carbs),
      ],
      workouts: [],
    },
  });
  return { label, bytes: Buffer.from(body) };
}

const LONG = exportOf('the long export', {
  steps: [
    ['2023-01-21', 9120],
    ['2023-01-22', 15012.31],
    ['2023-01-29', 18250],
    ['2023-01-30', 7002],
  ],
  energy: [['2023-01-29', 612.6]],
  carbs: [['2023-01-29', 201.26]],
});
const WEEK = exportOf('the week export', {
  steps: [
    ['2023-01-22', 15008.8],
    ['2023-01-29', 64],
  ],
  energy: [['2023-01-29', 11.2]],
  carbs: [['2023-01-29', 12]],
});

const CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['energy', 'active_energy'],
  ['carbs', 'carbohydrates'],
];

async function on(s: IngestServer, card: string, date: string) {
  return (await s.rows(card)).find((r) => r.date === date);
}

async function expectCompleteDays(s: IngestServer, card = 'steps'): Promise<void> {
  expect(await on(s, card, '2023-01-29')).toEqual({ date: '2023-01-29', count: 18250 });
  expect(await on(s, card, '2023-01-22')).toEqual({ date: '2023-01-22', count: 15012 });
}

describe('an older partial export and the complete one, in either order', () => {
  for (const order of [
    [LONG, WEEK],
    [WEEK, LONG],
  ]) {
    it(`gives the complete day: ${order.map((f) => f.label).join(' then ')}`, async () => {
      srv = await startIngestServer({ cards: CARDS });
      for (const f of order) expect((await srv.push(f.bytes)).body.ok).toBe(true);
      await expectCompleteDays(srv);
      expect(await on(srv, 'energy', '2023-01-29')).toEqual({ date: '2023-01-29', kcal: 613 });
      expect(await on(srv, 'carbs', '2023-01-29')).toEqual({ date: '2023-01-29', g: 201.3 });

      // re-sending either file changes nothing (its samples are stored already)
      for (const f of order) {
        const again = await srv.push(f.bytes);
        expect(again.body.samples.new).toBe(0);
      }
      await expectCompleteDays(srv);

      // a card created afterwards is filled from the stored samples with the same rows
      await srv.createCard(haeCard('steps-later', 'step_count'));
      await expectCompleteDays(srv, 'steps-later');
    });
  }

  it('versions of an average: min of mins, max of maxes, the mean of the averages, in both orders', async () => {
    const day = (min: number, avg: number, max: number) =>
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'heart_rate',
              units: 'count/min',
              data: [{ date: '2025-03-01 00:00:00 +0100', Min: min, Avg: avg, Max: max, source: 'Watch' }],
            },
          ],
        },
      });
    const rows: unknown[] = [];
    for (const bodies of [
      [day(60, 70, 90), day(50, 66, 150)],
      [day(50, 66, 150), day(60, 70, 90)],
    ]) {
      srv = await startIngestServer({ cards: [['hr', 'heart_rate']] });
      for (const b of bodies) await srv.push(b);
      rows.push(await srv.rows('hr'));
      await srv.close();
      srv = undefined;
    }
    expect(rows[0]).toEqual([{ date: '2025-03-01', min: 50, avg: 68, max: 150 }]);
    expect(rows[1]).toEqual(rows[0]);
  });
});
