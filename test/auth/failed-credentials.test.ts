/**
 * Wrong bearer tokens are counted per client address: after
 * AUTH_FAILURES_PER_MIN refusals in a minute the answer is 429 with Retry-After, each refusal
 * is logged with the address and never the token text; short AGENT_API_TOKEN / KLEBB_ADMIN_TOKEN
 * values draw a warning at start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_FAILURES_PER_MIN } from '../../src/auth/auth-limits.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const good = 'failed-credentials-agent-token-0123';

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: good } });
});
afterAll(async () => {
  await s?.close();
});

describe('failed credentials', () => {
  it('past the limit a wrong bearer gets 429 with Retry-After', async () => {
    for (let i = 0; i < AUTH_FAILURES_PER_MIN; i++) {
      const r = await s.api('/api/manifests', { token: `wrong-guess-${i}` });
      expect(r.status).toBe(401);
    }
    const r = await s.api('/api/manifests', { token: 'wrong-guess-last' });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.body.code).toBe('RATE_LIMITED');
    // the admin routes count too
    expect((await s.api('/api/admin/invites', { method: 'POST', token: 'nope' })).status).not.toBe(200);
    expect((await s.api('/api/manifests', { token: good })).status).not.toBe(401);
  });

  it('warns at start about short tokens', () => {
    const c = loadConfig({ AGENT_API_TOKEN: 'short', KLEBB_ADMIN_TOKEN: 'also-short' });
    expect(c.warnings.filter((w) => /shorter than 16/.test(w))).toHaveLength(2);
    expect(c.warnings.join()).not.toContain('also-short');
    expect(loadConfig({ AGENT_API_TOKEN: 'x'.repeat(16) }).warnings.join()).not.toContain('shorter');
  });
});
