/**
 * Behind a default reverse proxy (nginx `proxy_pass http://127.0.0.1:...`, Host rewritten, no
 * X-Forwarded-For) every visitor reaches Klebb from loopback:
 * (a) with a public HEALTH_ORIGIN the credential-less loopback allowance is off unless
 *     KLEBB_TRUST_LOOPBACK=1; (b) a `local` principal never mints named tokens, so none can
 *     outlive the first passkey.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** What nginx sends by default: Host rewritten to the upstream, no forwarding header. */
const proxied = (port: string) => ({ host: `127.0.0.1:${port}` });

describe('loopback allowance with a public HEALTH_ORIGIN', () => {
  it('is off by default, on only when KLEBB_TRUST_LOOPBACK is set on', () => {
    expect(loadConfig({ HEALTH_ORIGIN: 'https://health.example.org' }).trustLoopback).toBe(false);
    expect(
      loadConfig({ HEALTH_ORIGIN: 'https://health.example.org', KLEBB_TRUST_LOOPBACK: '1' }).trustLoopback,
    ).toBe(true);
    expect(loadConfig({ HEALTH_ORIGIN: 'http://localhost:8080' }).trustLoopback).toBe(true);
    expect(loadConfig({}).trustLoopback).toBe(true);
  });

  it('a proxied stranger gets 401, not the local principal, and mints no token', async () => {
    s = await startServer({ env: { HEALTH_ORIGIN: 'https://health.example.org' } });
    const port = new URL(s.url).port;
    expect((await s.api('/api/manifests', { headers: proxied(port) })).status).toBe(401);
    const r = await s.api('/api/tokens', { json: { name: 'mine', access: 'write' }, headers: proxied(port) });
    expect(r.status).toBe(401);
    expect(s.inst.auth.tokens.list()).toHaveLength(0);
  });
});

describe('a local principal (no credentials) cannot mint access', () => {
  it('POST /api/tokens and POST /api/invites are refused with 403 and nothing is stored', async () => {
    s = await startServer();
    expect((await s.api('/api/manifests')).status).toBe(200); // still local: the dashboard opens
    const t = await s.api('/api/tokens', { json: { name: 'cron', access: 'write' } });
    expect(t.status).toBe(403);
    expect(t.body.code).toBe('PERSON_REQUIRED');
    // nor list them (API.md: the token routes need a passkey session)
    const list = await s.api('/api/tokens');
    expect([list.status, list.body.code]).toEqual([403, 'PERSON_REQUIRED']);
    const i = await s.api('/api/invites', { method: 'POST' });
    expect(i.status).toBe(403);
    expect(s.inst.auth.tokens.list()).toHaveLength(0);
  });
});

describe('any common forwarding header makes a loopback request proxied, not local', () => {
  it.each([
    'x-forwarded-server',
    'x-forwarded-ssl',
    'fastly-client-ip',
    'x-cluster-client-ip',
    'forwarded',
    'x-real-ip',
    'true-client-ip',
    'cf-connecting-ip',
    'x-client-ip',
    'via',
  ])('%s → 401 on this machine without credentials', async (h) => {
    s = await startServer();
    expect((await s.api('/api/manifests')).status).toBe(200);
    const r = await s.api('/api/manifests', { headers: { [h]: '203.0.113.7' } });
    expect([h, r.status, r.body?.code]).toEqual([h, 401, 'UNAUTHORIZED']);
  });
});
