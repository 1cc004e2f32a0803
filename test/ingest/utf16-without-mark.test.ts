/**
 * A UTF-16 body without its byte order mark: .NET's `Encoding.Unicode.GetBytes` of a CSV or a
 * JSON export posted by a script, with or without `charset=utf-16le` in its Content-Type. Its
 * rows are read as the text it holds, as with the mark; before, it was kept aside as not valid
 * JSON, the warning showing the text with a zero byte between its letters.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function post(s: IngestServer, body: Buffer, contentType: string) {
  return s.api('/api/health-auto-export', {
    method: 'POST',
    body,
    token: s.haeToken,
    headers: { 'content-type': contentType },
  });
}

const CSV = 'Date/Time\tStep Count (count)\r\n2026-04-01 00:00:00\t8600\r\n';
const JSON_EXPORT = JSON.stringify({
  data: {
    metrics: [
      { name: 'step_count', units: 'count', data: [{ date: '2026-04-02 00:00:00 +0000', qty: 7100 }] },
    ],
  },
});

describe('a UTF-16 body without a byte order mark', () => {
  it('a tab-separated CSV (little-endian) and a JSON export (big-endian), no charset declared', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const csv = await post(srv, Buffer.from(CSV, 'utf16le'), 'text/csv');
    expect(csv.status, csv.text).toBe(200);
    expect(csv.body.ok, csv.text).toBe(true);
    expect(csv.body.samples).toEqual({ received: 1, new: 1 });
    const json = await post(srv, Buffer.from(JSON_EXPORT, 'utf16le').swap16(), 'application/json');
    expect(json.status, json.text).toBe(200);
    expect(json.body.ok, json.text).toBe(true);
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-04-01', count: 8600 },
      { date: '2026-04-02', count: 7100 },
    ]);
  });

  it('a charset=utf-16le declared beside it; the same charset over UTF-8 bytes is read as UTF-8', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const declared = await post(
      srv,
      Buffer.from(JSON_EXPORT, 'utf16le'),
      'application/json; charset=utf-16le',
    );
    expect(declared.body.ok, declared.text).toBe(true);
    const wrong = JSON_EXPORT.replace('2026-04-02', '2026-04-03');
    const misdeclared = await post(srv, Buffer.from(wrong, 'utf8'), 'application/json; charset=utf-16');
    expect(misdeclared.body.ok, misdeclared.text).toBe(true);
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-04-02', count: 7100 },
      { date: '2026-04-03', count: 7100 },
    ]);
  });
});
