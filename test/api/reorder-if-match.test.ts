/**
 * Reordering the cards (POST /api/manifests/reorder) honours If-Match over the order's own tag
 * (GET /api/settings/cards, header and body): two devices that read the list and each move a card
 * no longer have the second's whole list written over the first's move unseen. A stale tag is 412
 * and every file keeps its order; a malformed one is 400 naming headers.if-match; the current
 * tag, or none, reorders, and the answer carries the order's new tag. A change that leaves the
 * order as it was (a row) keeps the tag. Real server, real SQLite, card files on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'reorder-if-match-token';
let s: TestServer;

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const orderOnDisk = (id: string) =>
  JSON.parse(fs.readFileSync(path.join(s.dataDir, `${id}.json`), 'utf8')).meta.order;
const shown = async () => {
  const r = await api('/api/settings/cards');
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get('etag')).toBe(r.body.etag);
  const ids = (r.body.cards as { id: string }[]).map((c) => c.id).filter((id) => id !== 'welcome');
  return { ids, etag: r.body.etag as string };
};

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  for (const id of ['mood', 'sleep', 'water']) {
    const r = await api('/api/manifests', {
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id, label: id, writeable: { fromWebapp: true, pastAllowed: true } },
        data: [],
      },
    });
    expect(r.status, r.text).toBe(201);
  }
  const first = await api('/api/manifests/reorder', { json: { order: ['mood', 'sleep', 'water'] } });
  expect(first.status, first.text).toBe(200);
});
afterAll(async () => {
  await s.close();
});

describe('reorder with If-Match', () => {
  it('refuses a list decided on an order another device changed since', async () => {
    const read = await shown(); // both devices read mood, sleep, water

    // the phone moves water to the top
    const phone = await api('/api/manifests/reorder', {
      json: { order: ['water', 'mood', 'sleep'] },
      headers: { 'if-match': read.etag },
    });
    expect(phone.status, phone.text).toBe(200);
    expect(phone.headers.get('etag')).toBe(phone.body.etag);
    expect(phone.body.etag).not.toBe(read.etag);

    // the laptop, still showing the old order, moves sleep up one: its whole list is stale
    const stale = await api('/api/manifests/reorder', {
      json: { order: ['sleep', 'mood', 'water'] },
      headers: { 'if-match': read.etag },
    });
    expect(stale.status, stale.text).toBe(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    expect(stale.body.error).toContain('card order');
    expect((await shown()).ids).toEqual(['water', 'mood', 'sleep']);
    expect(orderOnDisk('water')).toBe(100);
    expect(orderOnDisk('sleep')).toBe(300);

    const bad = await api('/api/manifests/reorder', {
      json: { order: ['sleep', 'mood', 'water'] },
      headers: { 'if-match': 'o-1' },
    });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.code).toBe('BAD_IF_MATCH');
    expect(JSON.stringify(bad.body.details)).toContain('headers.if-match');
    expect((await shown()).ids).toEqual(['water', 'mood', 'sleep']);

    // read again: the current tag reorders
    const again = await shown();
    expect(again.etag).toBe(phone.body.etag);
    const fresh = await api('/api/manifests/reorder', {
      json: { order: ['water', 'sleep', 'mood'] },
      headers: { 'if-match': again.etag },
    });
    expect(fresh.status, fresh.text).toBe(200);
    expect((await shown()).ids).toEqual(['water', 'sleep', 'mood']);
  });

  it('refuses with 412, not 404, a list naming a card another device deleted', async () => {
    const read = await shown();
    const gone = await api('/api/manifests', {
      json: { $schema: 'klebb.datafile.v1', meta: { id: 'steps', label: 'steps', order: 50 }, data: [] },
    });
    expect(gone.status, gone.text).toBe(201);
    const withSteps = await shown();
    expect(withSteps.etag).not.toBe(read.etag);
    expect((await api('/api/manifests/steps', { method: 'DELETE' })).status).toBe(200);
    const stale = await api('/api/manifests/reorder', {
      json: { order: ['steps', 'water', 'sleep', 'mood'] },
      headers: { 'if-match': withSteps.etag },
    });
    expect(stale.status, stale.text).toBe(412);
  });

  it('keeps the tag over a change that leaves the order as it was', async () => {
    const read = await shown();
    const row = await api('/api/manifests/mood/rows', { json: { value: { date: '2026-12-01', score: 3 } } });
    expect(row.status, row.text).toBe(201);
    expect((await shown()).etag).toBe(read.etag);
    const plain = await api('/api/manifests/reorder', { json: { order: ['mood', 'water', 'sleep'] } });
    expect(plain.status, plain.text).toBe(200);
    const ok = await api('/api/manifests/reorder', {
      json: { order: ['mood', 'water', 'sleep'] },
      headers: { 'if-match': plain.body.etag },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.updated).toEqual([]);
  });

  it('lists 412 among the answers of the reorder in the OpenAPI document', async () => {
    const doc = await api('/api/openapi.json');
    expect(doc.status, doc.text).toBe(200);
    expect(Object.keys(doc.body.paths['/api/manifests/reorder'].post.responses)).toContain('412');
  });
});
