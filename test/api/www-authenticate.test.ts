/**
 * Every 401 names how to authenticate (RFC 9110 §11.6.1): `WWW-Authenticate: Bearer` with the
 * realm, and for a refused token `error="invalid_token"` (RFC 6750 §3.1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'the-right-token-0123456789';
const ADMIN = 'the-admin-token-0123456789';

describe('WWW-Authenticate on 401 answers', () => {
  let s: TestServer;
  beforeAll(async () => {
    // no trust for this machine: a request without credentials is refused too
    s = await startServer({
      env: { AGENT_API_TOKEN: T, KLEBB_ADMIN_TOKEN: ADMIN, KLEBB_TRUST_LOOPBACK: '0' },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  const routes: [string, string, unknown?][] = [
    ['GET', '/api/manifests'],
    ['POST', '/api/manifests/mood/rows', { value: { mood: 3 } }],
    ['GET', '/api/admin/health'],
    ['POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['GET', '/api/no-such-route'],
  ];

  it.each(routes)('%s %s without a token: the bare Bearer challenge', async (method, path, json) => {
    const r = await s.api(path, { method, json });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('UNAUTHORIZED');
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="klebb"');
  });

  it.each(routes)('%s %s with a wrong token: error="invalid_token"', async (method, path, json) => {
    const r = await s.api(path, { method, json, token: 'not-the-token-at-all' });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('UNAUTHORIZED');
    const challenge = r.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer realm="klebb", error="invalid_token"/);
  });

  it('an Authorization header that is not a bearer token: error="invalid_request"', async () => {
    const r = await s.api('/api/manifests', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="klebb", error="invalid_request"');
  });

  it('the Health Auto Export webhook challenges a wrong token too', async () => {
    await s.api('/api/health-auto-export/token', { method: 'POST', token: T });
    const r = await s.api('/api/health-auto-export', { method: 'POST', json: { data: {} }, token: 'wrong' });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('no challenge on answers that are not 401', async () => {
    const ok = await s.api('/api/manifests', { token: T });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('www-authenticate')).toBeNull();
    const missing = await s.api('/api/manifests/nope', { token: T });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('www-authenticate')).toBeNull();
  });
});
