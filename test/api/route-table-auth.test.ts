import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// Every route that is not marked public must refuse a caller without credentials from off the
// machine (here: a loopback request carrying proxy headers) and a caller with a wrong bearer;
// and once a passkey exists, also a caller on this machine without credentials, and a forged or
// ended session cookie.
let s: TestServer;
beforeAll(async () => {
  // this file sends hundreds of wrong tokens on purpose: the failure limit (429) is off here
  s = await startServer({
    env: { AGENT_API_TOKEN: 'right', KLEBB_ADMIN_TOKEN: 'admin-right', KLEBB_AUTH_FAILURE_LIMIT: '0' },
  });
});
afterAll(async () => {
  await s.close();
});

function concrete(url: string): string {
  return url.replace(/:[A-Za-z]+/g, 'welcome').replace(/\*$/, 'x');
}

describe('route table', () => {
  it('has routes, and only /healthz, the OpenAPI document, the HAE webhook (it checks its own token), web assets, the app manifest, icons and service worker, sign-in pages and /auth/* are public', async () => {
    const table = s.app.routeTable;
    expect(table.length).toBeGreaterThan(15);
    expect(
      table
        .filter((r) => r.auth === 'public')
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([
      'GET /api/openapi.json',
      'GET /assets/*',
      'GET /auth/register/available',
      'GET /auth/status',
      'GET /healthz',
      'GET /icons/:name',
      'GET /login',
      'GET /manifest.webmanifest',
      'GET /register',
      'GET /setup',
      'GET /sw.js',
      'POST /api/health-auto-export',
      'POST /auth/demo-login',
      'POST /auth/login/options',
      'POST /auth/login/verify',
      'POST /auth/logout',
      'POST /auth/register/options',
      'POST /auth/register/verify',
    ]);
    // the webhook's own gate: no HAE token configured → 501, whatever bearer is sent
    const hook = await s.api('/api/health-auto-export', {
      json: {},
      headers: { authorization: 'Bearer right' },
    });
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

describe('route table once a passkey exists', () => {
  let p: TestServer;
  beforeAll(async () => {
    p = await startServer({
      env: { AGENT_API_TOKEN: 'right', KLEBB_ADMIN_TOKEN: 'admin-right' },
      // a registered passkey (its key is never used here: nobody signs in with it)
      before: (home) => {
        fs.mkdirSync(path.join(home, 'credentials'), { recursive: true, mode: 0o700 });
        const passkey = {
          id: 'cred-1',
          publicKey: 'AAAA',
          counter: 0,
          deviceType: 'singleDevice',
          backedUp: false,
          nickname: null,
          registeredAt: '2026-01-01T00:00:00.000Z',
          lastUsedAt: null,
        };
        fs.writeFileSync(
          path.join(home, 'credentials', 'webauthn.json'),
          JSON.stringify({ version: 1, users: { user: { userId: 'dXNlcg', credentials: [passkey] } } }),
          { mode: 0o600 },
        );
      },
    });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('every non-public route answers 401 to this machine without credentials and to a forged session cookie', async () => {
    expect(p.inst.auth.hasPasskeys()).toBe(true);
    const forged = `klebb_session=${'A'.repeat(43)}`;
    for (const r of p.app.routeTable.filter((x) => x.auth !== 'public')) {
      const url = concrete(r.url);
      const hasBody = !['GET', 'DELETE'].includes(r.method);
      const init = { method: r.method, ...(hasBody ? { json: {} } : {}) };
      const local = await p.api(url, { ...init, headers: { accept: 'application/json' } });
      expect(local.status, `${r.method} ${url} from loopback without credentials`).toBe(401);
      const cookie = await p.api(url, { ...init, headers: { cookie: forged } });
      expect(cookie.status, `${r.method} ${url} with a forged session cookie`).toBe(401);
    }
    // the agent token still works exactly as before
    expect((await p.api('/api/manifests', { token: 'right' })).status).toBe(200);
  });
});
