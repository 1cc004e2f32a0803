/**
 * Settings › Data › Apple Health in Chromium: choosing an export.xml uploads it, the status line
 * says the export is being read (with its percent), and then what was imported; the subscribed
 * card holds the day's total. Choosing the same file again adds nothing new.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_APPLE } from '../fixtures/apple-health-export.js';
import { type IngestServer, startIngestServer } from '../ingest/helpers.js';
import { launchBrowser, type TestBrowser } from './browser.js';

let s: IngestServer;
let browser: TestBrowser;
const xml = Buffer.from(GENERATED_APPLE['generated-2016.xml']());

beforeAll(async () => {
  s = await startIngestServer({ cards: [['steps', 'step_count']] });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('Settings › Data › Apple Health', () => {
  it('uploads an export, shows it being read, then what was imported', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${s.url}/settings`);
    const box = page.locator('.apple-health-upload');
    await box.waitFor();
    // every text the status line shows, in order
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { statusTexts: string[] }).statusTexts = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.apple-health-upload [role=status]')) {
          const t = (el.textContent ?? '').trim();
          if (t && seen[seen.length - 1] !== t) seen.push(t);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const choose = () =>
      box
        .locator('input[type=file]')
        .setInputFiles({ name: 'export.xml', mimeType: 'text/xml', buffer: xml });
    await choose();
    await box.locator('[role=status]', { hasText: 'Imported:' }).waitFor({ timeout: 30_000 });
    const texts = await page.evaluate(() => (window as unknown as { statusTexts: string[] }).statusTexts);
    expect(texts.some((t) => /^Reading your export… \d+ %/.test(t) || /^Uploading… \d+ %/.test(t))).toBe(
      true,
    );
    // 15 records, 16 samples (the workout too), all new
    expect(texts[texts.length - 1]).toBe('Imported: 15 records, 16 new readings (0 already here).');
    expect(await s.rows('steps')).toEqual([{ date: '2014-09-13', count: 2447 }]);

    await choose();
    await box
      .locator('[role=status]', { hasText: 'Imported: 15 records, 0 new readings (16 already here).' })
      .waitFor({ timeout: 30_000 });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says a file cut short was only partly imported, never just "Imported"', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${s.url}/settings`);
    const box = page.locator('.apple-health-upload');
    await box.waitFor();
    // the same export cut before its last line, as a download that stopped
    const text = xml.toString('utf8');
    const cut = Buffer.from(text.slice(0, text.lastIndexOf('</HealthData>')));
    await box
      .locator('input[type=file]')
      .setInputFiles({ name: 'export.xml', mimeType: 'text/xml', buffer: cut });
    const status = box.locator('[role=status]', { hasText: 'cut short' });
    await status.waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toMatch(
      /^The file was cut short, so it is most likely incomplete: only the part that arrived was imported \(15 records, 0 new readings\)\. Export again/,
    );
    expect(problems).toEqual([]);
    await page.close();
  });
});
