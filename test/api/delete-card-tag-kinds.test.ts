/**
 * Deleting a card with If-Match, as the docs say: the card's tag (GET /api/manifests/:id) is the
 * whole card's, so after a change of the card's file it is stale and the deletion is 412, the
 * card kept; the data tag (GET …/data) holds while the rows do, so the same deletion with it goes
 * ahead. Real server, real SQLite, the card file on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'delete-card-tag-kinds-token';
let s: TestServer;
const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s.close();
});

describe('DELETE /api/manifests/:id with the card tag or the data tag', () => {
  it('refuses the card tag read before a settings change, and takes the data tag', async () => {
    const made = await api('/api/manifests', {
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'notes', label: 'Notes' },
        data: [{ date: '2026-04-01', v: 1 }],
      },
    });
    expect(made.status, made.text).toBe(201);
    const cardTag = (await api('/api/manifests/notes')).headers.get('etag') as string;
    const dataTag = (await api('/api/manifests/notes/data')).headers.get('etag') as string;
    const patched = await api('/api/manifests/notes', {
      method: 'PATCH',
      json: { description: 'Daily notes' },
    });
    expect(patched.status, patched.text).toBe(200);

    const stale = await api('/api/manifests/notes', { method: 'DELETE', headers: { 'if-match': cardTag } });
    expect(stale.status, stale.text).toBe(412);
    expect(fs.existsSync(path.join(s.dataDir, 'notes.json'))).toBe(true);

    const rowsSame = await api('/api/manifests/notes', {
      method: 'DELETE',
      headers: { 'if-match': dataTag },
    });
    expect(rowsSame.status, rowsSame.text).toBe(200);
    expect(fs.existsSync(path.join(s.dataDir, 'notes.json'))).toBe(false);
  });
});
