/**
 * Named agent tokens cannot read or manage credentials: a
 * read-only token once read the Health Auto Export token and so could write through the
 * webhook. Named tokens (read-only and read-write) get 403 on the HAE token routes, tokens,
 * invites and passkeys; a passkey session and AGENT_API_TOKEN (full access) keep them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

let s: TestServer;
let cookie: string;
const tokens: Record<'read' | 'write', string> = { read: '', write: '' };

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: 'seed-agent-token-0123456789' } });
  const reg = await register(s, new SoftAuthenticator(s.url), {
    code: codeOf(s.inst.auth.setupLink() as string),
  });
  cookie = reg.cookie as string;
  for (const access of ['read', 'write'] as const) {
    const r = await s.api('/api/tokens', { json: { name: access, access }, headers: browser(s.url, cookie) });
    expect(r.status).toBe(201);
    tokens[access] = r.body.secret;
  }
  expect(
    (await s.api('/api/health-auto-export/token', { method: 'POST', headers: browser(s.url, cookie) }))
      .status,
  ).toBeLessThan(300);
});
afterAll(async () => {
  await s?.close();
});

const routes: [string, string][] = [
  ['GET', '/api/health-auto-export/token'],
  ['POST', '/api/health-auto-export/token'],
  ['POST', '/api/health-auto-export/token/regenerate'],
  ['DELETE', '/api/health-auto-export/token'],
  ['GET', '/api/tokens'],
  ['POST', '/api/tokens'],
  ['POST', '/api/invites'],
  ['GET', '/api/credentials'],
];

describe('named tokens and secrets', () => {
  for (const access of ['read', 'write'] as const) {
    it(`a ${access} token gets 403 on every secret-revealing or -managing route`, async () => {
      for (const [method, path] of routes) {
        const r = await s.api(path, {
          method,
          token: tokens[access],
          ...(method === 'POST' ? { json: { name: 'x', access: 'write' } } : {}),
        });
        expect([method, path, r.status]).toEqual([method, path, 403]);
        expect(r.text).not.toMatch(/"token"\s*:\s*"[^"]{8,}/);
      }
    });
  }

  it('as API.md and HEALTH-AUTO-EXPORT.md say: a read-write token gets CREDENTIALS_NEED_SIGN_IN on the HAE token, 200 on the status', async () => {
    const r = await s.api('/api/health-auto-export/token', { token: tokens.write });
    expect([r.status, r.body.code]).toEqual([403, 'CREDENTIALS_NEED_SIGN_IN']);
    const status = await s.api('/api/health-auto-export/status', { token: tokens.write });
    expect(status.status).toBe(200);
    expect(status.body.tokenSet).toBe(true);
  });

  it('a session and AGENT_API_TOKEN still read the HAE token', async () => {
    const bySession = await s.api('/api/health-auto-export/token', { headers: browser(s.url, cookie) });
    expect(bySession.status).toBe(200);
    const byAgent = await s.api('/api/health-auto-export/token', { token: 'seed-agent-token-0123456789' });
    expect(byAgent.status).toBe(200);
  });
});
