/**
 * Session lifetime (30 days): a session works until 30 days after sign-in, then the
 * cookie is refused; the sessions file keeps digests only and survives a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

const DAY_MS = 24 * 3600_000;
const clock = { now: Date.parse('2026-04-01T08:00:00Z') };
let s: TestServer;
let cookie: string;

beforeAll(async () => {
  s = await startServer({ auth: { now: () => clock.now } });
  cookie = (
    await register(s, new SoftAuthenticator(s.url), { code: codeOf(s.inst.auth.setupLink() as string) })
  ).cookie as string;
});
afterAll(async () => {
  await s?.close();
});

describe('sessions', () => {
  it('last 30 days from sign-in', async () => {
    const start = clock.now;
    clock.now = start + 30 * DAY_MS - 60_000;
    expect((await s.api('/api/instance', { headers: browser(s.url, cookie) })).status).toBe(200);
    clock.now = start + 30 * DAY_MS + 1;
    expect((await s.api('/api/instance', { headers: browser(s.url, cookie) })).status).toBe(401);
    clock.now = start;
  });

  it('survive a restart of the server', async () => {
    const home = s.home;
    await s.close({ keepHome: true });
    s = await startServer({ home, auth: { now: () => clock.now } });
    expect((await s.api('/api/instance', { headers: browser(s.url, cookie) })).status).toBe(200);
    // and the restarted server prints no setup link: a passkey exists
    expect(s.inst.auth.setupLink()).toBeNull();
  });
});
