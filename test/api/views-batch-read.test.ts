/**
 * `GET /api/views/:view?data=1`, the dashboard's batch read (docs/API.md
 * "Views"): the same card list as without `data`, each card carrying exactly what
 * `GET /api/manifests/:id/data` answers (`data`, and its ETag as `etag`), also for a card with no
 * rows yet; a bad `data` value is 400 naming it; an unknown view stays 404.
 * `?data=recent`: a generic card of more than 120 dated rows in day order gets its last 120 with
 * `dataFrom`/`rowCount` (row i is row dataFrom + i of the whole block, so an entry write by index
 * from it hits the right row); fewer rows, rows out of day order, undated rows, another renderer:
 * the whole block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const card = (id: string, order: number) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label: id,
    order,
    view: { enabled: true, component: 'generic-card' },
    writeable: { fromWebapp: true },
  },
});

describe('GET /api/views/:view?data=1', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
    for (const [i, id] of ['weight', 'notes', 'empty'].entries()) {
      expect((await s.api('/api/manifests', { json: card(id, (i + 1) * 100) })).status).toBe(201);
    }
    await s.api('/api/manifests/weight/data', {
      json: {
        data: [
          { date: '2026-04-19', kg: 85.1 },
          { date: '2026-04-20', kg: 85.5, note: 'héllo "quoted" 😀' },
        ],
      },
    });
    await s.api('/api/manifests/notes/data', { json: { data: { markdown: '# Hi' } } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it("adds each card's data and ETag, as the data route gives them", async () => {
    const plain = await s.api('/api/views/view');
    const batch = await s.api('/api/views/view?data=1');
    expect(batch.status).toBe(200);
    expect(batch.headers.get('content-type')).toMatch(/^application\/json/);
    const ids = batch.body.cards.map((c: { id: string }) => c.id);
    expect(ids).toEqual(plain.body.cards.map((c: { id: string }) => c.id));
    expect(ids).toEqual(expect.arrayContaining(['weight', 'notes', 'empty']));
    expect(batch.body.errors).toEqual(plain.body.errors);
    for (const c of batch.body.cards) {
      const one = await s.api(`/api/manifests/${c.id}/data`);
      expect(c.data, c.id).toEqual(one.body.data);
      expect(c.etag, c.id).toBe(one.headers.get('etag'));
      const p = plain.body.cards.find((x: { id: string }) => x.id === c.id);
      expect({ id: c.id, meta: c.meta, viewConfig: c.viewConfig }).toEqual(p);
    }
    expect(batch.body.cards.find((c: { id: string }) => c.id === 'empty').data).toEqual([]);
    expect(batch.body.cards.find((c: { id: string }) => c.id === 'weight').data[1].note).toBe(
      'héllo "quoted" 😀',
    );
    expect(plain.body.cards[0]).not.toHaveProperty('data');
    expect((await s.api('/api/views/view?data=0')).body).toEqual(plain.body);
  });

  it('answers fresh data after every kind of write (the kept JSON follows the data version)', async () => {
    const weightOf = async () =>
      (await s.api('/api/views/view?data=1')).body.cards.find((c: { id: string }) => c.id === 'weight');
    const before = await weightOf();
    expect(
      (await s.api('/api/manifests/weight/rows', { json: { value: { date: '2026-04-21', kg: 85.2 } } }))
        .status,
    ).toBe(201);
    const appended = await weightOf();
    expect(appended.data).toHaveLength(before.data.length + 1);
    expect(appended.etag).not.toBe(before.etag);
    expect(
      (
        await s.api('/api/manifests/weight/rows', {
          method: 'PATCH',
          json: { path: '[index=0]', changes: { kg: 99 } },
        })
      ).status,
    ).toBe(200);
    expect((await weightOf()).data[0].kg).toBe(99);
    await s.api('/api/manifests/weight/data', { json: { data: [] } });
    expect((await weightOf()).data).toEqual([]);
    const one = await s.api('/api/manifests/weight/data');
    expect((await weightOf()).etag).toBe(one.headers.get('etag'));
  });

  it('refuses a bad data value and keeps unknown views 404', async () => {
    const bad = await s.api('/api/views/view?data=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'query.data', message: 'must be 0, 1 or recent' }]);
    const unknown = await s.api('/api/views/nope?data=1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('UNKNOWN_VIEW');
  });
});

describe('GET /api/views/:view?data=recent', () => {
  let s: TestServer;
  const day = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ date: day(i), kg: 70 + i / 10 }));
  const withComponent = (id: string, component: string, extra: Record<string, unknown> = {}) => {
    const c = card(id, 100);
    c.meta.view = { enabled: true, component, ...extra } as typeof c.meta.view;
    return c;
  };
  beforeAll(async () => {
    s = await startServer();
    const cards: [string, unknown, unknown[]][] = [
      ['long', card('long', 100), rows(300)],
      ['short', card('short', 200), rows(120)],
      ['shuffled', card('shuffled', 300), [...rows(200).slice(100), ...rows(200).slice(0, 100)]],
      ['undated', card('undated', 400), [...rows(199), { kg: 1 }]],
      ['chart', withComponent('chart', 'line-chart'), rows(300)],
      [
        'stamped',
        withComponent('stamped', 'generic-card', { dateField: 'at' }),
        rows(200).map((r) => ({ at: `${r.date}T08:00:00+02:00`, kg: r.kg })),
      ],
    ];
    for (const [id, manifest, data] of cards) {
      expect((await s.api('/api/manifests', { json: manifest })).status).toBe(201);
      expect((await s.api(`/api/manifests/${id}/data`, { json: { data } })).status).toBeLessThan(300);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  const cardsOf = async () => {
    const r = await s.api('/api/views/view?data=recent');
    expect(r.status).toBe(200);
    return new Map<string, Record<string, unknown>>(r.body.cards.map((c: { id: string }) => [c.id, c]));
  };

  it('sends a long generic card its last 120 rows with dataFrom and rowCount, the rest whole', async () => {
    const cards = await cardsOf();
    const long = cards.get('long') as { data: unknown[]; dataFrom: number; rowCount: number; etag: string };
    const whole = await s.api('/api/manifests/long/data');
    expect(long.rowCount).toBe(300);
    expect(long.dataFrom).toBe(180);
    expect(long.data).toEqual(whole.body.data.slice(180));
    expect(long.etag).toBe(whole.headers.get('etag'));
    const stamped = cards.get('stamped') as { data: unknown[]; dataFrom: number };
    expect(stamped.dataFrom).toBe(80);
    expect(stamped.data).toHaveLength(120);
    for (const id of ['short', 'shuffled', 'undated', 'chart']) {
      const c = cards.get(id) as Record<string, unknown>;
      expect(c.data, id).toEqual((await s.api(`/api/manifests/${id}/data`)).body.data);
      expect(c, id).not.toHaveProperty('dataFrom');
      expect(c, id).not.toHaveProperty('rowCount');
    }
  });

  it('follows writes, and an entry edit by the index it implies changes the right row', async () => {
    const before = (await cardsOf()).get('long') as {
      data: { date: string; kg: number }[];
      dataFrom: number;
      etag: string;
    };
    const i = 5;
    const put = await s.api(`/api/manifests/long/entries/${before.dataFrom + i}`, {
      method: 'PUT',
      headers: { 'if-match': before.etag },
      json: { entry: { date: before.data[i].date, kg: 55 }, expect: before.data[i] },
    });
    expect(put.status, put.text).toBe(200);
    const whole = (await s.api('/api/manifests/long/data')).body.data;
    expect(whole[before.dataFrom + i]).toEqual({ date: before.data[i].date, kg: 55 });
    const after = (await cardsOf()).get('long') as { data: { kg: number }[]; etag: string };
    expect(after.data[i].kg).toBe(55);
    expect(after.etag).not.toBe(before.etag);
    // a row out of day order at the end (a whole block written so; an appended row would go to
    // its day's place): the card goes back to its whole block
    const put2 = await s.api('/api/manifests/long/data', {
      json: { data: [...whole, { date: day(3), kg: 60 }] },
    });
    expect(put2.status, put2.text).toBe(200);
    const mixed = (await cardsOf()).get('long') as Record<string, unknown>;
    expect(mixed).not.toHaveProperty('dataFrom');
    expect(mixed.data).toHaveLength(301);
  });
});
