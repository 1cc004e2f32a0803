/**
 * The card's master switch (POST /api/settings/cards/:id/enable and …/disable) honours If-Match
 * as a patch of the card does: the switch rewrites the card's file, so a client that sends the
 * tag it read must not have it ignored. A stale tag is 412 and the card stays as it was; a
 * malformed one is 400 naming headers.if-match; the card's current tag, or none, switches it
 * and the answer carries the card's new tag. Real server, real SQLite, the card file on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'enable-card-if-match-token';
let s: TestServer;

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const tagOf = async (id: string) => (await api(`/api/manifests/${id}`)).headers.get('etag') as string;
const enabledOnDisk = (id: string) =>
  JSON.parse(fs.readFileSync(path.join(s.dataDir, `${id}.json`), 'utf8')).meta.enabled;

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await api('/api/manifests', {
    json: { $schema: 'klebb.datafile.v1', meta: { id: 'mood', label: 'Mood' }, data: [] },
  });
  expect(r.status, r.text).toBe(201);
});
afterAll(async () => {
  await s.close();
});

describe('enable and disable with If-Match', () => {
  it('refuses a switch decided on a card another device changed since, and takes the current tag', async () => {
    const read = await tagOf('mood');
    const other = await api('/api/manifests/mood', {
      method: 'PATCH',
      json: { meta: { label: 'Mood today' } },
      headers: { 'if-match': read },
    });
    expect(other.status, other.text).toBe(200);

    const stale = await api('/api/settings/cards/mood/disable', {
      method: 'POST',
      headers: { 'if-match': read },
    });
    expect(stale.status, stale.text).toBe(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    expect(enabledOnDisk('mood')).not.toBe(false);

    const bad = await api('/api/settings/cards/mood/disable', {
      method: 'POST',
      headers: { 'if-match': 'v3' },
    });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.code).toBe('BAD_IF_MATCH');
    expect(JSON.stringify(bad.body.details)).toContain('headers.if-match');
    expect(enabledOnDisk('mood')).not.toBe(false);

    const fresh = await api('/api/settings/cards/mood/disable', {
      method: 'POST',
      headers: { 'if-match': other.body.etag },
    });
    expect(fresh.status, fresh.text).toBe(200);
    expect(enabledOnDisk('mood')).toBe(false);
    expect(fresh.headers.get('etag')).toBe(await tagOf('mood'));
    expect(fresh.headers.get('etag')).not.toBe(other.body.etag);

    const plain = await api('/api/settings/cards/mood/enable', { method: 'POST' });
    expect(plain.status, plain.text).toBe(200);
    expect(enabledOnDisk('mood')).toBe(true);
  });

  it('lists 412 among the answers of the switch in the OpenAPI document', async () => {
    const doc = await api('/api/openapi.json');
    expect(doc.status, doc.text).toBe(200);
    for (const path of ['/api/settings/cards/{id}/enable', '/api/settings/cards/{id}/disable'])
      expect(Object.keys(doc.body.paths[path].post.responses)).toEqual(
        expect.arrayContaining(['409', '412']),
      );
  });
});
