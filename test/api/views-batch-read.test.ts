/**
 * `GET /api/views/:view?data=1`, the dashboard's batch read (issue 5 "Speed"; docs/API.md
 * "Views"): the same card list as without `data`, each card carrying exactly what
 * `GET /api/manifests/:id/data` answers (`data`, and its ETag as `etag`), also for a card with no
 * rows yet; a bad `data` value is 400 naming it; an unknown view stays 404.
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
    expect(bad.body.details).toEqual([{ path: 'query.data', message: 'must be 0 or 1' }]);
    const unknown = await s.api('/api/views/nope?data=1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('UNKNOWN_VIEW');
  });
});
