/**
 * Changing a card's settings (PATCH /api/manifests/:id) honours If-Match: two devices that read
 * the card and each change it do not silently overwrite each other. The card's ETag (from
 * GET /api/manifests/:id) changes with its file as well as its rows; the second, stale patch is
 * 412 and the file keeps the first device's change. A malformed tag is 400, nothing written; no
 * If-Match or `*` patch as before; the card's tag still works for a write of its rows. Real
 * server, real SQLite, the card file on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeWeightCard } from '../helpers/weight-card.js';

const T = 'patch-card-if-match-token';
let s: TestServer;

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

async function makeCard(id: string): Promise<void> {
  await makeWeightCard(s, T, id);
}

const tagOf = async (id: string) => (await api(`/api/manifests/${id}`)).headers.get('etag') as string;
const labelOnDisk = (id: string) =>
  JSON.parse(fs.readFileSync(path.join(s.dataDir, `${id}.json`), 'utf8')).meta.label;

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s.close();
});

describe('PATCH /api/manifests/:id with If-Match', () => {
  it('refuses the second of two patches decided on the same read, keeping the first', async () => {
    await makeCard('p1');
    const phone = await tagOf('p1');
    const laptop = await tagOf('p1');
    expect(laptop).toBe(phone);

    const first = await api('/api/manifests/p1', {
      method: 'PATCH',
      json: { meta: { label: 'Body weight' } },
      headers: { 'if-match': phone },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.changed).toBe(true);
    expect(first.headers.get('etag')).toBe(first.body.etag);
    expect(first.body.etag).not.toBe(phone);

    const second = await api('/api/manifests/p1', {
      method: 'PATCH',
      json: { meta: { label: 'Weight (kg)' } },
      headers: { 'if-match': laptop },
    });
    expect(second.status, second.text).toBe(412);
    expect(second.body.code).toBe('PRECONDITION_FAILED');
    expect(labelOnDisk('p1')).toBe('Body weight');
    expect((await api('/api/manifests/p1')).body.meta.label).toBe('Body weight');

    // read again, then the patch goes through
    const again = await api('/api/manifests/p1', {
      method: 'PATCH',
      json: { meta: { label: 'Weight (kg)' } },
      headers: { 'if-match': await tagOf('p1') },
    });
    expect(again.status, again.text).toBe(200);
    expect(labelOnDisk('p1')).toBe('Weight (kg)');
  });

  it('refuses a patch decided before a row was added since, and the file stays', async () => {
    await makeCard('p2');
    const read = await tagOf('p2');
    const add = await api('/api/manifests/p2/rows', { json: { value: { date: '2026-04-02', kg: 79 } } });
    expect(add.status, add.text).toBe(201);
    const patch = await api('/api/manifests/p2', {
      method: 'PATCH',
      json: { meta: { label: 'Renamed' } },
      headers: { 'if-match': read },
    });
    expect(patch.status, patch.text).toBe(412);
    expect(labelOnDisk('p2')).toBe('Weight p2');
  });

  it('is 400 naming headers.if-match for a tag this server never gave, nothing written', async () => {
    await makeCard('p3');
    for (const bad of ['v1', '"x"', ',']) {
      const r = await api('/api/manifests/p3', {
        method: 'PATCH',
        json: { meta: { label: 'Bad' } },
        headers: { 'if-match': bad },
      });
      expect(r.status, `${bad}: ${r.text}`).toBe(400);
      expect(r.body.code).toBe('BAD_IF_MATCH');
      expect(r.body.details.map((d: { path: string }) => d.path)).toEqual(['headers.if-match']);
    }
    expect(labelOnDisk('p3')).toBe('Weight p3');
  });

  it('patches without If-Match and with *, as before', async () => {
    await makeCard('p4');
    for (const [label, headers] of [
      ['One', {}],
      ['Two', { 'if-match': '*' }],
    ] as const) {
      const r = await api('/api/manifests/p4', { method: 'PATCH', json: { meta: { label } }, headers });
      expect(r.status, r.text).toBe(200);
      expect(labelOnDisk('p4')).toBe(label);
    }
  });

  it("takes the card's tag for a write of its rows and for its deletion after a patch", async () => {
    await makeCard('p5');
    const patched = await api('/api/manifests/p5', { method: 'PATCH', json: { meta: { label: 'New' } } });
    expect(patched.status, patched.text).toBe(200);
    const tag = await tagOf('p5');
    const add = await api('/api/manifests/p5/rows', {
      json: { value: { date: '2026-04-03', kg: 78 } },
      headers: { 'if-match': tag },
    });
    expect(add.status, add.text).toBe(201);
    // the rows' own tag from that write holds for the next one, as always
    const edit = await api('/api/manifests/p5/rows', {
      method: 'PATCH',
      json: { path: '[date="2026-04-03"]', changes: { kg: 77.5 } },
      headers: { 'if-match': add.body.etag },
    });
    expect(edit.status, edit.text).toBe(200);
    const del = await api('/api/manifests/p5', {
      method: 'DELETE',
      headers: { 'if-match': await tagOf('p5') },
    });
    expect(del.status, del.text).toBe(200);
  });
});
