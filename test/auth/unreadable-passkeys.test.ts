/**
 * An unreadable passkey file fails closed: it never counts as "no
 * passkeys", so neither the setup link nor the loopback allowance reopens, and nothing
 * overwrites it; an unreadable sessions file only means everyone signs in again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { register } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

let s: TestServer;
const TORN = '{"version":1,"users":{"user":{"userId":"x","credentials":[{"id":"a"';

beforeAll(async () => {
  s = await startServer({
    env: { KLEBB_ADMIN_TOKEN: 'admin' },
    before: (home) => {
      for (const dir of ['credentials', 'sessions']) fs.mkdirSync(path.join(home, dir), { recursive: true });
      fs.writeFileSync(path.join(home, 'credentials', 'webauthn.json'), TORN);
      fs.writeFileSync(path.join(home, 'sessions', 'webauthn.json'), 'not json');
    },
  });
});
afterAll(async () => {
  await s?.close();
});

describe('an unreadable passkey file', () => {
  it('keeps first-run registration and the loopback allowance shut', async () => {
    expect(s.inst.auth.passkeys.brokenReason).toMatch(/not JSON/);
    expect(s.inst.auth.setupLink()).toBeNull();
    expect((await s.api('/api/manifests')).status).toBe(401);
    expect((await s.api('/auth/status')).body).toMatchObject({ setup: false, authenticated: false });
  });

  it('is never overwritten: even a valid invite cannot register until it is fixed', async () => {
    const inv = await s.api('/api/admin/invites', { json: {}, token: 'admin' });
    const r = await register(s, new SoftAuthenticator(s.url), { code: inv.body.code });
    expect(r.verify?.status).toBe(503);
    expect(r.verify?.body.code).toBe('PASSKEYS_UNREADABLE');
    expect(fs.readFileSync(path.join(s.home, 'credentials', 'webauthn.json'), 'utf8')).toBe(TORN);
  });
});
