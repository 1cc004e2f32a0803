/**
 * Every secret comparison goes through the constant-time checker ("All token
 * comparisons are constant-time ... a test that greps is not enough: call the checker"). The
 * service is given a spy around safeEqual; for each kind of secret (AGENT_API_TOKEN, the admin
 * token, a named token, a session cookie, an invite code, the setup code) a request is made and
 * the spy must have seen the presented secret (or, for stored secrets, its SHA-256 digest).
 * Then the checker is made to answer "no": the right secret is refused, so the decision really
 * rests on the checker and no other comparison lets it through.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { safeEqual } from '../../src/auth/safe-equal.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

let refuseAll = false;
const equal = vi.fn((given: string, expected: string) => (refuseAll ? false : safeEqual(given, expected)));
let s: TestServer;

beforeAll(async () => {
  s = await startServer({
    env: { AGENT_API_TOKEN: 'agent-token-1', KLEBB_ADMIN_TOKEN: 'admin-token-1' },
    auth: { equal },
  });
});
afterAll(async () => {
  await s?.close();
});

/** Runs `request` and returns the first arguments the checker saw meanwhile. */
async function seen(request: () => Promise<unknown>): Promise<string[]> {
  const before = equal.mock.calls.length;
  await request();
  return equal.mock.calls.slice(before).map((c) => c[0]);
}

describe('the constant-time checker', () => {
  let cookie: string;
  let named: string;
  let invite: string;

  it('compares the setup code', async () => {
    const code = codeOf(s.inst.auth.setupLink() as string);
    const given = await seen(() =>
      s.api('/auth/register/options', { json: { code }, headers: browser(s.url) }),
    );
    expect(given).toContain(code);
    refuseAll = true;
    try {
      const r = await s.api('/auth/register/options', { json: { code }, headers: browser(s.url) });
      expect(r.status).toBe(403);
    } finally {
      refuseAll = false;
    }
    cookie = (await register(s, new SoftAuthenticator(s.url), { code })).cookie as string;
    expect(cookie).toBeTruthy();
  });

  it('compares the session cookie (as its digest)', async () => {
    expect(await seen(() => s.api('/api/instance', { headers: browser(s.url, cookie) }))).toContain(
      sha(cookie),
    );
    refuseAll = true;
    try {
      expect((await s.api('/api/instance', { headers: browser(s.url, cookie) })).status).toBe(401);
    } finally {
      refuseAll = false;
    }
  });

  it('compares AGENT_API_TOKEN', async () => {
    expect(await seen(() => s.api('/api/instance', { token: 'agent-token-1' }))).toContain('agent-token-1');
    refuseAll = true;
    try {
      expect((await s.api('/api/instance', { token: 'agent-token-1' })).status).toBe(401);
    } finally {
      refuseAll = false;
    }
  });

  it('compares the admin token', async () => {
    expect(await seen(() => s.api('/api/admin/health', { token: 'admin-token-1' }))).toContain(
      'admin-token-1',
    );
    refuseAll = true;
    try {
      expect((await s.api('/api/admin/health', { token: 'admin-token-1' })).status).toBe(401);
    } finally {
      refuseAll = false;
    }
  });

  it('compares named tokens (as digests)', async () => {
    named = (
      await s.api('/api/tokens', { json: { name: 'n', access: 'read' }, headers: browser(s.url, cookie) })
    ).body.secret;
    expect(await seen(() => s.api('/api/instance', { token: named }))).toContain(sha(named));
    refuseAll = true;
    try {
      expect((await s.api('/api/instance', { token: named })).status).toBe(401);
    } finally {
      refuseAll = false;
    }
  });

  it('compares invite codes (as digests)', async () => {
    invite = (await s.api('/api/invites', { method: 'POST', headers: browser(s.url, cookie) })).body.code;
    const q = `/auth/register/available?code=${encodeURIComponent(invite)}`;
    expect(await seen(() => s.api(q))).toContain(sha(invite));
    refuseAll = true;
    try {
      expect((await s.api(q)).body).toMatchObject({ available: false, reason: 'invalid-invite' });
      expect(
        (await s.api('/auth/register/options', { json: { code: invite }, headers: browser(s.url) })).status,
      ).toBe(403);
    } finally {
      refuseAll = false;
    }
    expect((await s.api(q)).body).toMatchObject({ available: true, reason: 'invite' });
  });
});
