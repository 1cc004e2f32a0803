/**
 * A Health Auto Export CSV opened in a spreadsheet and saved again has its stamps written as the
 * computer's region writes dates (`5/13/2026 0:00` in the United States, `13/05/2026 00:00` in
 * Britain). The stamps of the file that show the order of day and month (a day above 12) tell
 * how to read the others, so the first twelve days of each month are stored on their days
 * instead of being left out as unreadable. A file that shows both orders, or neither, is read as
 * before: a stamp that cannot be told is left out with a warning.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const HEAD = 'Date/Time,Step Count (count),Weight & Body Mass (lb)';

describe('a CSV saved again by a spreadsheet', () => {
  it('month first (United States): the days up to the 12th are read in the order the file shows', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const csv = [HEAD, '5/1/2026 0:00,8600,', '5/2/2026 0:00,7100,158.4', '5/13/2026 0:00,9900,'].join(
      '\r\n',
    );
    const r = await srv.pushCsv(csv);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(r.body.samples).toEqual({ received: 4, new: 4 });
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-05-01', count: 8600 },
      { date: '2026-05-02', count: 7100 },
      { date: '2026-05-13', count: 9900 },
    ]);
  });

  it('day first (Britain), 12-hour times too', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const csv = [
      'Date/Time,Step Count (count)',
      '01/06/2026 12:00:00 am,8600',
      '13/06/2026 12:00:00 am,9900',
      '',
    ].join('\n');
    const r = await srv.pushCsv(csv);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-06-01', count: 8600 },
      { date: '2026-06-13', count: 9900 },
    ]);
  });

  it('a file showing both orders, or none, leaves the stamps it cannot tell out with a warning', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const both = [
      'Date/Time,Step Count (count)',
      '5/1/2026 0:00,8600',
      '5/13/2026 0:00,9900',
      '14/5/2026 0:00,7000',
    ];
    const r = await srv.pushCsv(both.join('\n'));
    expect(r.status, r.text).toBe(200);
    expect(r.body.samples).toEqual({ received: 2, new: 2 });
    expect((r.body.warnings as string[]).some((w) => w.includes('day and month order cannot be told'))).toBe(
      true,
    );
    const none = await srv.pushCsv(['Date/Time,Step Count (count)', '7/3/2026 0:00,5000'].join('\n'));
    expect(none.body.samples).toEqual({ received: 0, new: 0 });
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-05-13', count: 9900 },
      { date: '2026-05-14', count: 7000 },
    ]);
  });
});
