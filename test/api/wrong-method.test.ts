/**
 * A path that exists, asked with a method it does not take (opening the Health Auto Export URL
 * in a browser, PUT where PATCH is meant), is still 404 NOT_FOUND, but the message names the
 * methods the path takes, so the caller sees the path was right. Nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

describe('a method the path does not take', () => {
  it('GET on the Health Auto Export webhook says it takes POST', async () => {
    const r = await s.api('/api/health-auto-export');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('NOT_FOUND');
    expect(r.body.error).toBe('no route GET /api/health-auto-export: this path takes POST');
  });

  it("PUT on a card's rows names GET, POST, PATCH and DELETE", async () => {
    const r = await s.api('/api/manifests/weight/rows', { method: 'PUT', json: { value: 1 } });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatch(/^no route PUT \/api\/manifests\/weight\/rows: this path takes /);
    for (const m of ['GET', 'POST', 'PATCH', 'DELETE']) expect(r.body.error).toContain(m);
    expect(r.body.error).not.toContain('HEAD');
  });

  it('POST on a read-only path (GET /api/changes) says GET', async () => {
    const r = await s.api('/api/changes', { method: 'POST', json: {} });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('no route POST /api/changes: this path takes GET');
  });

  it('a path no route has is the plain 404', async () => {
    const r = await s.api('/api/manifest');
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('no route GET /api/manifest');
    const d = await s.api('/api/nothing/here', { method: 'DELETE' });
    expect(d.body.error).toBe('no route DELETE /api/nothing/here');
  });
});
