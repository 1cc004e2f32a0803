/**
 * A body written as UTF-16 text: a Health Auto Export CSV opened in Excel and saved as "Unicode
 * Text" (UTF-16 little-endian with a byte order mark, columns apart by tabs), or a JSON export
 * saved by Windows PowerShell 5.1's `>` or Out-File (UTF-16 with a byte order mark) and posted
 * with Invoke-RestMethod -InFile. Each is read as the same text written in UTF-8 would be.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function post(s: IngestServer, body: Buffer, type?: string) {
  return s.api('/api/health-auto-export', {
    method: 'POST',
    body,
    token: s.haeToken,
    headers: type ? { 'content-type': type } : {},
  });
}

/** `text` as UTF-16 with a byte order mark, little- or big-endian. */
function utf16(text: string, order: 'le' | 'be' = 'le'): Buffer {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return order === 'le' ? le : le.swap16();
}

const UNICODE_TEXT = [
  'Date/Time\tStep Count (count)\tWeight & Body Mass (lb)',
  '5/1/2026 0:00\t8600\t',
  '5/2/2026 0:00\t7100\t158.4',
  '5/13/2026 0:00\t9900\t',
  '',
].join('\r\n');

const JSON_EXPORT = JSON.stringify({
  data: {
    metrics: [
      {
        name: 'step_count',
        units: 'count',
        data: [{ date: '2026-05-01 00:00:00 +0000', qty: 8600, source: 'iPhone' }],
      },
    ],
  },
});

describe('a body written as UTF-16 text', () => {
  for (const type of ['text/plain', 'text/tab-separated-values', undefined]) {
    it(`Excel's Unicode Text of the app's CSV is read (Content-Type ${type ?? 'none'})`, async () => {
      srv = await startIngestServer({
        cards: [
          ['steps', 'step_count'],
          ['weight', 'weight_body_mass'],
        ],
      });
      const r = await post(srv, utf16(UNICODE_TEXT), type);
      expect(r.status, r.text).toBe(200);
      expect(r.body.ok, r.text).toBe(true);
      expect(r.body.warnings ?? []).toEqual([]);
      expect(r.body.samples).toEqual({ received: 4, new: 4 });
      expect(await srv.rows('steps')).toEqual([
        { date: '2026-05-01', count: 8600 },
        { date: '2026-05-02', count: 7100 },
        { date: '2026-05-13', count: 9900 },
      ]);
      expect((await srv.rows('weight')).map((w) => w.date)).toEqual(['2026-05-02']);
    });
  }

  it('Excel’s Unicode Text sent as the file of a form (curl -F file=@…) is read', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const boundary = '------------------------d74496d66958873e';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Steps.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      utf16(UNICODE_TEXT),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await post(srv, body, `multipart/form-data; boundary=${boundary}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok, r.text).toBe(true);
    expect(r.body.warnings ?? []).toEqual([]);
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-05-01', count: 8600 },
      { date: '2026-05-02', count: 7100 },
      { date: '2026-05-13', count: 9900 },
    ]);
  });

  it('a JSON export saved by Windows PowerShell, little- or big-endian, is read', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const le = await post(srv, utf16(JSON_EXPORT), 'application/json');
    expect(le.status, le.text).toBe(200);
    expect(le.body.ok, le.text).toBe(true);
    expect(le.body.samples).toEqual({ received: 1, new: 1 });
    const be = await post(srv, utf16(JSON_EXPORT, 'be'), 'application/json');
    expect(be.body.ok, be.text).toBe(true);
    expect(be.body.samples).toEqual({ received: 1, new: 0 });
    expect(await srv.rows('steps')).toEqual([{ date: '2026-05-01', count: 8600 }]);
  });

  it('a JSON export over the 4 MB read whole, saved by PowerShell, is read as it streams', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    // nineteen days of minute steps (the midnight minute left out, so no point reads as a total)
    const data: Record<string, unknown>[] = [];
    for (let day = 1; day <= 19; day++) {
      for (let minute = 1; minute < 1440; minute++) {
        const hh = String(Math.floor(minute / 60)).padStart(2, '0');
        const mm = String(minute % 60).padStart(2, '0');
        const date = `2026-05-${String(day).padStart(2, '0')} ${hh}:${mm}:00 +0000`;
        data.push({ date, qty: 10, source: 'Lena’s Apple Watch' });
      }
    }
    const json = JSON.stringify({ data: { metrics: [{ name: 'step_count', units: 'count', data }] } });
    const body = utf16(json);
    expect(body.length).toBeGreaterThan(4_000_000);
    const r = await post(srv, body, 'application/json');
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok, r.text).toBe(true);
    expect(r.body.samples).toEqual({ received: data.length, new: data.length });
    const rows = (await srv.rows('steps')) as { count: number }[];
    expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(data.length * 10);
  });

  it('UTF-16 text that is not the app’s file is kept aside with advice that names the tabs', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const r = await post(srv, utf16('Day\tSteps\r\n2026-05-01\t8600\r\n'), 'text/plain');
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok).toBe(false);
    expect(r.body.warning).toContain('It looks like tab-separated text');
    expect(await srv.rows('steps')).toEqual([]);
  });
});
