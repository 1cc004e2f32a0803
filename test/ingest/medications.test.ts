/**
 * Medication doses logged in the Health app, as Health Auto Export sends them in its
 * `medications` section, fill the `medications` metric: per day, the doses taken and the doses
 * skipped. A dose neither taken nor skipped is left out with a warning; the `dosage` the app
 * writes (1 for a skipped dose too) is not read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function dose(start: string, displayText: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    displayText,
    nickname: '',
    start,
    end: start,
    status,
    isArchived: false,
    dosage: 1,
    codings: [],
    ...extra,
  };
}

describe('medication doses pushed by Health Auto Export', () => {
  const medications = [
    dose('2026-09-01 08:02:00 +0200', 'Levothyroxine 50 µg', 'Taken'),
    dose('2026-09-01 20:00:00 +0200', 'Ibuprofen', 'Skipped'),
    // two medications taken in the same minute are two doses
    dose('2026-09-02 08:00:00 +0200', 'Levothyroxine 50 µg', 'Taken'),
    dose('2026-09-02 08:00:00 +0200', 'Vitamin D', 'taken'),
    // scheduled at midnight: one dose, not a day's total
    dose('2026-09-03 00:00:00 +0200', 'Levothyroxine 50 µg', 'Skipped'),
    dose('2026-09-03 09:00:00 +0200', 'Ibuprofen', 'Not Interacted'),
  ];
  const rows = [
    { date: '2026-09-01', taken: 1, skipped: 1 },
    { date: '2026-09-02', taken: 2 },
    { date: '2026-09-03', skipped: 1 },
  ];

  it('count the doses taken and skipped each day, once however often sent', async () => {
    const s = await startIngestServer({ cards: [['meds', 'medications']] });
    srv = s;
    const r = await s.push(JSON.stringify({ data: { metrics: [], medications } }));
    expect(r.status, r.text).toBe(200);
    expect(r.body.samples).toEqual({ received: 5, new: 5 });
    expect(r.body.warnings).toEqual([
      'medications: dose neither taken nor skipped, left out (1 point, e.g. "Not Interacted")',
    ]);
    expect(await s.rows('meds')).toEqual(rows);
    const again = await s.push(JSON.stringify({ medications: medications.slice(2, 4) }));
    expect(again.body.samples).toEqual({ received: 2, new: 0 });
    expect(await s.rows('meds')).toEqual(rows);
  });
});
