/**
 * Refusals the framework's router makes before any route runs (a %-escape that does not decode,
 * a path part longer than the router allows) come in the `{error, code}` shape with a documented
 * code, never as FST_ERR_* and never repeating the URL back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.close();
});

describe('framework refusals', () => {
  it('a path with a broken %-escape is 400 BAD_URL', async () => {
    const r = await s.api('/api/manifests/%zz');
    expect(r.status).toBe(400);
    expect(Object.keys(r.body).sort()).toEqual(['code', 'error']);
    expect(r.body.code).toBe('BAD_URL');
    expect(r.text).not.toContain('%zz');
  });

  it('a path part longer than the router allows is answered in our shape, never FST_ERR_*', async () => {
    const secretish = 'a1'.repeat(100);
    const r = await s.api(`/api/manifests/${secretish}`);
    expect([404, 414]).toContain(r.status);
    expect(Object.keys(r.body).sort()).toEqual(['code', 'error']);
    expect(r.body.code).toBe(r.status === 414 ? 'URI_TOO_LONG' : 'NOT_FOUND');
    expect(r.text).not.toContain('FST_ERR');
  });
});
