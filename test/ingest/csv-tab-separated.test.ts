/**
 * A Health Auto Export CSV opened in a spreadsheet and saved as tab-separated text (Excel's and
 * Google Sheets' "Tab-separated values", the file a copy of the cells pastes as) is read as the
 * CSV it was: its columns are apart by tabs instead of commas.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function post(s: IngestServer, body: string, type?: string) {
  return s.api('/api/health-auto-export', {
    method: 'POST',
    body,
    token: s.haeToken,
    headers: type ? { 'content-type': type } : {},
  });
}

const TSV = [
  'Date/Time\tStep Count (count)\tWeight & Body Mass (lb)',
  '2026-05-01 00:00:00\t8600\t',
  '2026-05-02 00:00:00\t7100\t158.4',
  '',
].join('\r\n');

describe('a Health Auto Export CSV saved as tab-separated text', () => {
  for (const type of ['text/tab-separated-values', 'text/csv', 'text/plain', undefined]) {
    it(`is read as its CSV is (Content-Type ${type ?? 'none'})`, async () => {
      srv = await startIngestServer({
        cards: [
          ['steps', 'step_count'],
          ['weight', 'weight_body_mass'],
        ],
      });
      const r = await post(srv, TSV, type);
      expect(r.status, r.text).toBe(200);
      expect(r.body.ok, r.text).toBe(true);
      expect(r.body.warnings ?? []).toEqual([]);
      expect(r.body.samples).toEqual({ received: 3, new: 3 });
      expect(await srv.rows('steps')).toEqual([
        { date: '2026-05-01', count: 8600 },
        { date: '2026-05-02', count: 7100 },
      ]);
      expect((await srv.rows('weight')).map((w) => w.date)).toEqual(['2026-05-02']);
    });
  }

  it('that is not the app’s file is kept aside with advice that names the tabs', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const r = await post(srv, 'Day\tSteps\n2026-05-01\t8600\n', 'text/tab-separated-values');
    expect(r.status, r.text).toBe(200);
    expect(r.body.ok).toBe(false);
    expect(r.body.warning).toContain('It looks like tab-separated text');
    expect(r.body.warning).not.toContain('It looks like CSV');
    expect(await srv.rows('steps')).toEqual([]);
  });
});
