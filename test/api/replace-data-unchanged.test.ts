/**
 * Writing a card's data as it already stands (POST /data with the block just read, the web app's
 * edit form saved without a change) writes nothing: the ETag stays and History gets no entry
 * whose undo would do nothing. A different block still writes and is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  for (const [id, data] of [
    [
      'w',
      [
        { date: '2026-04-20', kg: 80 },
        { date: '2026-04-21', kg: 81 },
      ],
    ],
    ['o', { items: [{ name: 'D', dose: 1 }] }],
  ] as const) {
    await s.api('/api/manifests', {
      json: { $schema: 'klebb.datafile.v1', meta: { id, label: id, writeable: { fromWebapp: true } }, data },
    });
  }
});
afterAll(async () => {
  await s.close();
});

const latestChange = async () => (await s.api('/api/changes?limit=1')).body.changeSets[0]?.id;

describe('writing what a card already holds', () => {
  it('POST /data with the same block, list or object: same ETag, no History entry', async () => {
    for (const id of ['w', 'o']) {
      const read = await s.api(`/api/manifests/${id}/data`);
      const etag = read.headers.get('etag');
      const before = await latestChange();
      const r = await s.api(`/api/manifests/${id}/data`, {
        json: { data: read.body.data },
        headers: { 'if-match': etag ?? '' },
      });
      expect(r.status, id).toBe(200);
      expect(r.body.etag, id).toBe(etag);
      expect(await latestChange(), id).toBe(before);
    }
  });

  it('an entry saved unchanged (PUT /entries/:index): same ETag, no History entry', async () => {
    const etag = (await s.api('/api/manifests/w/data')).headers.get('etag');
    const before = await latestChange();
    const r = await s.api('/api/manifests/w/entries/1', {
      method: 'PUT',
      json: { entry: { date: '2026-04-21', kg: 81 } },
    });
    expect(r.status).toBe(200);
    expect(r.body.etag).toBe(etag);
    expect(await latestChange()).toBe(before);
  });

  it('a different block still writes, and its undo brings the old one back', async () => {
    const before = await latestChange();
    const r = await s.api('/api/manifests/w/data', { json: { data: [{ date: '2026-04-20', kg: 79 }] } });
    expect(r.status).toBe(200);
    const id = await latestChange();
    expect(id).toBeGreaterThan(before);
    expect((await s.api(`/api/changes/${id}/undo`, { method: 'POST' })).status).toBe(200);
    expect((await s.api('/api/manifests/w/data')).body.data).toHaveLength(2);
  });
});
