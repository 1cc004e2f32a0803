/**
 * Deleting a card takes its rows with it, so a deletion sent with If-Match (the ETag a client
 * read from GET /api/manifests/:id or its data) happens only while the card's rows are still
 * those it read: a phone's push or another tab's entry since then makes it 412 and nothing is
 * deleted; a malformed If-Match is 400 naming headers.if-match; the current ETag, `*` or no
 * If-Match at all delete as before. Real server, real SQLite, the card file on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { makeWeightCard } from '../helpers/weight-card.js';

const T = 'delete-card-if-match-token';
let s: TestServer;

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

async function makeCard(id: string): Promise<string> {
  return makeWeightCard(s, T, id);
}

const fileOf = (id: string) => path.join(s.dataDir, `${id}.json`);

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s.close();
});

describe('DELETE /api/manifests/:id with If-Match', () => {
  it('is 412 when rows were added since the card was read, and the card and every row stay', async () => {
    const read = await makeCard('w1');
    // the phone (or another tab) adds a reading after the client read the card
    const add = await api('/api/manifests/w1/rows', { json: { value: { date: '2026-04-02', kg: 79.5 } } });
    expect(add.status, add.text).toBe(201);

    const del = await api('/api/manifests/w1', { method: 'DELETE', headers: { 'if-match': read } });
    expect(del.status, del.text).toBe(412);
    expect(del.body.code).toBe('PRECONDITION_FAILED');
    expect(fs.existsSync(fileOf('w1'))).toBe(true);
    const data = await api('/api/manifests/w1/data');
    expect(data.body.data).toEqual([
      { date: '2026-04-01', kg: 80 },
      { date: '2026-04-02', kg: 79.5 },
    ]);
  });

  it('is 400 naming headers.if-match for a tag this server never gave, and nothing is deleted', async () => {
    await makeCard('w2');
    for (const bad of ['garbage', '"x"', ',']) {
      const del = await api('/api/manifests/w2', { method: 'DELETE', headers: { 'if-match': bad } });
      expect(del.status, `${bad}: ${del.text}`).toBe(400);
      expect(del.body.code).toBe('BAD_IF_MATCH');
      expect(del.body.details.map((d: { path: string }) => d.path)).toEqual(['headers.if-match']);
    }
    expect(fs.existsSync(fileOf('w2'))).toBe(true);
    expect((await api('/api/manifests/w2/data')).body.data).toHaveLength(1);
  });

  it('deletes with the current ETag, with *, and without If-Match', async () => {
    const current = await makeCard('w3');
    await makeCard('w4');
    await makeCard('w5');
    for (const [id, headers] of [
      ['w3', { 'if-match': current }],
      ['w4', { 'if-match': '*' }],
      ['w5', {}],
    ] as const) {
      const del = await api(`/api/manifests/${id}`, { method: 'DELETE', headers });
      expect(del.status, `${id}: ${del.text}`).toBe(200);
      expect(fs.existsSync(fileOf(id))).toBe(false);
      expect((await api(`/api/manifests/${id}`)).status).toBe(404);
    }
  });
});
