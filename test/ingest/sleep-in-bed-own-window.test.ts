/**
 * Time in bed starts before sleep and ends after it. A night the app sends without inBedStart
 * and inBedEnd (versions that write only sleepStart and sleepEnd beside asleep and inBed) keeps
 * its whole time in bed instead of having it cut to the sleep window; a night with its in-bed
 * window is still held to that window.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, metricsPush, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function sleepPush(night: Record<string, unknown>): string {
  return metricsPush([{ name: 'sleep_analysis', units: 'hr', data: [night] }]);
}

describe('time in bed of a night sent without its in-bed window', () => {
  it('is kept whole: in bed 22:30 to 07:00, asleep 23:00 to 06:30', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const r = await srv.push(
      sleepPush({
        date: '2024-03-02 06:30:00 +0000',
        asleep: 7.5,
        inBed: 8.5,
        sleepStart: '2024-03-01 23:00:00 +0000',
        sleepEnd: '2024-03-02 06:30:00 +0000',
        source: 'Sam’s Apple Watch|Sam’s iPhone',
      }),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    const [row] = await srv.rows('sleep');
    expect(row).toMatchObject({ date: '2024-03-02', hours: 7.5, inBed: 8.5 });
  });

  it('with its in-bed window, a time in bed longer than it is still cut to it', async () => {
    srv = await startIngestServer({ cards: [['sleep', 'sleep_analysis']] });
    const r = await srv.push(
      sleepPush({
        date: '2024-03-02 06:30:00 +0000',
        asleep: 7.5,
        inBed: 12,
        sleepStart: '2024-03-01 23:00:00 +0000',
        sleepEnd: '2024-03-02 06:30:00 +0000',
        inBedStart: '2024-03-01 22:30:00 +0000',
        inBedEnd: '2024-03-02 07:00:00 +0000',
        source: 'Sam’s Apple Watch',
      }),
    );
    expect(r.status, r.text).toBe(200);
    const [row] = await srv.rows('sleep');
    expect(row).toMatchObject({ date: '2024-03-02', hours: 7.5, inBed: 8.5 });
  });
});
