/**
 * Refusals the framework's router makes before any route runs (a %-escape that does not decode,
 * a path part longer than the router allows) come in the `{error, code}` shape with a documented
 * code, never as FST_ERR_* and never repeating the URL back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'framework-errors-token';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
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

  it('a path part longer than the router allows is 414 URI_TOO_LONG in our shape, never FST_ERR_*', async () => {
    const secretish = 'a1'.repeat(100);
    const r = await s.api(`/api/manifests/${secretish}`, { token: T });
    expect(r.status).toBe(414);
    expect(Object.keys(r.body).sort()).toEqual(['code', 'error']);
    expect(r.body).toEqual({
      code: 'URI_TOO_LONG',
      error: 'a part of the URL path is longer than 100 characters',
    });
    expect(r.text).not.toContain(secretish);
  });

  it('every API route with a path parameter answers a part of 101 characters 414, and one of 100 as usual', async () => {
    const routes = s.app.routeTable.filter((r) => r.url.startsWith('/api/') && r.url.includes(':'));
    expect(routes.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const route of routes) {
      const names = route.url.match(/:\w+/g) ?? [];
      for (const name of names) {
        const at = (n: number) =>
          route.url.replace(/:\w+/g, (p) => (p === name ? 'a'.repeat(n) : p === ':index' ? '0' : 'x'));
        const init = { method: route.method, token: T, ...(route.method === 'GET' ? {} : { json: {} }) };
        const long = await s.api(at(101), init);
        if (long.status !== 414 || long.body?.code !== 'URI_TOO_LONG')
          wrong.push(`${route.method} ${at(101).slice(0, 40)}… → ${long.status} ${long.body?.code}`);
        const fits = await s.api(at(100), init);
        if (fits.status === 414) wrong.push(`${route.method} ${route.url} with 100 characters → 414`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a %-escaped part counts its decoded characters, as the router does', async () => {
    const ok = await s.api(`/api/manifests/${'%61'.repeat(100)}`, { token: T });
    expect(ok.status).toBe(404);
    expect(ok.body.code).toBe('CARD_NOT_FOUND');
    const long = await s.api(`/api/conversations/${'%61'.repeat(101)}`, { token: T });
    expect(long.status).toBe(414);
  });
});
