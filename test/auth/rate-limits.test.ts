/**
 * Rate limits: sign-in and registration requests per address, bearer
 * requests per token, configurable, on by default; past the limit 429 RATE_LIMITED with
 * Retry-After. Small limits here so a few requests reach them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_AGENT_RATE_LIMIT_PER_MIN,
  DEFAULT_AUTH_RATE_LIMIT_PER_MIN,
} from '../../src/auth/auth-env.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({
    env: { AGENT_API_TOKEN: 'agent', KLEBB_AUTH_RATE_LIMIT: '3', KLEBB_AGENT_RATE_LIMIT: '5' },
  });
});
afterAll(async () => {
  await s?.close();
});

function expectLimited(r: { status: number; headers: Headers; body: { code: string } }) {
  expect(r.status).toBe(429);
  expect(r.body.code).toBe('RATE_LIMITED');
  const retry = Number(r.headers.get('retry-after'));
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
}

describe('rate limits', () => {
  it('are on by default, generous for tokens', () => {
    const c = loadConfig({});
    expect(c.auth.authRateLimitPerMin).toBe(DEFAULT_AUTH_RATE_LIMIT_PER_MIN);
    expect(c.auth.agentRateLimitPerMin).toBe(DEFAULT_AGENT_RATE_LIMIT_PER_MIN);
    expect(DEFAULT_AUTH_RATE_LIMIT_PER_MIN).toBeGreaterThan(0);
    expect(DEFAULT_AGENT_RATE_LIMIT_PER_MIN).toBeGreaterThanOrEqual(6000);
    expect(loadConfig({ KLEBB_AGENT_RATE_LIMIT: '0' }).auth.agentRateLimitPerMin).toBe(0);
  });

  it('sign-in and registration attempts per address: the 4th of 3 is 429 with Retry-After', async () => {
    const attempts = [
      await s.api('/auth/login/options', { method: 'POST' }),
      await s.api('/auth/register/options', { json: { code: 'user-wrong' } }),
      await s.api('/auth/login/verify', { json: { response: {} } }),
    ];
    expect(attempts.map((r) => r.status)).toEqual([400, 403, 400]);
    expectLimited(await s.api('/auth/login/options', { method: 'POST' }));
    expectLimited(await s.api('/auth/register/options', { json: {} }));
    // the status page and the rest of the API are not sign-in attempts
    expect((await s.api('/auth/status')).status).toBe(200);
    expect((await s.api('/api/manifests')).status).toBe(200);
  });

  it('bearer requests per token: the 6th of 5 is 429; another token has its own budget', async () => {
    for (let i = 0; i < 5; i++) expect((await s.api('/api/manifests', { token: 'agent' })).status).toBe(200);
    expectLimited(await s.api('/api/manifests', { token: 'agent' }));
    const named = await s.api('/api/tokens', { json: { name: 'other', access: 'read' } });
    expect((await s.api('/api/manifests', { token: named.body.secret })).status).toBe(200);
    // without a token (this machine, no passkey yet) there is no per-token limit
    for (let i = 0; i < 7; i++) expect((await s.api('/api/instance')).status).toBe(200);
    // a wrong token is refused before it is counted
    expect((await s.api('/api/manifests', { token: 'wrong' })).status).toBe(401);
  });
});
