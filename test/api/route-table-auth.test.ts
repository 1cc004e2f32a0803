import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// Every route that is not marked public must refuse a caller without credentials from off the
// machine (here: a loopback request carrying proxy headers) and a caller with a wrong bearer.
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: 'right', KLEBB_ADMIN_TOKEN: 'admin-right' } });
});
afterAll(async () => {
  await s.close();
});

function concrete(url: string): string {
  return url.replace(/:[A-Za-z]+/g, 'welcome').replace(/\*$/, 'x');
}

describe('route table', () => {
  it('has routes, and only /healthz, the HAE webhook (it checks its own token) and web assets are public', async () => {
    const table = s.app.routeTable;
    expect(table.length).toBeGreaterThan(15);
    expect(table.filter((r) => r.auth === 'public').map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /assets/*',
      'GET /healthz',
      'POST /api/health-auto-export',
    ]);
    // the webhook's own gate: no HAE token configured → 501, whatever bearer is sent
    const hook = await s.api('/api/health-auto-export', { json: {}, headers: { authorization: 'Bearer right' } });
    expect(hook.status).toBe(501);
  });

  it('every non-public route answers 401 without credentials from off the machine, and to a wrong bearer', async () => {
    for (const r of s.app.routeTable.filter((x) => x.auth !== 'public')) {
      const url = concrete(r.url);
      const hasBody = !['GET', 'DELETE'].includes(r.method);
      const init = { method: r.method, ...(hasBody ? { json: {} } : {}) };
      const anon = await s.api(url, { ...init, headers: { 'x-forwarded-for': '203.0.113.5' } });
      expect(anon.status, `${r.method} ${url} without credentials`).toBe(401);
      const wrong = await s.api(url, { ...init, headers: { authorization: 'Bearer wrong' } });
      expect(wrong.status, `${r.method} ${url} with a wrong bearer`).toBe(401);
    }
  });

  it('percent-encoded paths cannot walk around the gate', async () => {
    for (const p of ['/%61pi/manifests', '/%2561pi/manifests', '/api/%6danifests', '/API/manifests']) {
      const r = await s.api(p, { headers: { authorization: 'Bearer wrong' } });
      expect(r.status, p).toBe(401);
      const anon = await s.api(p, { headers: { 'x-forwarded-for': '203.0.113.5' } });
      expect(anon.status, p).toBe(401);
    }
    const write = await s.api('/%61pi/settings/cards/welcome/disable', {
      method: 'POST',
      headers: { 'x-forwarded-for': '203.0.113.5' },
    });
    expect(write.status).toBe(401);
    expect((await s.api('/api/manifests/welcome', { token: 'right' })).body.meta.enabled).not.toBe(false);
  });

  it('the admin routes take only the admin bearer', async () => {
    expect((await s.api('/api/admin/feedback', { token: 'right' })).status).toBe(401);
    expect((await s.api('/api/admin/feedback', { token: 'admin-right' })).status).toBe(200);
  });
});
