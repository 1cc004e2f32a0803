/**
 * An update that changes nothing (empty changes, or the values the row already holds) writes
 * nothing: the ETag stays, so another writer's If-Match still holds, and History gets no entry
 * "Changed 1 row" whose undo would do nothing. A real change still writes and is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  await s.api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'W', writeable: { fromWebapp: true } },
      data: [
        { date: '2026-04-20', kg: 80, note: 'a' },
        { date: '2026-04-21', kg: 81 },
      ],
    },
  });
  await s.api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'o', label: 'O', writeable: { fromWebapp: true } },
      data: { items: [{ name: 'D', dose: 1 }] },
    },
  });
});
afterAll(async () => {
  await s.close();
});

const latestChange = async () => (await s.api('/api/changes?limit=1')).body.changeSets[0]?.id;
const etagOf = async (id: string) => (await s.api(`/api/manifests/${id}/data`)).headers.get('etag');

describe('an update that changes nothing', () => {
  it('on a row of a dated card: same ETag, no History entry', async () => {
    const etag = await etagOf('w');
    const before = await latestChange();
    for (const changes of [{}, { kg: 80 }, { note: 'a', date: '2026-04-20' }]) {
      const r = await s.api('/api/manifests/w/rows', {
        method: 'PATCH',
        json: { path: '[date="2026-04-20"]', changes },
        headers: { 'if-match': etag ?? '' },
      });
      expect(r.status, JSON.stringify(changes)).toBe(200);
      expect(r.body.after).toEqual({ date: '2026-04-20', kg: 80, note: 'a' });
      expect(r.body.etag).toBe(etag);
    }
    expect(await etagOf('w')).toBe(etag);
    expect(await latestChange()).toBe(before);
  });

  it('inside an object-rooted card: same ETag, no History entry', async () => {
    const etag = await etagOf('o');
    const before = await latestChange();
    const r = await s.api('/api/manifests/o/rows', {
      method: 'PATCH',
      json: { path: 'items[name="D"]', changes: { dose: 1 } },
    });
    expect(r.status).toBe(200);
    expect(r.body.etag).toBe(etag);
    expect(await latestChange()).toBe(before);
  });

  it('a real change still writes and is recorded', async () => {
    const etag = await etagOf('w');
    const before = await latestChange();
    const r = await s.api('/api/manifests/w/rows', {
      method: 'PATCH',
      json: { path: '[date="2026-04-20"]', changes: { note: null } },
    });
    expect(r.body.after).toEqual({ date: '2026-04-20', kg: 80 });
    expect(r.body.etag).not.toBe(etag);
    expect(await latestChange()).toBeGreaterThan(before);
  });
});
