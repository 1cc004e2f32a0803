/**
 * Behind an HTTPS HEALTH_ORIGIN:
 * passkeys are made for that origin and relying party, the session cookie carries `Secure`, and
 * HSTS is sent. Over plain HTTP (first-passkey.test.ts) the cookie has no `Secure`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register, sessionSetCookie, signIn } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

const ORIGIN = 'https://health.example.test';
let s: TestServer;

beforeAll(async () => {
  s = await startServer({ env: { HEALTH_ORIGIN: ORIGIN, KLEBB_ADMIN_TOKEN: 'admin' } });
});
afterAll(async () => {
  await s?.close();
});

describe('an HTTPS origin', () => {
  it('the setup link and invite links use it; the relying party id is its host', async () => {
    expect(s.inst.auth.setupLink()).toMatch(/^https:\/\/health\.example\.test\/setup#code=/);
    const inv = await s.api('/api/admin/invites', { json: {}, token: 'admin' });
    expect(inv.body.registerUrl).toMatch(/^https:\/\/health\.example\.test\/register#code=user-/);
    const opts = await s.api('/auth/register/options', {
      json: { code: codeOf(s.inst.auth.setupLink() as string) },
      headers: { origin: ORIGIN },
    });
    expect(opts.body.rp).toEqual({ name: 'Klebb', id: 'health.example.test' });
  });

  it('registers and signs in with Secure, HttpOnly, SameSite=Lax cookies; HSTS is on', async () => {
    const authn = new SoftAuthenticator(ORIGIN);
    const reg = await register(s, authn, { code: codeOf(s.inst.auth.setupLink() as string) });
    expect(reg.verify?.status, JSON.stringify(reg.verify?.body)).toBe(200);
    for (const res of [reg.verify, (await signIn(s, authn)).verify]) {
      const attrs = (sessionSetCookie(res as never) as string).split(';').map((a) => a.trim().toLowerCase());
      expect(attrs).toEqual(
        expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/', 'max-age=2592000']),
      );
      expect(res?.headers.get('strict-transport-security')).toBe('max-age=15552000');
    }
    expect((await s.api('/api/instance', { headers: browser(ORIGIN, reg.cookie) })).status).toBe(200);
  });

  it('a passkey answer made on another origin does not verify', async () => {
    const inv = await s.api('/api/admin/invites', { json: {}, token: 'admin' });
    const local = new SoftAuthenticator(s.url);
    const opts = await s.api('/auth/register/options', {
      json: { code: inv.body.code },
      headers: { origin: ORIGIN },
    });
    const v = await s.api('/auth/register/verify', {
      json: { response: local.create(opts.body) },
      headers: { origin: ORIGIN },
    });
    expect(v.status).toBe(400);
    expect(v.body.code).toBe('VERIFICATION_FAILED');
  });
});
