/**
 * Settings › Data: a snapshot the server refuses (its backups folder on a read-only disk: 503
 * NOT_SAVED) leaves the keyboard's focus on "Take a snapshot now", in Chromium against the real
 * server and a real read-only mount. The button was disabled while the snapshot was taken, and a
 * focused button that is disabled drops the focus to the page: a keyboard or screen-reader user
 * heard the refusal and was left at the top of the page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { canMountTmpfs, mountTmpfs, unmountAll } from '../helpers/small-disk.js';
import { launchBrowser, type TestBrowser } from './browser.js';
import { focusedName } from './focus.js';

let s: TestServer | undefined;
let browser: TestBrowser | undefined;

beforeAll(async () => {
  if (!canMountTmpfs()) return;
  s = await startServer({});
  browser = await launchBrowser();
});
afterAll(async () => {
  unmountAll();
  await browser?.close();
  await s?.close();
});

describe('a refused snapshot', { timeout: 90_000 }, () => {
  it.runIf(canMountTmpfs())('leaves the focus on "Take a snapshot now"', async () => {
    const server = s as TestServer;
    const backups = path.join(server.home, 'backups');
    fs.mkdirSync(backups, { recursive: true });
    mountTmpfs(backups, { readOnly: true });
    const w = await (browser as TestBrowser).newPage();
    await w.page.goto(`${server.url}/settings`);
    const panel = w.page.locator('#data');
    await panel.waitFor();
    const take = panel.getByRole('button', { name: 'Take a snapshot now' });
    await take.focus();
    await w.page.keyboard.press('Enter');
    await panel.getByRole('alert').filter({ hasText: 'read-only' }).waitFor();
    expect(await focusedName(w)).toBe('Take a snapshot now');
    expect((await server.api('/api/backups')).body.snapshots).toEqual([]);
    // the browser logs the refusal it was meant to get; anything else fails the test
    expect(w.problems.filter((p) => !(p.includes('status of 503') && p.includes('/api/backups')))).toEqual(
      [],
    );
    await w.page.close();
  });
});
