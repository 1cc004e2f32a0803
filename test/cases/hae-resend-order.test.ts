/**
 * Versions of one day sent by two real exports (docs/HEALTH-AUTO-EXPORT.md "Re-sends and
 * partial days"; docs/HEALTH-AUTO-EXPORT.md pitfall "the hour or day in progress is sent partially and later
 * complete"): the row must not depend on which export arrives last. Real files: the 3-month
 * export (made 2023-03-25) and the week export made the morning of 2023-01-29, whose last day
 * is partial. Expected values read by hand from the files (python3 / jq on the `qty` of the
 * midnight-stamped point, `source` null in both files):
 * - step_count 2023-01-29: 3-month 19794, week 71 → 19794 (largest: a cumulative day only grows).
 * - step_count 2023-01-22: 3-month 17028.01208452914, week 17022.917041443572 → 17028 (rounded to 0 decimals).
 * - active_energy 2023-01-29: 3-month 723.438910137426, week 13.381910137425466 → 723 kcal.
 * - carbohydrates 2023-01-29: 3-month 229.24701456325, week 15 → 229.2 g (1 decimal).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { haeCard, type IngestServer, startIngestServer } from '../ingest/helpers.js';
import { haeBytes } from './hae-files.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const QUARTER = 'apple-health-data_HealthAutoExport-2022-12-25-2023-03-25.json';
const WEEK = 'apple-health-data_HealthAutoExport-2023-01-22-2023-01-29.json';

const CARDS: [string, string][] = [
  ['steps', 'step_count'],
  ['energy', 'active_energy'],
  ['carbs', 'carbohydrates'],
];

async function on(s: IngestServer, card: string, date: string) {
  return (await s.rows(card)).find((r) => r.date === date);
}

async function expectCompleteDays(s: IngestServer, card = 'steps'): Promise<void> {
  expect(await on(s, card, '2023-01-29')).toEqual({ date: '2023-01-29', count: 19794 });
  expect(await on(s, card, '2023-01-22')).toEqual({ date: '2023-01-22', count: 17028 });
}

describe('an older partial export and the complete one, in either order', () => {
  for (const order of [
    [QUARTER, WEEK],
    [WEEK, QUARTER],
  ]) {
    it(`gives the complete day: ${order.map((f) => f.slice(35, 56)).join(' then ')}`, async () => {
      srv = await startIngestServer({ cards: CARDS });
      for (const f of order) expect((await srv.push(haeBytes(f))).body.ok).toBe(true);
      await expectCompleteDays(srv);
      expect(await on(srv, 'energy', '2023-01-29')).toEqual({ date: '2023-01-29', kcal: 723 });
      expect(await on(srv, 'carbs', '2023-01-29')).toEqual({ date: '2023-01-29', g: 229.2 });

      // re-sending either file changes nothing (its samples are stored already)
      for (const f of order) {
        const again = await srv.push(haeBytes(f));
        expect(again.body.samples.new).toBe(0);
      }
      await expectCompleteDays(srv);

      // a card created afterwards is filled from the stored samples with the same rows
      await srv.createCard(haeCard('steps-later', 'step_count'));
      await expectCompleteDays(srv, 'steps-later');
    });
  }
});
