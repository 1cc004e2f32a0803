/**
 * Times written with dots between hours, minutes and seconds, as regions whose clock is written
 * so spell them: Finnish and Danish (`20.00.00`), Indonesian, Finland Swedish. A script's
 * `toLocaleString()` on such a computer writes `27.4.2026 klo 20.00.00` (Finnish) or
 * `27.4.2026 20.00.00` (Danish), a spreadsheet saved again in Finland `27.4.2026 20.00`, and
 * some clients send the year first with such a time (`2026-04-27 20.00.00 +0300`). Each is
 * filed on its day at its time instead of being left out as unreadable.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('times written with dots', () => {
  it('in a JSON push are read at their time', async () => {
    srv = await startIngestServer({ cards: [['resting', 'resting_heart_rate']] });
    const stamps = [
      '2026-04-20 07.30.00 +0300',
      '21.4.2026 klo 7.30.00',
      '22.4.2026 07.30.00',
      '23/4/2026, 07.30.00',
      '2026-04-24 07.30',
    ];
    const data = stamps.map((date, i) => ({ date, qty: 50 + i, source: 'Watch' }));
    const r = await srv.push(
      JSON.stringify({ data: { metrics: [{ name: 'resting_heart_rate', units: 'count/min', data }] } }),
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(r.body.samples).toEqual({ received: 5, new: 5 });
    expect(await srv.rows('resting')).toEqual(stamps.map((_, i) => ({ date: `2026-04-2${i}`, bpm: 50 + i })));
    // the time is read as a time: the same instant with colons is the same sample
    const again = await srv.push(
      JSON.stringify({
        data: {
          metrics: [
            {
              name: 'resting_heart_rate',
              units: 'count/min',
              data: [{ date: '2026-04-20 07:30:00 +0300', qty: 50, source: 'Watch' }],
            },
          ],
        },
      }),
    );
    expect(again.body.samples).toEqual({ received: 1, new: 0 });
  });

  it('in a CSV saved again by a spreadsheet in Finland are read', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const csv = ['Date/Time;Step Count (count)', '1.5.2026 0.00;8600', '2.5.2026 0.00;7100', ''].join('\r\n');
    const r = await srv.pushCsv(csv);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-05-01', count: 8600 },
      { date: '2026-05-02', count: 7100 },
    ]);
  });
});
