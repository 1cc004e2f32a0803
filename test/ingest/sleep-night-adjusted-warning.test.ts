/**
 * A sleep night whose stages add up to more than its own sleepStart → sleepEnd window (two sources
 * summed, a night sent twice) is scaled to fit, and its time in bed cut to its in-bed window: the
 * push's warnings name each adjusted night by its start and end instead of changing it silently.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const night = (extra: Record<string, unknown>) => ({
  date: '2026-03-02 00:00:00 +0100',
  sleepStart: '2026-03-01 23:00:00 +0100',
  sleepEnd: '2026-03-02 07:00:00 +0100',
  inBedStart: '2026-03-01 22:45:00 +0100',
  inBedEnd: '2026-03-02 07:15:00 +0100',
  source: 'Watch',
  ...extra,
});

describe('a sleep night adjusted to fit its start and end', () => {
  it('is kept and named in a warning; a night that fits gives none', async () => {
    const s = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    srv = s;
    const fits = await s.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'sleep_analysis',
              units: 'hr',
              data: [night({ core: 4, deep: 1.5, rem: 1.5, inBed: 8.5 })],
            },
          ],
        },
      }),
    );
    expect(fits.status, fits.text).toBe(200);
    expect(fits.body.warnings ?? []).toEqual([]);

    const over = await s.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'sleep_analysis',
              units: 'hr',
              data: [
                night({
                  date: '2026-03-03 00:00:00 +0100',
                  sleepStart: '2026-03-02 23:00:00 +0100',
                  sleepEnd: '2026-03-03 07:00:00 +0100',
                  inBedStart: '2026-03-02 22:45:00 +0100',
                  inBedEnd: '2026-03-03 07:15:00 +0100',
                  core: 6,
                  deep: 2,
                  rem: 2,
                  inBed: 12,
                }),
              ],
            },
          ],
        },
      }),
    );
    expect(over.status, over.text).toBe(200);
    expect(over.body.warnings).toEqual([
      'sleep_analysis: sleep longer than its night (sleepStart to sleepEnd), scaled down to fit it (1 point, e.g. "2026-03-02 23:00:00 +0100 to 2026-03-03 07:00:00 +0100 (10 h in 8 h)")',
      'sleep_analysis: time in bed longer than its night (inBedStart to inBedEnd), cut to it (1 point, e.g. "2026-03-02 22:45:00 +0100 to 2026-03-03 07:15:00 +0100 (12 h in 8.5 h)")',
    ]);
    // kept, adjusted as before
    const rows = await s.rows('sleep');
    expect(rows.map((r) => r.date)).toEqual(['2026-03-02', '2026-03-03']);
  });
});
