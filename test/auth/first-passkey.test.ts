/**
 * First run and sign-in over HTTP: the first passkey only with the one-time
 * setup link; then the loopback allowance ends, sessions are cookies stored hashed, sign-in and
 * sign-out work, pages redirect to /login, and every file is 0600 in a 0700 folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register, sessionSetCookie, signIn } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

let s: TestServer;
let phone: SoftAuthenticator;
let cookie: string | undefined;

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: 'agent-secret' } });
  phone = new SoftAuthenticator(s.url);
});
afterAll(async () => {
  await s?.close();
});

describe('before any passkey', () => {
  it('has a one-time setup link, says so in /auth/status, and lets this machine in without credentials', async () => {
    const link = s.inst.auth.setupLink();
    expect(link).toMatch(/^http:\/\/localhost:\d+\/setup#code=[A-Za-z0-9_-]{43}$/);
    const status = await s.api('/auth/status');
    expect(status.body).toMatchObject({
      setup: true,
      authenticated: true,
      kind: 'local',
      demo: false,
      name: 'Klebb',
    });
    expect((await s.api('/api/manifests')).status).toBe(200);
  });

  it('refuses to register without the setup code, and with a wrong one', async () => {
    const none = await register(s, phone);
    expect(none.options.status).toBe(403);
    expect(none.options.body.code).toBe('REGISTRATION_CLOSED');
    const wrong = await register(s, phone, { code: 'user-not-a-real-code' });
    expect(wrong.options.status).toBe(403);
    expect(wrong.options.body.code).toBe('INVITE_UNKNOWN');
    expect(s.inst.auth.hasPasskeys()).toBe(false);
    // a bad label is a 400 naming it, nothing registered
    const code = codeOf(s.inst.auth.setupLink() as string);
    const badLabel = await register(s, phone, { code, label: 'Not OK!' });
    expect(badLabel.options.status).toBe(400);
    expect(badLabel.options.body.details[0].path).toBe('body.label');
  });

  it('login options say there is nothing to sign in with yet', async () => {
    const r = await s.api('/auth/login/options', { method: 'POST', headers: browser(s.url) });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('NO_PASSKEYS');
  });
});

describe('the first passkey', () => {
  it('registers with the setup link and starts a session (HttpOnly, SameSite=Lax, Path=/, 30 days, not Secure over HTTP)', async () => {
    const code = codeOf(s.inst.auth.setupLink() as string);
    const r = await register(s, phone, { code, nickname: 'My phone' });
    expect(r.verify?.status, JSON.stringify(r.verify?.body)).toBe(200);
    expect(r.verify?.body).toMatchObject({ verified: true, label: 'user' });
    cookie = r.cookie;
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const line = sessionSetCookie(r.verify as never) as string;
    const attrs = line.split(';').map((a) => a.trim().toLowerCase());
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('path=/');
    expect(attrs).toContain('max-age=2592000');
    expect(attrs).not.toContain('secure');
  });

  it('ends the setup link and the loopback allowance', async () => {
    expect(s.inst.auth.setupLink()).toBeNull();
    const anon = await s.api('/api/manifests');
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
    expect((await s.api('/auth/status')).body).toMatchObject({
      setup: false,
      authenticated: false,
      kind: null,
    });
  });

  it('the session cookie opens the API, records the actor "web", and reads as signed in', async () => {
    const h = browser(s.url, cookie);
    expect((await s.api('/api/manifests', { headers: h })).status).toBe(200);
    expect((await s.api('/auth/status', { headers: h })).body).toMatchObject({
      authenticated: true,
      kind: 'session',
      label: 'user',
    });
    const card = {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'W', writeable: { fromWebapp: true } },
    };
    expect((await s.api('/api/manifests', { json: card, headers: h })).status).toBe(201);
    const w = await s.api('/api/manifests/w/data', {
      json: { data: [{ date: '2026-04-20', kg: 80 }] },
      headers: h,
    });
    expect(w.status).toBe(200);
    const last = s.inst.db
      .prepare("SELECT actor FROM changes WHERE card_id = 'w' ORDER BY id DESC LIMIT 1")
      .get() as { actor: string };
    expect(last.actor).toBe('web');
  });

  it('a second registration with the same setup code is refused', async () => {
    const again = await register(s, new SoftAuthenticator(s.url), { code: 'x'.repeat(43) });
    expect(again.options.status).toBe(403);
  });

  it('signs in again with the passkey, and signing out ends that session', async () => {
    const r = await signIn(s, phone);
    expect(r.verify.status, JSON.stringify(r.verify.body)).toBe(200);
    expect(r.verify.body).toEqual({ verified: true, label: 'user' });
    const h = browser(s.url, r.cookie);
    expect((await s.api('/api/instance', { headers: h })).status).toBe(200);
    const out = await s.api('/auth/logout', { method: 'POST', headers: h });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join()).toMatch(/klebb_session=;/);
    expect((await s.api('/api/instance', { headers: h })).status).toBe(401);
    // the first session is untouched
    expect((await s.api('/api/instance', { headers: browser(s.url, cookie) })).status).toBe(200);
    // the passkey's counter and last use were recorded
    const stored = s.inst.auth.passkeys.all()[0];
    expect(stored.counter).toBe(1);
    expect(stored.lastUsedAt).not.toBeNull();
    expect(stored.nickname).toBe('My phone');
  });

  it('a sign-in answer is good once: replaying it is refused', async () => {
    const options = await request(s.url, '/auth/login/options', { method: 'POST', headers: browser(s.url) });
    const response = phone.get(options.body);
    const first = await request(s.url, '/auth/login/verify', { json: { response }, headers: browser(s.url) });
    expect(first.status).toBe(200);
    const replay = await request(s.url, '/auth/login/verify', {
      json: { response },
      headers: browser(s.url),
    });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('CHALLENGE_EXPIRED');
  });

  it('a sign-in made for another origin does not verify', async () => {
    const elsewhere = new SoftAuthenticator('http://localhost:1');
    elsewhere.credentials.push(...phone.credentials);
    const options = await request(s.url, '/auth/login/options', { method: 'POST', headers: browser(s.url) });
    const r = await request(s.url, '/auth/login/verify', {
      json: { response: elsewhere.get(options.body) },
      headers: browser(s.url),
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VERIFICATION_FAILED');
    expect(r.headers.getSetCookie()).toEqual([]);
  });

  it('a page asked for without credentials goes to /login, which is public', async () => {
    const res = await fetch(`${s.url}/settings?tab=x`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/settings?tab=x')}`);
    for (const p of ['/login', '/setup', '/register']) {
      const page = await fetch(`${s.url}${p}`, { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect([200, 503], p).toContain(page.status); // 503 only when the web app is not built
    }
    // /api stays JSON 401, and a wrong bearer on a page is 401, not a redirect
    expect((await s.api('/api/manifests', { headers: { accept: 'text/html' } })).status).toBe(401);
    const wrong = await fetch(`${s.url}/settings`, {
      headers: { accept: 'text/html', authorization: 'Bearer nope' },
      redirect: 'manual',
    });
    expect(wrong.status).toBe(401);
  });

  it('keeps secrets hashed, in 0600 files inside 0700 folders', async () => {
    const creds = path.join(s.home, 'credentials');
    const sessions = path.join(s.home, 'sessions');
    expect(fs.statSync(creds).mode & 0o777).toBe(0o700);
    expect(fs.statSync(sessions).mode & 0o777).toBe(0o700);
    for (const f of [
      path.join(creds, 'webauthn.json'),
      path.join(sessions, 'webauthn.json'),
      path.join(sessions, 'auth-events.log'),
    ]) {
      expect(fs.statSync(f).mode & 0o777, f).toBe(0o600);
    }
    const sessionFile = fs.readFileSync(path.join(sessions, 'webauthn.json'), 'utf8');
    expect(sessionFile).not.toContain(cookie as string);
    const log = fs.readFileSync(path.join(sessions, 'auth-events.log'), 'utf8');
    expect(log).not.toContain(cookie as string);
    expect(log).toContain('"event":"passkey-registered"');
    expect(log).toContain('"event":"login"');
    // no temp files left behind by the atomic writes
    expect(fs.readdirSync(creds).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
