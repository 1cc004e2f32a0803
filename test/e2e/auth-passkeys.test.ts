/**
 * Passkeys in Debian's Chromium with the DevTools virtual authenticator, against the real server
 * at http://localhost:<port>:
 * - first run: the one-time setup link registers the first passkey and opens Today; the session
 *   cookie is HttpOnly, SameSite=Lax, Path=/, not Secure over HTTP, and lasts 30 days; this
 *   machine's credential-less allowance is over;
 * - Settings › Security lists the passkey; a read-only agent token made there reads and gets
 *   403 on a write;
 * - "Add a device": the invite link, opened in a second browser with its own authenticator,
 *   registers a second passkey; removing it there ends that browser's session (it lands on
 *   /login); removing the last one is refused with the server's message;
 * - signing out and back in with the passkey; a page asked for signed out goes to /login and
 *   back to it afterwards;
 * - no console error, exception or failed request; screenshots of the sign-in and Security pages.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  DESKTOP,
  launchBrowser,
  PHONE,
  screenshot,
  settled,
  type TestBrowser,
  type WatchedPage,
} from './browser.js';
import { addPasskeyAuthenticator } from './virtual-authenticator.js';

let s: TestServer;
/** The server as the browser reaches it: WebAuthn needs a host name (localhost), not 127.0.0.1. */
let base: string;
let laptop: TestBrowser | undefined;
let phone: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];

/** A new tab with a virtual platform authenticator (user verification on, resident keys). */
async function tab(b: TestBrowser | undefined, viewport = DESKTOP): Promise<WatchedPage> {
  if (!b) throw launchError ?? new Error('Chromium was not started');
  const w = await b.newPage(viewport);
  pages.push(w);
  await addPasskeyAuthenticator(w.page);
  return w;
}

async function onToday(page: Page): Promise<void> {
  await page.waitForURL(`${base}/`);
  await settled(page);
  expect(await page.locator('main h1').first().textContent()).toContain('Today');
}

beforeAll(async () => {
  s = await startServer();
  base = s.url.replace('127.0.0.1', 'localhost');
  try {
    laptop = await launchBrowser();
    phone = await launchBrowser();
  } catch (err) {
    launchError = err as Error;
  }
});

afterEach(async () => {
  const problems = pages.flatMap((w) => w.problems.splice(0));
  expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
});

afterAll(async () => {
  for (const w of pages.splice(0)) await w.page.close().catch(() => {});
  await laptop?.close();
  await phone?.close();
  await s?.close();
});

