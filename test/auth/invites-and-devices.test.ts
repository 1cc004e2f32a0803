/**
 * Later passkeys: single-use invites that expire (`POST /api/invites` for a signed-in
 * person, `POST /api/admin/invites` for KLEBB_ADMIN_TOKEN), a signed-in person adding a device,
 * listing and removing passkeys: the last one is refused (409), removing one ends the sessions
 * that used it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register, signIn } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

const DAY_MS = 24 * 3600_000;
const clock = { now: Date.now() };

let s: TestServer;
let laptop: SoftAuthenticator;
let laptopCookie: string;

beforeAll(async () => {
  s = await startServer({ env: { KLEBB_ADMIN_TOKEN: 'admin-secret' }, auth: { now: () => clock.now } });
  laptop = new SoftAuthenticator(s.url);
  const first = await register(s, laptop, {
    code: codeOf(s.inst.auth.setupLink() as string),
    nickname: 'Laptop',
  });
  expect(first.verify?.status).toBe(200);
  laptopCookie = first.cookie as string;
});
afterAll(async () => {
  await s?.close();
});

async function invite(cookie: string, json?: unknown) {
  return s.api('/api/invites', {
    method: 'POST',
    headers: browser(s.url, cookie),
    ...(json === undefined ? {} : { json }),
  });
}

describe('invites', () => {
  it('a signed-in person makes a 3-day single-use invite for their own account', async () => {
    const r = await invite(laptopCookie);
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['code', 'expiresAt', 'label', 'registerUrl']);
    expect(r.body.label).toBe('user');
    expect(r.body.code).toMatch(/^user-[A-Za-z0-9_-]{43}$/);
    // links name localhost, not 127.0.0.1 (passkeys work there; test/auth/loopback-links.test.ts)
    expect(r.body.registerUrl).toBe(
      `${s.url.replace('127.0.0.1', 'localhost')}/register#code=${encodeURIComponent(r.body.code)}`,
    );
    expect(Date.parse(r.body.expiresAt) - clock.now).toBe(3 * DAY_MS);
    const avail = await s.api(`/auth/register/available?code=${encodeURIComponent(r.body.code)}`);
    expect(avail.body).toEqual({ available: true, reason: 'invite', label: 'user' });
  });

  it('registers a second device with it once; the same invite again is refused (403 INVITE_USED)', async () => {
    const { body } = await invite(laptopCookie);
    const phone = new SoftAuthenticator(s.url);
    const r = await register(s, phone, { code: body.code, nickname: 'Phone' });
    expect(r.verify?.status, JSON.stringify(r.verify?.body)).toBe(200);
    expect(r.cookie).toBeTruthy();
    const again = await register(s, new SoftAuthenticator(s.url), { code: body.code });
    expect(again.options.status).toBe(403);
    expect(again.options.body.code).toBe('INVITE_USED');
    const avail = await s.api(`/auth/register/available?code=${encodeURIComponent(body.code)}`);
    expect(avail.body).toEqual({ available: false, reason: 'invalid-invite', why: 'used' });
    expect(s.inst.auth.passkeys.count()).toBe(2);
  });

  it('an invite whose registration started before it was spent elsewhere cannot be spent twice', async () => {
    const { body } = await invite(laptopCookie);
    const a = new SoftAuthenticator(s.url);
    const b = new SoftAuthenticator(s.url);
    const optA = await s.api('/auth/register/options', {
      json: { code: body.code },
      headers: browser(s.url),
    });
    const optB = await s.api('/auth/register/options', {
      json: { code: body.code },
      headers: browser(s.url),
    });
    expect([optA.status, optB.status]).toEqual([200, 200]);
    const vA = await s.api('/auth/register/verify', {
      json: { response: a.create(optA.body) },
      headers: browser(s.url),
    });
    expect(vA.status).toBe(200);
    const vB = await s.api('/auth/register/verify', {
      json: { response: b.create(optB.body) },
      headers: browser(s.url),
    });
    expect(vB.status).toBe(403);
    expect(vB.body.code).toBe('INVITE_USED');
    expect(vB.headers.getSetCookie()).toEqual([]);
  });

  it('expires: after its lifetime it is refused (403 INVITE_EXPIRED), even mid-registration', async () => {
    const start = clock.now;
    const { body } = await invite(laptopCookie, { expiresInDays: 1 });
    try {
      clock.now = start + DAY_MS - 30_000; // 30 s left
      const opt = await s.api('/auth/register/options', {
        json: { code: body.code },
        headers: browser(s.url),
      });
      expect(opt.status).toBe(200);
      clock.now = start + DAY_MS + 30_000; // expired, while the challenge (120 s) is still live
      const v = await s.api('/auth/register/verify', {
        json: { response: new SoftAuthenticator(s.url).create(opt.body) },
        headers: browser(s.url),
      });
      expect(v.status).toBe(403);
      expect(v.body.code).toBe('INVITE_EXPIRED');
      const fresh = await register(s, new SoftAuthenticator(s.url), { code: body.code });
      expect(fresh.options.status).toBe(403);
      expect(fresh.options.body.code).toBe('INVITE_EXPIRED');
    } finally {
      clock.now = start;
    }
  });

  it('lifetimes are clamped to 1-30 days; a non-number is a 400 naming the field', async () => {
    const long = await invite(laptopCookie, { expiresInDays: 365 });
    expect(Date.parse(long.body.expiresAt) - clock.now).toBe(30 * DAY_MS);
    const short = await invite(laptopCookie, { expiresInDays: 0 });
    expect(Date.parse(short.body.expiresAt) - clock.now).toBe(1 * DAY_MS);
    const bad = await invite(laptopCookie, { expiresInDays: 'soon' });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('body.expiresInDays');
  });

  it('tokens and this machine cannot make invites; only a passkey session can', async () => {
    expect((await s.api('/api/invites', { method: 'POST' })).status).toBe(401);
    const { body } = await s.api('/api/tokens', {
      json: { name: 'script', access: 'write' },
      headers: browser(s.url, laptopCookie),
    });
    const r = await s.api('/api/invites', { method: 'POST', token: body.secret });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('CREDENTIALS_NEED_SIGN_IN');
  });

  it('the admin token makes invites for any account, on the instance origin', async () => {
    const r = await s.api('/api/admin/invites', {
      json: { label: 'sam', expiresInDays: 7 },
      token: 'admin-secret',
    });
    expect(r.status).toBe(201);
    expect(r.body.label).toBe('sam');
    expect(Date.parse(r.body.expiresAt) - clock.now).toBe(7 * DAY_MS);
    const sam = new SoftAuthenticator(s.url);
    const reg = await register(s, sam, { code: r.body.code });
    expect(reg.verify?.body).toMatchObject({ verified: true, label: 'sam' });
    const bad = await s.api('/api/admin/invites', { json: { label: 'Sam Smith' }, token: 'admin-secret' });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('body.label');
    expect(
      (await s.api('/api/admin/invites', { json: {}, headers: browser(s.url, laptopCookie) })).status,
    ).toBe(401);
    const health = await s.api('/api/admin/health', { token: 'admin-secret' });
    expect(health.body).toMatchObject({ ok: true, setup: false, rpId: 'localhost', origin: null });
    const creds = await s.api('/api/admin/credentials', { token: 'admin-secret' });
    expect(creds.body.users.map((u: { label: string }) => u.label).sort()).toEqual(['sam', 'user']);
    expect(JSON.stringify(creds.body)).not.toContain('publicKey');
  });
});

describe('devices', () => {
  it('a signed-in person adds a passkey on another device without an invite; the session stays the same', async () => {
    const tablet = new SoftAuthenticator(s.url);
    const avail = await s.api('/auth/register/available', { headers: browser(s.url, laptopCookie) });
    expect(avail.body).toEqual({ available: true, reason: 'add-device', label: 'user' });
    const r = await register(s, tablet, { nickname: 'Tablet' }, laptopCookie);
    expect(r.verify?.status, JSON.stringify(r.verify?.body)).toBe(200);
    expect(r.verify?.body.label).toBe('user');
    expect(r.cookie).toBeUndefined();
  });

  it('lists the account’s passkeys without keys or counters, flagging the current one', async () => {
    const r = await s.api('/api/credentials', { headers: browser(s.url, laptopCookie) });
    expect(r.status).toBe(200);
    const names = r.body.credentials.map((c: { nickname: string }) => c.nickname);
    expect(names).toContain('Laptop');
    expect(names).toContain('Phone');
    expect(names).toContain('Tablet');
    const ids = r.body.credentials.map((c: { id: string }) => c.id);
    expect(ids).not.toContain(s.inst.auth.passkeys.user('sam')?.credentials[0].id); // another account's
    for (const c of r.body.credentials) {
      expect(Object.keys(c).sort()).toEqual([
        'backedUp',
        'current',
        'deviceType',
        'id',
        'lastUsedAt',
        'nickname',
        'registeredAt',
      ]);
    }
    expect(
      r.body.credentials
        .filter((c: { current: boolean }) => c.current)
        .map((c: { nickname: string }) => c.nickname),
    ).toEqual(['Laptop']);
  });

  it('removing a passkey ends the sessions that signed in with it, and only those', async () => {
    const phone = new SoftAuthenticator(s.url);
    const { body } = await invite(laptopCookie);
    const reg = await register(s, phone, { code: body.code, nickname: 'Old phone' });
    const phoneCookie = reg.cookie as string;
    const again = await signIn(s, phone);
    expect((await s.api('/api/instance', { headers: browser(s.url, phoneCookie) })).status).toBe(200);
    const id = phone.credentials[0].id.toString('base64url');
    const del = await s.api(`/api/credentials/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      headers: browser(s.url, laptopCookie),
    });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true, id, endedSessions: 2, signedOut: false });
    expect((await s.api('/api/instance', { headers: browser(s.url, phoneCookie) })).status).toBe(401);
    expect((await s.api('/api/instance', { headers: browser(s.url, again.cookie) })).status).toBe(401);
    expect((await s.api('/api/instance', { headers: browser(s.url, laptopCookie) })).status).toBe(200);
    expect((await signIn(s, phone)).verify.body.code).toBe('UNKNOWN_PASSKEY');
  });

  it('removing one’s own current passkey signs out; someone else’s passkey is a 404', async () => {
    const sam = s.inst.auth.passkeys.user('sam')?.credentials[0].id as string;
    const other = await s.api(`/api/credentials/${encodeURIComponent(sam)}`, {
      method: 'DELETE',
      headers: browser(s.url, laptopCookie),
    });
    expect(other.status).toBe(404);
    // a second laptop session removes the laptop's passkey: both laptop sessions end
    const laptopAgain = await signIn(s, laptop);
    const laptopId = laptop.credentials[0].id.toString('base64url');
    const del = await s.api(`/api/credentials/${encodeURIComponent(laptopId)}`, {
      method: 'DELETE',
      headers: browser(s.url, laptopAgain.cookie),
    });
    expect(del.status).toBe(200);
    expect(del.body.signedOut).toBe(true);
    expect(del.headers.getSetCookie().join()).toMatch(/klebb_session=;/);
    expect((await s.api('/api/instance', { headers: browser(s.url, laptopCookie) })).status).toBe(401);
    expect((await s.api('/api/instance', { headers: browser(s.url, laptopAgain.cookie) })).status).toBe(401);
  });

  it('refuses to remove an account’s last passkey (409), so nobody locks themselves out', async () => {
    const sam = new SoftAuthenticator(s.url);
    const r = await s.api('/api/admin/invites', { json: { label: 'alex' }, token: 'admin-secret' });
    const reg = await register(s, sam, { code: r.body.code });
    const id = sam.credentials[0].id.toString('base64url');
    const del = await s.api(`/api/credentials/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      headers: browser(s.url, reg.cookie),
    });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('LAST_PASSKEY');
    expect((await s.api('/api/instance', { headers: browser(s.url, reg.cookie) })).status).toBe(200);
    expect(s.inst.auth.passkeys.user('alex')?.credentials).toHaveLength(1);
  });
});
