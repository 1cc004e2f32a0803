/**
 * GET /api/export and GET /api/manifests/:id/export.csv on the real server:
 * - the zip lists every file in its last entry, klebb-export.json, with the right size, sha256
 *   and row counts, and holds writes still sitting in the WAL (taken by online backup);
 * - a second export while one streams is 409 EXPORT_RUNNING, and the first one still completes;
 *   an abandoned download frees the lock and leaves no snapshot file;
 * - the CSV has one column per field, units in the header, ISO dates, RFC 4180 quoting and no
 *   cell a spreadsheet would run as a formula; its bytes start with the UTF-8 byte order mark, so
 *   Excel reads accents and the micro sign as written instead of guessing a legacy code page.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readZip } from '../helpers/zip.js';

const T = 'export-test-token';
let s: TestServer;
const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

const bp = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'bp',
    label: 'Blood pressure',
    view: { enabled: true, component: 'generic-card', display: { primary: 'latest.systolic', unit: 'mmHg' } },
    trends: { enabled: true, series: [{ field: 'systolic' }, { field: 'diastolic' }], yAxisLabel: 'mmHg' },
    writeable: { fromWebapp: true },
  },
  data: [
    { date: '2026-04-01', time: '08:00', systolic: 121, diastolic: 79, note: 'after coffee, "strong"' },
    { date: '2026-04-02', systolic: 118, diastolic: 77, note: '=HYPERLINK("x")' },
  ],
};

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  expect((await api('/api/manifests', { json: bp })).status).toBe(201);
  const big = Array.from({ length: 60_000 }, (_, i) => ({ date: '2026-01-01', n: i, pad: 'x'.repeat(40) }));
  expect(
    (
      await api('/api/manifests', {
        json: { $schema: 'klebb.datafile.v1', meta: { id: 'big', label: 'Big' }, data: big },
      })
    ).status,
  ).toBe(201);
});
afterAll(async () => {
  await s.close();
});

async function download(): Promise<{ res: Response; buf: Buffer }> {
  const res = await fetch(`${s.url}/api/export`, { headers: { authorization: `Bearer ${T}` } });
  return { res, buf: Buffer.from(await res.arrayBuffer()) };
}

describe('GET /api/export', () => {
  it('streams a zip whose last entry lists every file with its size, sha256 and rows', async () => {
    // a write just before: still in the WAL, not in the main file
    await api('/api/manifests/bp/rows', {
      json: { value: { date: '2026-04-03', systolic: 125, diastolic: 81 } },
    });
    const { res, buf } = await download();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="klebb-export-\d{8}-\d{6}\.zip"/,
    );
    const entries = await readZip(buf);
    expect(entries.at(-1)?.name).toBe('klebb-export.json');
    const manifest = JSON.parse((entries.at(-1)?.data ?? Buffer.alloc(0)).toString('utf8'));
    expect(manifest).toMatchObject({ format: 'klebb.export.v1', formatVersion: 1 });
    const byName = new Map(entries.map((e) => [e.name, e.data]));
    expect(manifest.inventory.files.map((f: { file: string }) => f.file).sort()).toEqual(
      entries
        .slice(0, -1)
        .map((e) => e.name)
        .sort(),
    );
    for (const f of manifest.inventory.files) {
      const data = byName.get(f.file) ?? Buffer.alloc(0);
      expect(data.length, f.file).toBe(f.bytes);
      expect(createHash('sha256').update(data).digest('hex'), f.file).toBe(f.sha256);
      if (f.rows !== undefined) expect(data.toString('utf8').split('\n').length - 1, f.file).toBe(f.rows);
    }
    const bpCard = manifest.inventory.cards.find((c: { id: string }) => c.id === 'bp');
    expect(bpCard).toEqual({
      id: 'bp',
      file: 'cards/bp.json',
      data: 'rows',
      dataFile: 'cards/bp.rows.jsonl',
      rows: 3,
    });
    const rows = String(byName.get('cards/bp.rows.jsonl'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.at(-1)).toEqual({ date: '2026-04-03', systolic: 125, diastolic: 81 });
    // the manifest travels byte for byte as it lies in the data folder
    expect(byName.get('cards/bp.json')).toEqual(fs.readFileSync(path.join(s.dataDir, 'bp.json')));
    // nothing secret, and the snapshot file is gone
    expect(entries.some((e) => /credentials|sessions|config\.json|user\.json/.test(e.name))).toBe(false);
    expect(fs.readdirSync(path.join(s.home, 'tmp'))).toEqual([]);
  });

  it('runs one export at a time: a second one while the first streams is 409', async () => {
    const first = await fetch(`${s.url}/api/export`, { headers: { authorization: `Bearer ${T}` } });
    expect(first.status).toBe(200);
    const second = await api('/api/export');
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('EXPORT_RUNNING');
    const entries = await readZip(Buffer.from(await first.arrayBuffer()));
    expect(entries.at(-1)?.name).toBe('klebb-export.json');
    // finished: the next one runs
    await new Promise((r) => setTimeout(r, 50));
    expect((await download()).res.status).toBe(200);
  });
});

describe('an abandoned download', () => {
  it('frees the one-at-a-time lock and removes its snapshot', async () => {
    const ctl = new AbortController();
    const res = await fetch(`${s.url}/api/export`, {
      headers: { authorization: `Bearer ${T}` },
      signal: ctl.signal,
    });
    expect(res.status).toBe(200);
    await res.body?.getReader().read();
    ctl.abort();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const again = await fetch(`${s.url}/api/export`, { headers: { authorization: `Bearer ${T}` } });
      status = again.status;
      await again.arrayBuffer();
    }
    expect(status).toBe(200);
    expect(fs.readdirSync(path.join(s.home, 'tmp'))).toEqual([]);
  });
});

describe('GET /api/manifests/:id/export.csv', () => {
  it('writes one column per field with units in the header, ISO dates and safe cells', async () => {
    const res = await api('/api/manifests/bp/export.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('filename="bp.csv"');
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe('date,time,systolic (mmHg),diastolic (mmHg),note');
    expect(lines[1]).toBe('2026-04-01,08:00,121,79,"after coffee, ""strong"""');
    expect(lines[2]).toBe(`2026-04-02,,118,77,"'=HYPERLINK(""x"")"`);
    expect(lines[3]).toBe('2026-04-03,,125,81,');
    expect(lines[4]).toBe('');
  });

  it('a formula after leading spaces or in full-width characters is made text too', async () => {
    const card = {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'formulas', label: 'Formulas', writeable: { fromWebapp: true } },
      data: [
        { date: '2026-04-05', note: '  =1+1' },
        { date: '2026-04-06', note: '\uFF1DHYPERLINK("x")' },
        { date: '2026-04-07', note: '\u3000\uFF20SUM(A1)' },
        { date: '2026-04-08', note: 'fine = text' },
      ],
    };
    expect((await api('/api/manifests', { json: card })).status).toBe(201);
    const res = await api('/api/manifests/formulas/export.csv');
    expect(res.text.split('\r\n')).toEqual([
      'date,note',
      "2026-04-05,'  =1+1",
      '2026-04-06,"\'\uFF1DHYPERLINK(""x"")"',
      "2026-04-07,'\u3000\uFF20SUM(A1)",
      '2026-04-08,fine = text',
      '',
    ]);
  });

  it('starts with the UTF-8 byte order mark so a spreadsheet keeps accents and units intact', async () => {
    const card = {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'nausea', label: 'Übelkeit', writeable: { fromWebapp: true } },
      data: [{ date: '2026-04-05', note: 'Übelkeit nach 5 µg' }],
    };
    expect((await api('/api/manifests', { json: card })).status).toBe(201);
    const res = await fetch(`${s.url}/api/manifests/nausea/export.csv`, {
      headers: { authorization: `Bearer ${T}` },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe('date,note\r\n2026-04-05,Übelkeit nach 5 µg\r\n');
  });

  it('writes ; between fields and 85,3 for a reader whose language uses a decimal comma', async () => {
    const card = {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'gewicht', label: 'Gewicht', writeable: { fromWebapp: true } },
      data: [
        { date: '2026-04-05', kg: 85.3, note: 'nach Sport; müde' },
        { date: '2026-04-06', kg: -0.5, note: 'a, b' },
      ],
    };
    expect((await api('/api/manifests', { json: card })).status).toBe(201);
    const de = await api('/api/manifests/gewicht/export.csv?locale=de-DE');
    expect(de.status).toBe(200);
    expect(de.text.split('\r\n')).toEqual([
      'date;kg;note',
      '2026-04-05;85,3;"nach Sport; müde"',
      '2026-04-06;-0,5;"a, b"',
      '',
    ]);
    const en = await api('/api/manifests/gewicht/export.csv?locale=en-GB');
    expect(en.text.split('\r\n')[1]).toBe('2026-04-05,85.3,"nach Sport; müde"');
    const bad = await api('/api/manifests/gewicht/export.csv?locale=not_a_tag!');
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('query.locale');
  });

  it('a reading written as text in a field of numbers ("72.4") is a number in the file too', async () => {
    // a hand-edited file or a script can leave a number as text; a German Excel reads the text
    // "1.5" as the 1st of May and a text "-1.5" made safe with an apostrophe as text: in a field
    // of numbers (a number input, or numbers in other readings) it is written as the number is
    const card = {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'textnums',
        label: 'Text numbers',
        writeable: {
          fromWebapp: true,
          inputs: [
            { key: 'kg', type: 'number' },
            { key: 'note', type: 'text' },
          ],
        },
      },
      data: [
        { date: '2026-04-05', kg: 85.3, fat: 21.5, note: '-5 after the run', code: '1.5' },
        { date: '2026-04-06', kg: '1.5', fat: ' -0.25 ', note: '=1+1', code: '2.5' },
        { date: '2026-04-07', kg: ' -72.40 ', fat: 'n/a', note: '-1.5', code: '+3' },
        { date: '2026-04-08', kg: '+70.5', note: '+70.5' },
      ],
    };
    expect((await api('/api/manifests', { json: card })).status).toBe(201);
    const de = await api('/api/manifests/textnums/export.csv?locale=de-DE');
    expect(de.text.split('\r\n')).toEqual([
      'date;kg;note;fat;code',
      "2026-04-05;85,3;'-5 after the run;21,5;1.5",
      "2026-04-06;1,5;'=1+1;-0,25;2.5",
      "2026-04-07;-72,40;'-1.5;n/a;'+3",
      "2026-04-08;70,5;'+70.5;;",
      '',
    ]);
    const en = await api('/api/manifests/textnums/export.csv');
    expect(en.text.split('\r\n').slice(1, 4)).toEqual([
      "2026-04-05,85.3,'-5 after the run,21.5,1.5",
      "2026-04-06,1.5,'=1+1,-0.25,2.5",
      "2026-04-07,-72.40,'-1.5,n/a,'+3",
    ]);
  });

  it("a card without rows gets its form's columns as the header; rows get the form's columns in its order", async () => {
    const card = (data: unknown[]) => ({
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'fresh',
        label: 'Fresh',
        writeable: {
          fromWebapp: true,
          inputs: [
            { key: 'date', type: 'date' },
            { key: 'kg', type: 'number', unit: 'kg' },
            { key: 'fat', type: 'number', unit: '%' },
            { key: 'note', type: 'text' },
          ],
        },
      },
      data,
    });
    expect((await api('/api/manifests', { json: card([]) })).status).toBe(201);
    expect((await api('/api/manifests/fresh/export.csv')).text.split('\r\n')).toEqual([
      'date,kg,fat (%),note',
      '',
    ]);
    // a row without fat, with a key no input declares
    const w = await api('/api/manifests/fresh/rows', {
      json: { value: { note: 'x', date: '2026-04-05', kg: 80, src: 'scale' } },
    });
    expect(w.status, w.text).toBe(201);
    expect((await api('/api/manifests/fresh/export.csv')).text.split('\r\n')).toEqual([
      'date,kg,fat (%),note,src',
      '2026-04-05,80,,x,scale',
      '',
    ]);
  });

  it('is 404 for a card that does not exist', async () => {
    const res = await api('/api/manifests/nope/export.csv');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('CARD_NOT_FOUND');
  });
});
