/**
 * Settings › Data in Chromium: choose an archive, see what it holds per card with row counts,
 * untick a card, continue (the server checks the choice; an empty one is said so and nothing
 * asks for REPLACE), type REPLACE (the Import button stays off until then), import, and roll back;
 * the snapshot taken before the import is listed with Restore. Screenshot:
 * __screenshots__/settings-data-preview.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, screenshot, type TestBrowser } from './browser.js';

const T = 'settings-data-token';
let src: TestServer;
let s: TestServer;
let browser: TestBrowser;
let archive: Buffer;

const card = (id: string, label: string, n: number) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label, writeable: { fromWebapp: true } },
  data: Array.from({ length: n }, (_, i) => ({ date: '2026-04-01', v: i })),
});
const ids = async () =>
  (await s.api('/api/manifests', { token: T })).body.entries.map((e: { id: string }) => e.id).sort();

beforeAll(async () => {
  src = await startServer({ env: { AGENT_API_TOKEN: T } });
  await src.api('/api/manifests', { token: T, json: card('sleep', 'Sleep', 12) });
  await src.api('/api/manifests', { token: T, json: card('steps', 'Steps', 1500) });
  const res = await fetch(`${src.url}/api/export`, { headers: { authorization: `Bearer ${T}` } });
  archive = Buffer.from(await res.arrayBuffer());
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  await s.api('/api/manifests', { token: T, json: card('bp', 'Blood pressure', 40) });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await src?.close();
  await s?.close();
});

describe('Settings › Data', () => {
  it('imports an archive behind REPLACE and rolls it back', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${s.url}/settings`);
    const panel = page.locator('#data');
    await panel.waitFor();
    expect(await panel.locator('a', { hasText: 'Download everything' }).getAttribute('href')).toBe(
      '/api/export',
    );
    await panel
      .locator('label', { hasText: 'Import an archive' })
      .locator('input[type=file]')
      .setInputFiles({ name: 'home.zip', mimeType: 'application/zip', buffer: archive });
    const preview = panel.locator('.data-preview');
    await preview.waitFor();
    expect(
      await preview
        .locator('.data-cards')
        .first()
        .locator('li')
        .evaluateAll((els) => els.map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim())),
    ).toEqual(['Sleep 12 rows', 'Steps 1,500 rows', '👋 Welcome to Klebb 1 row']);
    await preview.locator('li', { hasText: 'Welcome' }).locator('input').uncheck();
    // nothing asks for REPLACE before the choice is checked
    expect(await preview.locator('.data-replace').count()).toBe(0);
    expect(await preview.getByRole('button', { name: 'Import' }).count()).toBe(0);
    await preview.getByRole('button', { name: 'Continue' }).click();
    const importButton = preview.getByRole('button', { name: 'Import' });
    await importButton.waitFor();
    expect(await importButton.isDisabled()).toBe(true);
    await preview.locator('.data-replace input').fill('REPLACE');
    await screenshot(page, 'settings-data-preview');
    expect(await importButton.isDisabled()).toBe(false);
    await importButton.click();
    await panel.locator('.data-status', { hasText: 'Imported.' }).waitFor({ timeout: 20_000 });
    expect(await ids()).toEqual(['sleep', 'steps']);
    await panel
      .locator('.data-snapshots li', { hasText: 'pre-import' })
      .getByRole('button', { name: 'Restore' })
      .waitFor();

    await panel.getByRole('button', { name: 'Roll back' }).click();
    await panel.locator('.data-status', { hasText: 'Rolled back.' }).waitFor({ timeout: 20_000 });
    expect(await ids()).toEqual(['bp', 'welcome']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('an empty choice is said so before anything asks for REPLACE; another choice is checked again', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${s.url}/settings`);
    const panel = page.locator('#data');
    await panel
      .locator('label', { hasText: 'Import an archive' })
      .locator('input[type=file]')
      .setInputFiles({ name: 'home.zip', mimeType: 'application/zip', buffer: archive });
    const preview = panel.locator('.data-preview');
    await preview.waitFor();
    for (const box of await preview.locator('input[type=checkbox]').all()) await box.uncheck();
    await preview.getByRole('button', { name: 'Continue' }).click();
    await panel.getByText('Nothing is chosen').waitFor();
    expect(await preview.locator('.data-replace').count()).toBe(0);
    expect(await preview.getByRole('button', { name: 'Import' }).count()).toBe(0);
    // a valid choice reaches the confirm step; changing it goes back to Continue
    await preview.locator('li', { hasText: 'Sleep' }).locator('input').check();
    await preview.getByRole('button', { name: 'Continue' }).click();
    await preview.locator('.data-replace input').waitFor();
    expect(await panel.getByText('Nothing is chosen').count()).toBe(0);
    await preview.locator('li', { hasText: 'Steps' }).locator('input').check();
    expect(await preview.locator('.data-replace').count()).toBe(0);
    expect(await preview.getByRole('button', { name: 'Continue' }).count()).toBe(1);
    await preview.getByRole('button', { name: 'Cancel' }).click();
    await preview.waitFor({ state: 'detached' });
    expect(await ids()).toEqual(['bp', 'welcome']);
    expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
  });

  it("a file that is not a zip gets one plain sentence, not the unzip library's words", async () => {
    const { page } = await browser.newPage();
    await page.goto(`${s.url}/settings`);
    const panel = page.locator('#data');
    await panel.waitFor();
    await panel
      .locator('label', { hasText: 'Import an archive' })
      .locator('input[type=file]')
      .setInputFiles({
        name: 'notes.zip',
        mimeType: 'application/zip',
        buffer: Buffer.from('hello, not a zip'),
      });
    const note = panel.locator('.state-error');
    await note.waitFor();
    expect((await note.textContent())?.trim()).toBe('This file is not a Klebb export (not a zip archive).');
    expect(await ids()).toEqual(['bp', 'welcome']);
    await page.close();
  });

  it('the text of the links and file choosers drawn as buttons sits in their vertical middle', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${s.url}/settings`);
    const panel = page.locator('#data');
    await panel.waitFor();
    const offsets = await panel.locator('.data-actions .button').evaluateAll((els) =>
      els.map((el) => {
        const box = el.getBoundingClientRect();
        const range = document.createRange();
        const text = [...el.childNodes].find((n) => n.nodeType === 3 && (n.textContent ?? '').trim());
        if (!text) return { label: el.textContent, offset: Number.NaN };
        range.selectNodeContents(text);
        const t = range.getBoundingClientRect();
        const offset = t.top + t.height / 2 - (box.top + box.height / 2);
        return { label: (el.textContent ?? '').trim(), offset: Math.round(Math.abs(offset)) };
      }),
    );
    expect(offsets.length).toBeGreaterThanOrEqual(3);
    for (const o of offsets) expect(o.offset, o.label ?? '').toBeLessThanOrEqual(2);
    await page.close();
  });
});
