/**
 * Two entries of one source at one instant that name different things are two entries, both
 * counted in the day's total: a basal and a bolus insulin delivered at 08:00 by one pump. They
 * were taken for two versions of one reading (the day in progress sent again), and only the
 * larger was counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('entries of one instant that name different things', () => {
  it('are added, and the same ones sent again still count once', async () => {
    const s = await startIngestServer({ cards: [['insulin', 'insulin_delivery']] });
    srv = s;
    const at = '2026-09-02 08:00:00 +0200';
    const block = {
      name: 'insulin_delivery',
      units: 'IU',
      data: [
        { date: at, qty: 10, reason: 'Basal', source: 'Pump' },
        { date: at, qty: 4, reason: 'Bolus', source: 'Pump' },
        { date: '2026-09-02 12:30:00 +0200', qty: 5, reason: 'Bolus', source: 'Pump' },
      ],
    };
    const r = await s.push(JSON.stringify({ data: { metrics: [block] } }));
    expect(r.status, r.text).toBe(200);
    expect(await s.rows('insulin')).toEqual([{ date: '2026-09-02', iu: 19 }]);
    await s.push(JSON.stringify({ data: { metrics: [{ ...block, data: block.data.slice(0, 2) }] } }));
    expect(await s.rows('insulin')).toEqual([{ date: '2026-09-02', iu: 19 }]);
  });
});
