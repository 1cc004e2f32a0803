import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'row-test-token';
let s: TestServer;

const card = (id: string, data: unknown, writeable = true) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, writeable: { fromWebapp: writeable } },
  data,
});

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s.close();
});

const api = (path: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(path, { token: T, ...init });

describe('rows of an array-rooted card', () => {
  beforeEach(async () => {
    await api('/api/manifests/w', { method: 'DELETE' });
    await api('/api/manifests', {
      json: card('w', [
        { date: '2026-04-18', kg: 80 },
        { date: '2026-04-19', kg: 80.5 },
        { date: '2026-04-20', kg: 81 },
      ]),
    });
  });

  it('appends, updates, removes and reads by row path', async () => {
    const a = await api('/api/manifests/w/rows', { json: { value: { date: '2026-04-21', kg: 82 } } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ ok: true, id: 'w', added: 1, totalAfter: 4 });

    const u = await api('/api/manifests/w/rows', {
      method: 'PATCH',
      json: { path: '[date="2026-04-20"]', changes: { kg: 81.2, note: 'after run' } },
    });
    expect(u.status).toBe(200);
    expect(u.body.after).toEqual({ date: '2026-04-20', kg: 81.2, note: 'after run' });

    const d = await api(`/api/manifests/w/rows?path=${encodeURIComponent('[date="2026-04-18"]')}`, {
      method: 'DELETE',
    });
    expect(d.body).toMatchObject({ removed: 1, totalAfter: 3, row: { date: '2026-04-18', kg: 80 } });

    const all = await api('/api/manifests/w/data');
    expect(all.body.data).toEqual([
      { date: '2026-04-19', kg: 80.5 },
      { date: '2026-04-20', kg: 81.2, note: 'after run' },
      { date: '2026-04-21', kg: 82 },
    ]);

    const win = await api('/api/manifests/w/rows?limit=2');
    expect(win.body).toEqual({
      rows: [
        { date: '2026-04-21', kg: 82 },
        { date: '2026-04-20', kg: 81.2, note: 'after run' },
      ],
      total: 3,
      truncated: true,
      window: { order: 'desc', offset: 0, limit: 2 },
    });
    const asc = await api('/api/manifests/w/rows?order=asc&limit=1&offset=1');
    expect(asc.body.rows).toEqual([{ date: '2026-04-20', kg: 81.2, note: 'after run' }]);
    const one = await api(`/api/manifests/w/rows?path=${encodeURIComponent('[index=-1]')}`);
    expect(one.body).toEqual({ row: { date: '2026-04-21', kg: 82 } });
  });

  it('reorders rows by key and refuses a mismatched order', async () => {
    const r = await api('/api/manifests/w/rows/reorder', {
      json: { key: 'date', order: ['2026-04-20', '2026-04-18', '2026-04-19'] },
    });
    expect(r.status).toBe(200);
    expect((await api('/api/manifests/w/data')).body.data.map((x: { date: string }) => x.date)).toEqual([
      '2026-04-20',
      '2026-04-18',
      '2026-04-19',
    ]);
    const bad = await api('/api/manifests/w/rows/reorder', { json: { key: 'date', order: ['2026-04-20'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('ORDER_MISMATCH');
  });

  it.each([
    ['BAD_PATH', 400, { path: '[date=2026-04-20]', changes: { kg: 1 } }],
    ['NO_MATCH', 404, { path: '[date="1999-01-01"]', changes: { kg: 1 } }],
    ['WRONG_TYPE', 422, { path: 'kg', changes: { kg: 1 } }],
  ])('%s answers %i with the code, path and id, and changes nothing', async (code, status, body) => {
    const before = (await api('/api/manifests/w/data')).text;
    const r = await api('/api/manifests/w/rows', { method: 'PATCH', json: body });
    expect(r.status).toBe(status);
    expect(r.body).toMatchObject({ code, path: body.path, id: 'w' });
    expect((await api('/api/manifests/w/data')).text).toBe(before);
  });

  it('AMBIGUOUS when a filter matches two rows', async () => {
    await api('/api/manifests/w/rows', { json: { value: { date: '2026-04-20', kg: 90 } } });
    const r = await api('/api/manifests/w/rows', {
      method: 'PATCH',
      json: { path: '[date="2026-04-20"]', changes: { kg: 1 } },
    });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('AMBIGUOUS');
  });
});

describe('rows nested in an object-rooted card', () => {
  it('addresses items[name="x"].doses', async () => {
    await api('/api/manifests', {
      json: card('meds', {
        items: [
          { name: 'Vitamin D', doses: [] },
          { name: 'Iron', doses: [] },
        ],
      }),
    });
    const a = await api('/api/manifests/meds/rows', {
      json: {
        path: 'items[name="Vitamin D"].doses',
        value: { scheduledDate: '2026-04-20', takenAt: '08:00' },
      },
    });
    expect(a.status).toBe(201);
    expect(a.body.totalAfter).toBe(1);
    const data = (await api('/api/manifests/meds/data')).body.data;
    expect(data.items[0].doses).toEqual([{ scheduledDate: '2026-04-20', takenAt: '08:00' }]);
    expect(data.items[1].doses).toEqual([]);
  });
});

describe('write gate and concurrency', () => {
  it('403 when meta.writeable.fromWebapp is not true, for whole-data and row writes', async () => {
    await api('/api/manifests', { json: card('ro', [], false) });
    expect((await api('/api/manifests/ro/data', { json: { data: [{ a: 1 }] } })).status).toBe(403);
    expect((await api('/api/manifests/ro/rows', { json: { value: { a: 1 } } })).status).toBe(403);
    expect((await api('/api/manifests/ro/data')).body.data).toEqual([]);
  });

  it('GET data gives an ETag; a stale If-Match is 412 and writes nothing', async () => {
    await api('/api/manifests', { json: card('e', [{ n: 1 }]) });
    const r1 = await api('/api/manifests/e/data');
    const etag = r1.headers.get('etag') as string;
    expect(etag).toMatch(/^"v\d+"$/);
    const ok = await api('/api/manifests/e/data', {
      json: { data: [{ n: 2 }] },
      headers: { 'if-match': etag },
    });
    expect(ok.status).toBe(200);
    const stale = await api('/api/manifests/e/data', {
      json: { data: [{ n: 3 }] },
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    expect((await api('/api/manifests/e/data')).body.data).toEqual([{ n: 2 }]);
    const staleRow = await api('/api/manifests/e/rows', {
      json: { value: { n: 4 } },
      headers: { 'if-match': etag },
    });
    expect(staleRow.status).toBe(412);
  });

  it('POST data: 400 for a string, date-keyed objects become rows', async () => {
    await api('/api/manifests', { json: card('mood', []) });
    const str = await api('/api/manifests/mood/data', { json: { data: '[]' } });
    expect(str.status).toBe(400);
    expect((await api('/api/manifests/mood/data', { json: 'just a string' })).status).toBe(400);
    await api('/api/manifests/mood/data', {
      json: { data: { '2026-04-21': { mood: 3 }, '2026-04-20': { mood: 4 } } },
    });
    expect((await api('/api/manifests/mood/data')).body.data).toEqual([
      { date: '2026-04-20', mood: 4 },
      { date: '2026-04-21', mood: 3 },
    ]);
  });

  it('a disabled card still accepts writes', async () => {
    await api('/api/manifests', { json: card('hidden', []) });
    await api('/api/settings/cards/hidden/disable', { method: 'POST' });
    expect((await api('/api/manifests/hidden/rows', { json: { value: { a: 1 } } })).status).toBe(201);
  });
});

describe('rows the card’s form would refuse', () => {
  it('are stored as written, and the 201 answer names what does not fit the form', async () => {
    const { readTemplate } = await import('../helpers/templates.js');
    const m = readTemplate('weight');
    m.meta.id = 'bw';
    m.data = [];
    await api('/api/manifests/bw', { method: 'DELETE' });
    expect((await api('/api/manifests', { json: m })).status).toBe(201);
    const write = (value: unknown) => api('/api/manifests/bw/rows', { json: { value } });

    const heavy = await write({ date: '2026-12-03', kg: 'heavy' });
    expect(heavy.status).toBe(201);
    expect(heavy.body.warnings).toEqual([{ path: 'value.kg', message: 'Weight (kg) must be a number' }]);
    const huge = await write({ date: '2026-12-03', kg: 1e308 });
    expect(huge.body.warnings).toEqual([{ path: 'value.kg', message: 'Weight (kg) must be at most 300' }]);
    const noDate = await write({ date: '', kg: 80 });
    expect(noDate.body.warnings).toEqual([
      { path: 'value.date', message: 'date must be a real date written YYYY-MM-DD (got "")' },
    ]);
    // written YYYY-MM-DD but naming no day: the warning does not claim the spelling is wrong
    const noDay = await write({ date: '2026-02-30', kg: 80 });
    expect(noDay.body.warnings).toEqual([
      { path: 'value.date', message: 'date must be a real date written YYYY-MM-DD (got "2026-02-30")' },
    ]);
    // a row that fits gets no warnings at all
    const fine = await write({ date: '2026-12-03', kg: 80.4 });
    expect(fine.status).toBe(201);
    expect(fine.body.warnings).toBeUndefined();
    // whatever was written is read back
    expect((await api('/api/manifests/bw/data')).body.data).toEqual([
      { date: '2026-12-03', kg: 'heavy' },
      { date: '2026-12-03', kg: 1e308 },
      { date: '', kg: 80 },
      { date: '2026-02-30', kg: 80 },
      { date: '2026-12-03', kg: 80.4 },
    ]);
  });
});
