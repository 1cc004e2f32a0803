/**
 * The report page (`/report/<name>`) of a report in a right-to-left language, or with a long
 * unbroken name (a lab code, a URL), in Debian's Chromium on a phone: each block reads in the
 * direction of its own text (an Arabic paragraph and a Hebrew table cell run right to left, an
 * English one left to right), and nothing is wider than the screen (no sideways scrolling).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, PHONE, type TestBrowser } from './browser.js';

let s: TestServer;
let browser: TestBrowser;

beforeAll(async () => {
  s = await startServer({ watch: false });
  browser = await launchBrowser();
  const md = [
    '# تحليل الدم',
    '',
    'الهيموجلوبين 13.5 غ/دل ضمن المعدل الطبيعي.',
    '',
    'Haemoglobin 13.5 g/dL, within the normal range.',
    '',
    '| בדיקה | תוצאה | טווח |',
    '| --- | --- | --- |',
    '| המוגלובין | 13.5 | 12–16 |',
    '',
    `- ${'Thyroid-stimulating-hormone-'.repeat(12)}result`,
    '',
    `See https://lab.example.test/${'a1b2c3d4'.repeat(40)}`,
    '',
    `| ${Array.from({ length: 8 }, (_, i) => `Column-heading-${i}`).join(' | ')} |`,
    `| ${Array.from({ length: 8 }, () => '---').join(' | ')} |`,
    `| ${Array.from({ length: 8 }, (_, i) => `value-without-spaces-${i}`).join(' | ')} |`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(s.home, 'reports', 'mixed.md'), md);
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('a report page in right-to-left text, with long names', () => {
  it('reads each block in its own direction and fits a phone screen', async () => {
    const { page, problems } = await browser.newPage(PHONE);
    const res = await page.goto(`${s.url}/report/mixed`);
    expect(res?.status()).toBe(200);
    const dir = (sel: string, n = 0) =>
      page
        .locator(sel)
        .nth(n)
        .evaluate((el) => getComputedStyle(el).direction);
    expect(await dir('h1')).toBe('rtl');
    expect(await dir('p', 0)).toBe('rtl');
    expect(await dir('p', 1)).toBe('ltr');
    expect(await dir('td', 0)).toBe('rtl');
    expect(await dir('th', 0)).toBe('rtl');
    expect(await dir('li')).toBe('ltr');
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      screen: window.innerWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
    expect(problems).toEqual([]);
  });
});
