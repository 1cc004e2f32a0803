import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, isLoopbackAddress } from '../../src/auth/principal.js';
import { safeEqual } from '../../src/auth/safe-equal.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'the-right-token-0123456789';

describe('bearer auth over HTTP', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: T } });
  });
  afterAll(async () => {
    await s.close();
  });

  it('accepts the right bearer', async () => {
    const r = await s.api('/api/manifests', { token: T });
    expect(r.status).toBe(200);
  });

  it.each(['wrong', `${T}x`, T.slice(0, -1), ''])(
    'a wrong bearer %j is 401 even from loopback',
    async (tok) => {
      const r = await s.api('/api/manifests', { headers: { authorization: `Bearer ${tok}` } });
      expect(r.status).toBe(401);
      expect(r.body.error).toMatch(/^Unauthorized/);
    },
  );

  it('a wrong bearer cannot write', async () => {
    const r = await s.api('/api/manifests', {
      headers: { authorization: 'Bearer nope' },
      json: { $schema: 'klebb.datafile.v1', meta: { id: 'x', label: 'x' } },
    });
    expect(r.status).toBe(401);
    expect((await s.api('/api/manifests/x', { token: T })).status).toBe(404);
  });

  it('no credentials from loopback is allowed, but not through a proxy', async () => {
    expect((await s.api('/api/manifests')).status).toBe(200);
    const proxied = await s.api('/api/manifests', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(401);
    const forwarded = await s.api('/api/manifests', { headers: { forwarded: 'for=203.0.113.9' } });
    expect(forwarded.status).toBe(401);
  });

  it('a wrong bearer on an unknown /api path is still 401, and /healthz is public', async () => {
    expect((await s.api('/api/nothing-here', { headers: { authorization: 'Bearer nope' } })).status).toBe(
      401,
    );
    expect((await s.api('/healthz', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(200);
  });

  it('GET /api/instance names the chat agent', async () => {
    const r = await s.api('/api/instance', { token: T });
    expect(r.body).toEqual({
      name: 'Klebb',
      chatAgent: { name: 'Chat', emoji: '💬' },
      demo: false,
      cloud: false,
    });
  });
});

describe('authenticate()', () => {
  it('refuses no credentials from a non-loopback address', () => {
    expect(() => authenticate({}, '192.0.2.10', T)).toThrow('Unauthorized');
    expect(() => authenticate({}, '::ffff:10.0.0.1', T)).toThrow('Unauthorized');
    const local = { host: 'localhost:8080' };
    expect(authenticate(local, '::ffff:127.0.0.1', T).kind).toBe('local');
    expect(authenticate({ host: '[::1]:8080' }, '::1', undefined).kind).toBe('local');
    expect(() => authenticate(local, '127.0.0.1', T, false)).toThrow('Unauthorized');
  });

  it('accepts the bearer from anywhere and refuses any bearer when no token is configured', () => {
    expect(authenticate({ authorization: `Bearer ${T}` }, '198.51.100.7', T).kind).toBe('agent-token');
    expect(() => authenticate({ authorization: `Bearer ${T}` }, '127.0.0.1', undefined)).toThrow(
      'Unauthorized',
    );
    expect(() => authenticate({ authorization: `Basic ${T}` }, '127.0.0.1', T)).toThrow('Unauthorized');
  });

  it('loopback detection', () => {
    expect(isLoopbackAddress('127.8.9.10')).toBe(true);
    expect(isLoopbackAddress('128.0.0.1')).toBe(false);
    expect(isLoopbackAddress('::2')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });

  it('safeEqual compares whole strings', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});

describe('a credential-less request must really be local (case H4 of the newcomer pass)', () => {
  const at = (headers: Record<string, string>) => () =>
    authenticate({ host: 'localhost:8080', ...headers }, '127.0.0.1', T);
  it('refuses a cross-site browser request, a foreign Origin and a rebinding Host', () => {
    expect(at({ origin: 'https://evil.example' })).toThrow('Unauthorized');
    expect(at({ 'sec-fetch-site': 'cross-site' })).toThrow('Unauthorized');
    expect(at({ host: 'evil.example' })).toThrow('Unauthorized');
    expect(at({ origin: 'null' })).toThrow('Unauthorized');
    expect(at({ origin: 'http://localhost:8080', 'sec-fetch-site': 'same-origin' })().kind).toBe('local');
  });
  it('says why a request from this machine was not trusted, so a proxy set-up is not guesswork', () => {
    expect(at({ 'x-forwarded-for': '1.2.3.4' })).toThrow(/came through a proxy.*X-Forwarded-For.*Bearer/);
    expect(at({ host: 'evil.example' })).toThrow(/loopback Host/);
    // from elsewhere, or with loopback trust off, the plain word
    expect(() => authenticate({ host: 'localhost' }, '192.0.2.10', T)).toThrow(/^Unauthorized$/);
    expect(() =>
      authenticate({ host: 'localhost', 'x-forwarded-for': '1.2.3.4' }, '127.0.0.1', T, false),
    ).toThrow(/^Unauthorized$/);
  });
  it.each(['via', 'x-client-ip', 'cf-connecting-ip', 'true-client-ip', 'x-forwarded-port'])(
    'refuses proxy header %s',
    (h) => {
      expect(at({ [h]: '1' })).toThrow('Unauthorized');
    },
  );
});
