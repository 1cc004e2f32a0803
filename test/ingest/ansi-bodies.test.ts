/**
 * Bodies in a Windows code page rather than UTF-8, pushed through the real webhook: an export
 * opened in Excel on Windows and saved as "CSV (Comma delimited)" (Windows-1252: the `·` of
 * `ml/(kg·min)` and the `°` of `°F` one byte each), alone or as a part of a multipart post, and a
 * JSON file written by Windows PowerShell 5.1's Set-Content with its charset declared. Each is
 * read as the text it holds, every unit known; a UTF-8 body labelled Latin-1 by a relay is still
 * read as UTF-8.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const CARDS: [string, string][] = [
  ['vo2', 'vo2_max'],
  ['temperature', 'body_temperature'],
  ['steps', 'step_count'],
];

/** The app's metrics CSV, as Excel saves it again: CRLF lines, in `encoding`. */
function metricsCsv(encoding: 'latin1' | 'utf8'): Buffer {
  return Buffer.from(
    [
      'Date/Time,VO2 Max (ml/(kg·min)),Body Temperature (°F),Step Count (count)',
      '2026-04-14 00:00:00,41.5,98.6,8210',
      '',
    ].join('\r\n'),
    encoding,
  );
}

const EXPECTED = {
  vo2: [{ date: '2026-04-14', vo2max: 41.5 }],
  temperature: [{ date: '2026-04-14', degC: 37 }],
  steps: [{ date: '2026-04-14', count: 8210 }],
};

function post(s: IngestServer, body: Buffer, contentType: string) {
  return s.api('/api/health-auto-export', {
    method: 'POST',
    body,
    headers: { 'content-type': contentType },
    token: s.haeToken,
  });
}

async function expectRows(s: IngestServer) {
  for (const [card, rows] of Object.entries(EXPECTED)) expect(await s.rows(card)).toEqual(rows);
}

describe('a body in a Windows code page', () => {
  it('a CSV saved by Excel in Windows-1252, with no charset, is read whole', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const r = await post(srv, metricsCsv('latin1'), 'text/csv');
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    await expectRows(srv);
  });

  it('such a CSV posted as a file of a multipart form is read whole', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const boundary = 'Boundary-51E0C2D4';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Health Metrics.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      metricsCsv('latin1'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await post(srv, body, `multipart/form-data; boundary=${boundary}`);
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    await expectRows(srv);
  });

  it('a JSON file in Windows-1252 with its charset declared is read whole', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const json = JSON.stringify({
      data: {
        metrics: [
          {
            name: 'body_temperature',
            units: '°F',
            data: [{ date: '2026-04-14 07:10:00 +0200', qty: 98.6, source: 'Jérôme’s iPhone' }],
          },
        ],
      },
    });
    // Set-Content writes the ANSI code page; `’` is byte 0x92 in it
    const ansi = Buffer.from(json.replace('’', '\u0092'), 'latin1');
    const r = await post(srv, ansi, 'application/json; charset=windows-1252');
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('temperature')).toEqual(EXPECTED.temperature);
  });

  it('a UTF-8 body with one damaged byte is still read as UTF-8: its samples are not stored again', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const point = { date: '2026-04-14 07:10:00 +0200', qty: 37.1, source: 'User’s Apple\u00a0Watch' };
    const body = (extra: Record<string, unknown>) =>
      JSON.stringify({
        data: { metrics: [{ name: 'body_temperature', units: 'degC', data: [point] }], ...extra },
      });
    const first = await srv.push(body({}));
    expect(first.body.samples).toEqual({ received: 1, new: 1 });
    // the same sample again, beside a section a relay damaged (one byte of a character lost)
    const text = Buffer.from(body({ notes: 'caf\u00e9' }));
    const at = text.indexOf(Buffer.from('\u00e9'));
    const damaged = Buffer.concat([text.subarray(0, at + 1), text.subarray(at + 2)]);
    const again = await post(srv, damaged, 'application/json');
    expect(again.status).toBe(200);
    expect(again.body.samples).toEqual({ received: 1, new: 0 });
    expect(await srv.rows('temperature')).toEqual([{ date: '2026-04-14', degC: 37.1 }]);
  });

  it('a UTF-8 CSV labelled ISO-8859-1 is read as UTF-8', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const r = await post(srv, metricsCsv('utf8'), 'text/csv; charset=iso-8859-1');
    expect(r.status).toBe(200);
    expect(r.body.warnings ?? []).toEqual([]);
    await expectRows(srv);
  });
});
