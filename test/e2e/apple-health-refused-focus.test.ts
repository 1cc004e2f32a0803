/**
 * Settings › Data › Apple Health: a file the server refuses (not a Health export) leaves the
 * keyboard's focus on the file chooser it was chosen with, in Chromium against the real server.
 * The chooser was disabled while the file was sent, and a focused control that is disabled drops
 * the focus to the page: a keyboard or screen-reader user heard the refusal and was left at the
 * top of the page. While busy it is aria-disabled and opens no chooser.
 */
import { describe, expect, it } from 'vitest';
import { serverAndBrowser } from './server-and-browser.js';

const { server, browser } = serverAndBrowser();

describe('a refused Apple Health file', { timeout: 90_000 }, () => {
  it('leaves the focus on the file chooser', async () => {
    const s = server();
    const w = await browser().newPage();
    await w.page.goto(`${s.url}/settings`);
    const box = w.page.locator('.apple-health-upload');
    const input = box.locator('input[type=file]');
    await input.waitFor({ state: 'attached' });
    await input.focus();
    await input.setInputFiles({
      name: 'export.xml',
      mimeType: 'text/xml',
      buffer: Buffer.from('this is a shopping list, not a Health export\n'),
    });
    await box.locator('[role=alert]').waitFor({ timeout: 30_000 });
    expect(
      await w.page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        return el?.closest('.apple-health-upload') && el.type === 'file' ? 'the file chooser' : 'elsewhere';
      }),
    ).toBe('the file chooser');
    // the browser logs the refusal it was meant to get; anything else fails the test
    const expected = (p: string) => /status of 4\d\d/.test(p) && p.includes('/api/apple-health/import');
    expect(w.problems.filter((p) => !expected(p))).toEqual([]);
    await w.page.close();
  });

  it('leaves the focus on the archive chooser when the archive is refused', async () => {
    const s = server();
    const w = await browser().newPage();
    await w.page.goto(`${s.url}/settings`);
    const panel = w.page.locator('#data');
    const input = panel.locator('label', { hasText: 'Import an archive' }).locator('input[type=file]');
    await input.waitFor({ state: 'attached' });
    await input.focus();
    await input.setInputFiles({
      name: 'home.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from('not a zip archive at all\n'),
    });
    await panel.locator('.state-error[role=alert]').first().waitFor({ timeout: 30_000 });
    expect(
      await w.page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        return el?.type === 'file' && el.accept.startsWith('.zip,application/zip')
          ? 'the archive chooser'
          : 'elsewhere';
      }),
    ).toBe('the archive chooser');
    const expected = (p: string) => /status of 4\d\d/.test(p) && p.includes('/api/import');
    expect(w.problems.filter((p) => !expected(p))).toEqual([]);
    await w.page.close();
  });
});
