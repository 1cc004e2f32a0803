/**
 * A real deployment's sign-in path: Chromium opens Klebb at https://klebb.test:<port> through
 * Debian's nginx running deploy/nginx/klebb.conf (a certificate made here, trusted by its key's
 * fingerprint), registers the first passkey from the one-time setup link, signs out and signs in
 * again with it. The session cookie is Secure (HEALTH_ORIGIN is https) and the auth log names
 * the browser's address as nginx passed it on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, settled, type TestBrowser, type WatchedPage } from '../e2e/browser.js';
import { addPasskeyAuthenticator } from '../e2e/virtual-authenticator.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { freePort, startNginx, TEST_HOST, type TestNginx } from './nginx-harness.js';

let s: TestServer;
let ngx: TestNginx;
let browser: TestBrowser;
let origin: string;

beforeAll(async () => {
  // HEALTH_ORIGIN names nginx's port, so that port is chosen first and given to nginx
  const httpsPort = await freePort();
  origin = `https://${TEST_HOST}:${httpsPort}`;
  s = await startServer({
    env: { HEALTH_ORIGIN: origin, HEALTH_RP_ID: TEST_HOST, KLEBB_TRUSTED_PROXIES: '127.0.0.1' },
  });
  ngx = await startNginx({ mapLines: [`${TEST_HOST} 127.0.0.1:${new URL(s.url).port};`], httpsPort });
  browser = await launchBrowser({
    args: [
      `--host-resolver-rules=MAP ${TEST_HOST} 127.0.0.1`,
      `--ignore-certificate-errors-spki-list=${ngx.cert.spki}`,
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await ngx?.close();
  await s?.close();
});

async function tabWithAuthenticator(): Promise<WatchedPage> {
  const w = await browser.newPage();
  await addPasskeyAuthenticator(w.page);
  return w;
}

function authLog(): { event: string; address?: string }[] {
  const file = path.join(s.home, 'sessions', 'auth-events.log');
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('passkeys through nginx over HTTPS', { timeout: 120_000 }, () => {
  it('registers the first passkey from the setup link, signs out and signs in again', async () => {
    const w = await tabWithAuthenticator();
    const code = new URL(s.inst.auth.setupLink() as string).hash;
    await w.page.goto(`${origin}/setup${code}`);
    await w.page.getByRole('heading', { name: 'Set up your first passkey' }).waitFor();
    await w.page.getByLabel('Name this device (optional)').fill('Phone');
    await w.page.getByRole('button', { name: 'Create a passkey' }).click();
    await w.page.waitForURL(`${origin}/`);
    await settled(w.page);

    const cookie = (await browser.context.cookies(origin)).find((c) => c.name === 'klebb_session');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
    expect(s.inst.auth.setupLink()).toBeNull();

    // sign out, then back in with the same passkey
    const beforeSignOut = w.problems.length;
    const out = await w.page.evaluate(async () => (await fetch('/auth/logout', { method: 'POST' })).status);
    expect(out).toBe(200);
    // The signed-out app may already be sending itself to /login, which aborts this navigation;
    // either way the page must end up on the sign-in page.
    await w.page.goto(`${origin}/`).catch((err: Error) => {
      if (!err.message.includes('net::ERR_ABORTED')) throw err;
    });
    await w.page.waitForURL(/\/login/);
    // The signed-out app learns it is signed out from a refused request of its own (a card list
    // refresh in flight), which the browser logs; that 401 is how it finds the way to sign-in.
    const whileSignedOut = w.problems.splice(beforeSignOut);
    expect(whileSignedOut.every((p) => p.includes('status of 401'))).toBe(true);
    await w.page
      .getByRole('button', { name: /Sign in/ })
      .first()
      .click();
    await w.page.waitForURL(`${origin}/`);
    await settled(w.page);
    expect(await w.page.locator('main h1').first().textContent()).toContain('Today');

    const events = authLog();
    const registered = events.find((e) => e.event === 'passkey-registered');
    const login = events.find((e) => e.event === 'login');
    expect(registered?.address).toBe('127.0.0.1');
    expect(login?.address).toBe('127.0.0.1');
    expect(w.problems).toEqual([]);
  });
});
