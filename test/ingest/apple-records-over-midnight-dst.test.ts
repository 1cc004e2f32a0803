/**
 * An Apple Health record of a summed quantity that crosses midnight on a night the clocks change
 * (its start written under one offset, its end under the other) is shared at that night's real
 * midnight, which came before the change: 400 steps from 23:00 (+0100) to 04:00 (+0200) on the
 * night clocks go forward are 4 hours, 1 before midnight (100 and 300); 600 steps from 23:00
 * (+0200) to 04:00 (+0100) on the night they go back are 6 hours, 1 before midnight (100 and
 * 500). Before, the midnight was read under the end's offset: the first record counted wholly on
 * its first day and the second was shared 200 and 400. A record over a leap day's midnight is
 * shared as any other. Imported twice, nothing is added. Real server, real SQLite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exportXml, healthRecord, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const Q = 'HKQuantityTypeIdentifier';
const steps = (value: string, start: string, end: string) =>
  healthRecord({ type: `${Q}StepCount`, unit: 'count', value, source: 'Lena’s iPhone', start, end });

const XML = exportXml(
  [
    steps('400', '2026-03-28 23:00:00 +0100', '2026-03-29 04:00:00 +0200'),
    steps('600', '2026-10-24 23:00:00 +0200', '2026-10-25 04:00:00 +0100'),
    steps('80', '2028-02-28 23:50:00 +0100', '2028-02-29 00:30:00 +0100'),
    steps('60', '2028-02-29 23:40:00 +0100', '2028-03-01 00:20:00 +0100'),
  ],
  { exportDate: '2028-03-02 08:00:00 +0100' },
);

describe('an Apple Health record over midnight on a night the clocks change', () => {
  it.each([
    ['read as written', undefined],
    ['read on the clock of the person’s zone', 'Europe/Berlin'],
  ])('is shared at the real midnight, before the change (%s)', async (_, tz) => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    if (tz) expect((await srv.api('/api/user/tz', { json: { tz } })).status).toBe(200);
    await srv.importKnown(XML);
    const days = [
      { date: '2026-03-28', count: 100 },
      { date: '2026-03-29', count: 300 },
      { date: '2026-10-24', count: 100 },
      { date: '2026-10-25', count: 500 },
      { date: '2028-02-28', count: 20 },
      { date: '2028-02-29', count: 90 },
      { date: '2028-03-01', count: 30 },
    ];
    expect(await srv.rows('steps')).toEqual(days);
    const again = await srv.importKnown(XML);
    expect(again.newSamples).toBe(0);
    expect(await srv.rows('steps')).toEqual(days);
  });

  it('where the clocks go back at midnight itself, is shared at the later midnight of the person’s zone', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    expect((await srv.api('/api/user/tz', { json: { tz: 'America/Santiago' } })).status).toBe(200);
    // Santiago, 4 April 2026: at 24:00 (-03) the clocks go back to 23:00 (-04); 23:30 to 00:30
    // is 2 hours, 1.5 of them on the 4th. 6 September: at 00:00 (-04) they go forward to 01:00
    // (-03); 23:30 to 01:30 is 1 hour, half on each day.
    const xml = exportXml(
      [
        steps('100', '2026-04-04 23:30:00 -0300', '2026-04-05 00:30:00 -0400'),
        steps('60', '2026-09-05 23:30:00 -0400', '2026-09-06 01:30:00 -0300'),
      ],
      { exportDate: '2026-09-10 08:00:00 -0300' },
    );
    await srv.importKnown(xml);
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-04-04', count: 75 },
      { date: '2026-04-05', count: 25 },
      { date: '2026-09-05', count: 30 },
      { date: '2026-09-06', count: 30 },
    ]);
  });
});
