/**
 * A Health Auto Export CSV opened in Excel for Mac (or a spreadsheet whose region's short date
 * has a two-digit year) and saved again has its stamps written as the cells show them:
 * `4/27/26 8:00`, `27/04/26 08:00`, `27.04.26 08:00`. A two-digit year is this century's: the
 * rows are stored on their days instead of being left out as unreadable.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('a CSV whose stamps have two-digit years', () => {
  it('month first (Excel for Mac in the United States), the days up to the 12th too', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const csv = [
      'Date/Time,Step Count (count)',
      '4/1/26 0:00,8600',
      '4/2/26 0:00,7100',
      '4/27/26 0:00,9900',
      '',
    ].join('\r\n');
    const r = await srv.pushCsv(csv);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(r.body.samples).toEqual({ received: 3, new: 3 });
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-04-01', count: 8600 },
      { date: '2026-04-02', count: 7100 },
      { date: '2026-04-27', count: 9900 },
    ]);
  });

  it('day first with slashes or dots, and a date without a time', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const slashes = ['Date/Time,Step Count (count)', '27/04/26 08:00,9900', '03/05/26 08:00,4000'].join('\n');
    const r = await srv.pushCsv(slashes);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    const dots = ['Date,Step Count (count)', '28.04.26,5000'].join('\n');
    const d = await srv.pushCsv(dots);
    expect(d.status, d.text).toBe(200);
    expect(d.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-04-27', count: 9900 },
      { date: '2026-04-28', count: 5000 },
      { date: '2026-05-03', count: 4000 },
    ]);
  });

  it('a year at the edge of the century: 00 is 2000, 99 is 1999 (not a day in 2099)', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const csv = [
      'Date/Time,Step Count (count)',
      '12/31/99 0:00,1111',
      '1/1/00 0:00,2222',
      '5/13/2026 0:00,3333',
    ].join('\n');
    const r = await srv.pushCsv(csv);
    expect(r.status, r.text).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('steps')).toEqual([
      { date: '1999-12-31', count: 1111 },
      { date: '2000-01-01', count: 2222 },
      { date: '2026-05-13', count: 3333 },
    ]);
  });
});
