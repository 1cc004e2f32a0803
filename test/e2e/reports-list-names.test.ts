/**
 * The list of uploaded documents on Reports, for a keyboard and a screen reader, in Chromium
 * against the real server (no language model: each text is kept unsummarised, with Open, Retry
 * and Delete). Each report's buttons say which report they act on: a screen reader's list of
 * buttons held "Open, Retry, Delete, Open, Retry, Delete" with nothing to tell the reports apart.
 * Deleting one puts the focus on the report that took its place (else the list's heading) instead
 * of dropping it at the top of the page.
 */
import { describe, expect, it } from 'vitest';
import type { WatchedPage } from './browser.js';
import { useDashboard } from './entry-support.js';

const d = useDashboard({ timezoneId: 'Europe/Berlin', manifests: () => [] });

async function upload(name: string, text: string) {
  const r = await d.s.api('/api/reports/upload', {
    method: 'POST',
    headers: { 'x-klebb-filename': encodeURIComponent(name), 'content-type': 'application/octet-stream' },
    body: Buffer.from(text),
  });
  expect(r.status, r.text).toBeLessThan(300);
}

/** The accessible names of the controls of each report, newest first. */
const controls = (w: WatchedPage) =>
  w.page
    .locator('.report-item')
    .evaluateAll((items) =>
      items.map((li) =>
        [...li.querySelectorAll<HTMLElement>('.report-actions a, .report-actions button')].map((el) =>
          (el.getAttribute('aria-label') ?? el.textContent ?? '').trim(),
        ),
      ),
    );

describe('the list of uploaded documents', { timeout: 120_000 }, () => {
  it('names each report’s buttons after it, and keeps the focus in the list after a deletion', async () => {
    await upload('Blood count.txt', 'Haemoglobin 13.2 g/dL\n');
    await upload('Thyroid.txt', 'TSH 2.1 mIU/L\n');
    // both read (kept unsummarised) before the page opens
    await expect
      .poll(
        async () => {
          const l = (await d.s.api('/api/reports')).body;
          return `${l.reports.length} ${l.processing.length}`;
        },
        { timeout: 30_000 },
      )
      .toBe('2 0');
    const w = await d.open('/reports');
    await w.page.locator('.report-item .report-actions').nth(1).waitFor();
    const names = await controls(w);
    const all = names.flat();
    // no two controls of the list share a name, and each names its report
    expect(new Set(all).size).toBe(all.length);
    const titles = await w.page.locator('.report-item .report-title').allTextContents();
    names.forEach((list, i) => {
      for (const n of list) expect(n).toContain(titles[i]);
    });

    w.page.on('dialog', (dialog) => void dialog.accept());
    const first = w.page.locator('.report-item').first();
    await first.getByRole('button', { name: /^Delete/ }).focus();
    await w.page.keyboard.press('Enter');
    await expect.poll(() => w.page.locator('.report-item').count()).toBe(1);
    const left = titles[1];
    await expect
      .poll(() =>
        w.page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return el?.closest('.report-item')?.querySelector('.report-title')?.textContent ?? el?.tagName;
        }),
      )
      .toBe(left);

    await w.page
      .locator('.report-item')
      .getByRole('button', { name: /^Delete/ })
      .focus();
    await w.page.keyboard.press('Enter');
    await expect.poll(() => w.page.locator('.report-item').count()).toBe(0);
    await expect.poll(() => w.page.evaluate(() => document.activeElement?.id)).toBe('uploaded-reports-title');
  });
});