describe('passkeys in Chromium', { timeout: 120_000 }, () => {
  let lap: WatchedPage;
  let ph: WatchedPage;

  it('a wrong or stale setup link says it is not valid and points to the server log', async () => {
    const w = await tab(laptop);
    const alert = w.page.getByRole('alert');
    const notValid = /This setup link is not valid.*restarted.*server log/;
    // a wrong code pasted over the open /setup page (only the fragment changes)
    await w.page.goto(`${base}/setup`);
    await w.page.getByText('Open the one-time setup link').waitFor();
    await w.page.goto(`${base}/setup#code=wrongcode`);
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(notValid);
    expect(await w.page.getByText('Open the one-time setup link').count()).toBe(0);
    // a link from before a restart: its code is no longer the server's (a restart issues a new one)
    const stale = new URL(s.inst.auth.setupLink() as string).hash;
    s.inst.auth.setup.issue();
    const fresh = await tab(laptop);
    await fresh.page.goto(`${base}/setup${stale}`);
    await fresh.page.getByRole('alert').waitFor();
    expect(await fresh.page.getByRole('alert').textContent()).toMatch(notValid);
    expect(await fresh.page.getByRole('button', { name: 'Create a passkey' }).count()).toBe(0);
    await w.page.close();
    await fresh.page.close();
  });

  it('first run: the setup link registers the first passkey and opens Today with a session cookie', async () => {
    lap = await tab(laptop);
    const link = s.inst.auth.setupLink() as string;
    expect(link).toBeTruthy();
    const code = new URL(link).hash;
    await lap.page.goto(`${base}/setup${code}`);
    await lap.page.getByRole('heading', { name: 'Set up your first passkey' }).waitFor();
    await screenshot(lap.page, 'auth-setup-desktop');
    await lap.page.getByLabel('Name this device (optional)').fill('Laptop');
    await lap.page.getByRole('button', { name: 'Create a passkey' }).click();
    await onToday(lap.page);

    const cookies = await laptop?.context.cookies(base);
    const session = cookies?.find((c) => c.name === 'klebb_session');
    expect(session).toBeDefined();
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    const days = ((session?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    expect(s.inst.auth.setupLink()).toBeNull();
    expect((await s.api('/api/manifests')).status).toBe(401);
  });

  it('Settings › Security lists the passkey; a read-only token made there reads but cannot write', async () => {
    await lap.page.goto(`${base}/settings`);
    await settled(lap.page);
    await lap.page.getByRole('link', { name: /Security/ }).click();
    await lap.page.waitForURL(`${base}/settings/security`);
    const row = lap.page.locator('[aria-label="Your passkeys"] li');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.first().textContent()).toContain('Laptop');
    expect(await row.first().textContent()).toContain('This device');

    await lap.page.getByLabel('Name', { exact: true }).fill('reader');
    await lap.page.getByRole('button', { name: 'Create token' }).click();
    const secretBox = lap.page.locator('[data-new-token] input');
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^klebb_/);
    await lap.page.locator('[aria-label="Agent tokens"] li', { hasText: 'reader' }).waitFor();
    expect(await lap.page.locator('[aria-label="Agent tokens"] li').first().textContent()).toContain(
      'Read-only',
    );
    expect((await s.api('/api/manifests', { token: secret })).status).toBe(200);
    const write = await s.api('/api/settings/cards/welcome/disable', { method: 'POST', token: secret });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('READ_ONLY_TOKEN');
    await screenshot(lap.page, 'auth-security-desktop');
  });

  it('"Add a device": the invite link registers a passkey in another browser', async () => {
    await lap.page.getByRole('button', { name: 'Make an invite link' }).click();
    const invite = await lap.page.locator('[data-invite] input').inputValue();
    expect(invite).toMatch(new RegExp(`^${base}/register#code=user-`));

    ph = await tab(phone, PHONE);
    await ph.page.goto(invite);
    await ph.page.getByRole('heading', { name: 'Add this device' }).waitFor();
    // The heading shows before the invite is read; wait for the name it was made for.
    await expect
      .poll(() => ph.page.locator('.auth-card').textContent(), { timeout: 15_000 })
      .toContain('“user”');
    await screenshot(ph.page, 'auth-register-phone');
    await ph.page.getByLabel('Name this device (optional)').fill('Phone');
    await ph.page.getByRole('button', { name: 'Create a passkey' }).click();
    await onToday(ph.page);

    // the same link a second time is spent
    const again = await tab(phone, PHONE);
    await again.page.goto(invite);
    await again.page.getByText('already been used').waitFor();
    await again.page.close();

    await lap.page.reload();
    const rows = lap.page.locator('[aria-label="Your passkeys"] li');
    await expect.poll(() => rows.count()).toBe(2);
  });

  it('removing the phone’s passkey ends the phone’s session; the last passkey cannot be removed', async () => {
    const phoneRow = lap.page.locator('[aria-label="Your passkeys"] li', { hasText: 'Phone' });
    await phoneRow.getByRole('button', { name: 'Remove Phone' }).click();
    await phoneRow.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => lap.page.locator('[aria-label="Your passkeys"] li').count()).toBe(1);

    await ph.page.goto(`${base}/settings`);
    await ph.page.waitForURL(`${base}/login?next=%2Fsettings`);
    await ph.page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();

    const last = lap.page.locator('[aria-label="Your passkeys"] li').first();
    await last.getByRole('button', { name: 'Remove Laptop' }).click();
    await last.getByRole('button', { name: 'Remove', exact: true }).click();
    await last.getByRole('alert').waitFor();
    expect(await last.getByRole('alert').textContent()).toContain('Cannot remove your only passkey');
    // Chromium logs the refused request; it is the answer this test asked for
    const refused = lap.problems.findIndex((p) => p.includes('status of 409'));
    expect(refused).toBeGreaterThanOrEqual(0);
    lap.problems.splice(refused, 1);
  });

  it('signs out, and back in with the passkey, returning to the page asked for', async () => {
    await lap.page.getByRole('button', { name: 'Sign out' }).click();
    await lap.page.waitForURL(`${base}/login`);
    await lap.page.goto(`${base}/calendar`);
    await lap.page.waitForURL(`${base}/login?next=%2Fcalendar`);
    await screenshot(lap.page, 'auth-login-desktop');
    await lap.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await lap.page.waitForURL(`${base}/calendar`);
    await settled(lap.page);
    const lastUsed = s.inst.auth.passkeys.all().find((p) => p.nickname === 'Laptop')?.lastUsedAt;
    expect(lastUsed).not.toBeNull();
  });

  it('the sign-in page on a phone', async () => {
    const w = await tab(phone, PHONE);
    await w.page.goto(`${base}/login`);
    await w.page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    const box = await w.page.getByRole('button', { name: 'Sign in with a passkey' }).boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    await screenshot(w.page, 'auth-login-phone');
  });
});
