/**
 * A request whose credentials are refused (a token that is not accepted, another scheme than
 * Bearer) is 401 with a message that says what a caller may send, without telling anything about
 * the token it sent: before, every such answer was a bare "Unauthorized".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'a-long-agent-token-for-this-test-0123456789';
let s: TestServer;
let hae: string;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  hae = (await s.api('/api/health-auto-export/token', { method: 'POST', token: T })).body.token;
});
afterAll(async () => {
  await s.close();
});

describe('refused credentials', () => {
  it('a token the API does not take (here the Health Auto Export one) names the tokens it takes', async () => {
    for (const tok of [hae, 'not-a-token']) {
      const r = await s.api('/api/manifests', { token: tok });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('UNAUTHORIZED');
      expect(r.body.error).toMatch(/^Unauthorized: /);
      expect(r.body.error).toContain('AGENT_API_TOKEN');
      expect(r.body.error).toContain('Settings › Security');
      expect(r.body.error).toContain('/api/health-auto-export');
    }
  });

  it('the same message whichever token was sent: it says nothing about the token', async () => {
    const a = await s.api('/api/manifests', { token: hae });
    const b = await s.api('/api/manifests', { token: 'x' });
    expect(a.body.error).toBe(b.body.error);
  });

  it('another scheme than Bearer says how to send the token', async () => {
    for (const authorization of [`Basic ${Buffer.from(`u:${T}`).toString('base64')}`, T, 'Token abc']) {
      const r = await s.api('/api/manifests', { headers: { authorization } });
      expect(r.status).toBe(401);
      expect(r.body.error).toMatch(/^Unauthorized: /);
      expect(r.body.error).toContain('Authorization: Bearer <token>');
    }
  });

  it('a refused write changes nothing', async () => {
    const r = await s.api('/api/settings/cards/from-template', {
      token: hae,
      json: { templateId: 'weight' },
    });
    expect(r.status).toBe(401);
    expect((await s.api('/api/manifests/weight', { token: T })).status).toBe(404);
  });
});
