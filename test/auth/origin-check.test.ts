/**
 * The Origin check: a state-changing request carrying an Origin that is
 * not HEALTH_ORIGIN is refused with 403, whoever sends it; with HEALTH_ORIGIN unset, the loopback
 * origin the request came on is the one accepted. Reads and requests without Origin pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

describe('HEALTH_ORIGIN unset', () => {
  let s: TestServer;
  let cookie: string;
  beforeAll(async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: 'agent' } });
    cookie = (
      await register(s, new SoftAuthenticator(s.url), { code: codeOf(s.inst.auth.setupLink() as string) })
    ).cookie as string;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('accepts the loopback origin the request came on, refuses every other origin with 403', async () => {
    const port = new URL(s.url).port;
    const ok = await s.api('/api/settings/cards/welcome/disable', {
      method: 'POST',
      headers: browser(s.url, cookie),
    });
    expect(ok.status).toBe(200);
    for (const origin of [
      'https://evil.example',
      `http://localhost:${port}`,
      'http://127.0.0.1:1',
      'null',
      `https://127.0.0.1:${port}`,
    ]) {
      const r = await s.api('/api/settings/cards/welcome/enable', {
        method: 'POST',
        headers: browser(origin, cookie),
      });
      expect(r.status, origin).toBe(403);
      expect(r.body.code).toBe('BAD_ORIGIN');
    }
    expect(
      (await s.api('/api/manifests/welcome', { headers: browser(s.url, cookie) })).body.meta.enabled,
    ).toBe(false);
  });

  it('applies to bearer tokens and to the public sign-in routes too; reads and Origin-less requests pass', async () => {
    const evil = { origin: 'https://evil.example' };
    const w = await s.api('/api/settings/cards/welcome/enable', {
      method: 'POST',
      token: 'agent',
      headers: evil,
    });
    expect(w.status).toBe(403);
    expect((await s.api('/auth/login/options', { method: 'POST', headers: evil })).status).toBe(403);
    expect(
      (
        await s.api('/auth/logout', {
          method: 'POST',
          headers: { ...evil, cookie: `klebb_session=${cookie}` },
        })
      ).status,
    ).toBe(403);
    expect(
      (await s.api('/api/instance', { headers: { ...evil, cookie: `klebb_session=${cookie}` } })).status,
    ).toBe(200);
    expect(
      (await s.api('/api/settings/cards/welcome/enable', { method: 'POST', token: 'agent' })).status,
    ).toBe(200);
    // the session is still alive: the refused logout did nothing
    expect((await s.api('/api/instance', { headers: browser(s.url, cookie) })).status).toBe(200);
  });
});

describe('HEALTH_ORIGIN set', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({
      env: { AGENT_API_TOKEN: 'agent', HEALTH_ORIGIN: 'https://health.example.test' },
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('only that origin may change things, the loopback one included', async () => {
    const ok = await s.api('/api/settings/cards/welcome/disable', {
      method: 'POST',
      token: 'agent',
      headers: { origin: 'https://health.example.test' },
    });
    expect(ok.status).toBe(200);
    for (const origin of [
      s.url,
      'http://health.example.test',
      'https://health.example.test:8443',
      'https://evil.example',
    ]) {
      const r = await s.api('/api/settings/cards/welcome/enable', {
        method: 'POST',
        token: 'agent',
        headers: { origin },
      });
      expect(r.status, origin).toBe(403);
    }
  });
});
