/**
 * Printing the app's pages (Today, Trends, a day of the Calendar, the doctor's summary) in
 * Chromium against the real server, with the dark theme chosen. Browsers leave backgrounds out of
 * a print by default, so the dark theme's light text came out light grey on white paper, barely
 * readable; and every page but the summary printed the app's bar and the chat button over its
 * cards. In print every page reads dark on light whatever the theme, without the bar, the chat
 * button, the skip link or the connection note.
 */
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import type { WatchedPage } from './browser.js';
import { useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => [
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'weight',
        label: 'Weight',
        emoji: '⚖️',
        trends: { enabled: true },
        view: {
          enabled: true,
          component: 'generic-card',
          display: { template: '{kg|–}', unit: 'kg' },
        },
        writeable: { fromWebapp: true, inputs: [{ key: 'kg', type: 'number', label: 'Weight' }] },
      },
      data: [{ date: todayIn(TZ), kg: 81.2 }],
    },
  ],
});

/** The relative luminance of a CSS colour `rgb(r, g, b)` (0 black … 1 white). */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Opens `pathname` with the dark theme chosen, as the printer sees it. */
async function printed(pathname: string): Promise<WatchedPage> {
  const w = await d.open(pathname);
  await w.page.evaluate(() => localStorage.setItem('klebb.theme', 'dark'));
  await w.page.reload();
  await w.page.emulateMedia({ media: 'print' });
  expect(await w.page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
  return w;
}

const CHROME = ['.topbar', '.chat-slot'];

describe('printing a page with the dark theme chosen', { timeout: 120_000 }, () => {
  for (const [name, pathname, text] of [
    ['Today', '/', '.card-label, .gc-value, .view-title'],
    ['Trends', '/trends', '.card-label, .view-title'],
    ['a day of the Calendar', `/day/${todayIn(TZ)}`, '.card-label, .gc-value'],
    ['the doctor’s summary', '/summary?cards=weight', '.summary-title, .summary-table td'],
  ] as const) {
    it(`prints ${name} dark on light, without the app's bar and chat button`, async () => {
      const w = await printed(pathname);
      await w.page.locator(text).first().waitFor();
      // every text of the page dark enough on white paper: at most a mid grey (the dark theme's
      // text is 0.82, its muted grey 0.35)
      const light = await w.page.evaluate(() => {
        const out: { text: string; colour: string }[] = [];
        for (const el of document.querySelectorAll<HTMLElement>('main *')) {
          const own = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
          if (!own || el.getClientRects().length === 0 || el.closest('.visually-hidden')) continue;
          out.push({ text: (el.textContent ?? '').trim().slice(0, 30), colour: getComputedStyle(el).color });
        }
        return out;
      });
      expect(light.length).toBeGreaterThan(0);
      expect(light.filter((t) => luminance(t.colour) >= 0.25)).toEqual([]);
      for (const sel of CHROME) {
        const shown = await w.page
          .locator(sel)
          .evaluateAll((els) => els.filter((el) => getComputedStyle(el).display !== 'none').length);
        expect(shown, sel).toBe(0);
      }
    });
  }
});
