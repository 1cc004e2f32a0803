/**
 * Demo mode, `KLEBB_DEMO=1`: "Enter the demo" signs in as `demo`;
 * passkey, invite, setup and token routes are 410; hiding cards and every other manifest change,
 * templates, uploads, export and import are 403 (test/auth/demo-closed.test.ts walks them all); chat answers a canned reply without calling out; `/api/instance` says demo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CHAT_REPLY } from '../../src/auth/demo-policy.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser } from './flows.js';

let s: TestServer;
let cookie: string;

beforeAll(async () => {
  // a chat endpoint nobody listens on: the demo must never call it
  s = await startServer({
    env: { KLEBB_DEMO: '1', CHAT_ENDPOINT_URL: 'http://127.0.0.1:9/v1/chat/completions' },
  });
});
afterAll(async () => {
  await s?.close();
});

const off = { 'x-forwarded-for': '203.0.113.9' };

describe('demo mode', () => {
  it('has no setup link; a visitor from elsewhere enters the demo with POST /auth/demo-login', async () => {
    expect(s.inst.auth.setupLink()).toBeNull();
    expect((await s.api('/auth/status', { headers: off })).body).toMatchObject({
      demo: true,
      authenticated: false,
    });
    expect((await s.api('/api/manifests', { headers: off })).status).toBe(401);
    const r = await s.api('/auth/demo-login', { method: 'POST', headers: { ...off, origin: s.url } });
    expect(r.status).toBe(200);
    cookie = /klebb_session=([^;]+)/.exec(r.headers.getSetCookie().join())?.[1] as string;
    expect(cookie).toBeTruthy();
    const h = { ...off, ...browser(s.url, cookie) };
    expect((await s.api('/auth/status', { headers: h })).body).toMatchObject({
      authenticated: true,
      kind: 'session',
      label: 'demo',
    });
    expect((await s.api('/api/instance', { headers: h })).body.demo).toBe(true);
    expect((await s.api('/api/manifests', { headers: h })).status).toBe(200);
  });

  it('passkey, invite and token routes are 410', async () => {
    const h = { ...off, ...browser(s.url, cookie) };
    const gone = [
      await s.api('/auth/register/options', { json: {}, headers: h }),
      await s.api('/auth/login/options', { method: 'POST', headers: h }),
      await s.api('/api/credentials', { headers: h }),
      await s.api('/api/invites', { method: 'POST', headers: h }),
      await s.api('/api/tokens', { headers: h }),
      await s.api('/api/tokens', { json: { name: 'x', access: 'write' }, headers: h }),
    ];
    expect(gone.map((r) => r.status)).toEqual([410, 410, 410, 410, 410, 410]);
    expect((await s.api('/auth/register/available', { headers: h })).status).toBe(410);
  });

  it('hiding cards, any other manifest change and making cards from templates are 403', async () => {
    const h = { ...off, ...browser(s.url, cookie) };
    expect((await s.api('/api/settings/cards/welcome/disable', { method: 'POST', headers: h })).status).toBe(
      403,
    );
    const patch = await s.api('/api/manifests/welcome', {
      method: 'PATCH',
      json: { meta: { enabled: false } },
      headers: h,
    });
    expect(patch.status).toBe(403);
    expect(patch.body.code).toBe('DEMO_MODE');
    expect((await s.api('/api/manifests/welcome', { headers: h })).body.meta.enabled).not.toBe(false);
    const rename = await s.api('/api/manifests/welcome', {
      method: 'PATCH',
      json: { meta: { label: 'Hello' } },
      headers: h,
    });
    // closed by default: a visitor may log, not change the card the next visitor sees
    expect([rename.status, rename.body.code]).toEqual([403, 'DEMO_MODE']);
  });

  it('chat answers a canned reply (buffered and streamed) without calling the model', async () => {
    const h = { ...off, ...browser(s.url, cookie) };
    expect((await s.api('/api/chat/status', { headers: h })).body).toEqual({ configured: true, demo: true });
    const r = await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'hi' }] }, headers: h });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ reply: DEMO_CHAT_REPLY });
    const st = await s.api('/api/chat', {
      json: { messages: [{ role: 'user', content: 'hi' }], stream: true },
      headers: h,
    });
    expect(st.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(st.text).toContain('event: reply');
    expect(st.text).toContain('event: done');
  });

  it('outside demo mode, /auth/demo-login does not exist', async () => {
    const plain = await startServer();
    try {
      expect((await plain.api('/auth/demo-login', { method: 'POST' })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
