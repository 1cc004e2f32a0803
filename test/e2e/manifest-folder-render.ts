/**
 * A folder of manifests dropped into a fresh data folder renders on each page it belongs to, in
 * Debian's Chromium; run on the card templates (templates/, in `npm test`) and on the real-world
 * examples (the cases suite):
 * - Today (`/`) for `meta.view`, `/trends` for `meta.trends`, `/reports` for `meta.reports`: the
 *   card is there with its label, its body shows something a person can see (text, a chart, a
 *   drawing), and no built-in renderer name falls back to the "no display yet" placeholder;
 * - `/calendar` for `meta.calendar`: the card is in the calendar's legend;
 * - a card switched off (`meta.enabled: false`) is on none of them, and Settings lists every card
 *   with its switch in the right position;
 * - no page logs a console error, throws, or has a request fail.
 * A failure names every card that did not render, not just the first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';

/** The renderers docs/MANIFEST-SCHEMA.md names, and the older names that draw as one of them. */
const BUILT_IN = [
  'generic-card',
  'list-card',
  'checklist-card',
  'schedule-card',
  'markdown-doc',
  'line-chart',
  'table-list',
  'adherence-report',
  'schedule-timeline',
  'greeting-banner',
  'combination-card',
  'day-marker',
  'metric-card',
  'area-chart',
  'bar-chart',
];

const PAGES = [
  { view: 'view', route: '/' },
  { view: 'trends', route: '/trends' },
  { view: 'reports', route: '/reports' },
  { view: 'calendar', route: '/calendar' },
] as const;

interface Example {
  file: string;
  id: string;
  label: string;
  /** `meta.enabled !== false`: a card switched off is on no page but Settings. */
  enabled: boolean;
  /** view name → component, for each view the card is on. */
  views: Record<string, string>;
}

function readExamples(examplesDir: string): Example[] {
  const files = fs
    .readdirSync(examplesDir)
    .filter((n) => n.endsWith('.json') && fs.statSync(path.join(examplesDir, n)).isFile())
    .sort();
  return files.map((file) => {
    const m = JSON.parse(fs.readFileSync(path.join(examplesDir, file), 'utf8'));
    const views: Record<string, string> = {};
    for (const { view } of PAGES) {
      const vc = m.meta[view];
      if (m.meta.enabled !== false && vc?.enabled === true && typeof vc.component === 'string')
        views[view] = vc.component;
    }
    return { file, id: m.meta.id, label: m.meta.label, enabled: m.meta.enabled !== false, views };
  });
}

/** Registers the suite for every `*.json` manifest in `examplesDir`; `label` names the folder in the test names. */
export function manifestFolderRenderSuite(examplesDir: string, label: string): void {
  const examples = readExamples(examplesDir);

  let browser: TestBrowser | undefined;
  let launchError: Error | undefined;
  const pages: WatchedPage[] = [];
  let s: TestServer;

  beforeAll(async () => {
    try {
      browser = await launchBrowser({ timezoneId: 'Europe/Berlin' });
    } catch (err) {
      launchError = err as Error;
    }
    s = await startServer({
      before: (_home, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        for (const ex of examples)
          fs.copyFileSync(path.join(examplesDir, ex.file), path.join(dataDir, ex.file));
      },
    });
  });

  afterEach(async () => {
    const problems = pages.flatMap((w) => w.problems);
    for (const w of pages.splice(0)) await w.page.close();
    expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  describe(`every manifest of ${label} renders on its page`, { timeout: 120_000 }, () => {
    it('has manifest files, each switched off or on at least one page', () => {
      expect(examples.length).toBeGreaterThan(0);
      expect(
        examples.filter((ex) => ex.enabled && Object.keys(ex.views).length === 0).map((ex) => ex.file),
      ).toEqual([]);
    });

    it('/settings: every card, with its switch on or off', async () => {
      if (!browser) throw launchError ?? new Error('Chromium was not started');
      const w = await browser.newPage();
      pages.push(w);
      await w.page.goto(`${s.url}/settings`);
      await settled(w.page);
      await w.page.locator('.setting-row').first().waitFor();
      const rows = await w.page.locator('.setting-row').evaluateAll((els) =>
        els.map((e) => ({
          id: e.getAttribute('data-card-id'),
          label: e.querySelector('.setting-label')?.textContent,
          on: e.querySelector('[role="switch"]')?.getAttribute('aria-checked') === 'true',
        })),
      );
      const failures: string[] = [];
      for (const ex of examples) {
        const row = rows.find((r) => r.id === ex.id);
        if (!row) failures.push(`${ex.file}: not in Settings`);
        else if (row.label !== ex.label || row.on !== ex.enabled) {
          failures.push(`${ex.file}: Settings shows ${JSON.stringify(row)}`);
        }
      }
      expect(failures).toEqual([]);
    });

    for (const { view, route } of PAGES) {
      const expected = examples.filter((ex) => ex.views[view]);
      const off = examples.filter((ex) => !ex.enabled);
      it(`${route}: ${expected.length} cards`, async () => {
        expect(expected.length, `no card is on ${route}`).toBeGreaterThan(0);
        if (!browser) throw launchError ?? new Error('Chromium was not started');
        const w = await browser.newPage();
        pages.push(w);
        await w.page.goto(`${s.url}${route}`);
        await settled(w.page);
        await w.page.locator('[data-drawn="true"]').first().waitFor();
        await w.page.waitForFunction(() => !document.querySelector('main [data-renderer-note="loading"]'));
        const failures: string[] = [];
        if (view === 'calendar') {
          const chips = await w.page
            .locator('.calendar-legend .chip')
            .evaluateAll((els) =>
              els.map((e) => [e.getAttribute('data-card-id'), e.textContent?.trim() ?? '']),
            );
          for (const ex of expected) {
            const chip = chips.find(([id]) => id === ex.id);
            if (!chip) failures.push(`${ex.file}: not in the calendar legend`);
            else if (!(chip[1] ?? '').includes(ex.label))
              failures.push(`${ex.file}: legend says "${chip[1]}"`);
          }
          // the calendar draws days, not card frames
          expect(await w.page.locator('main .month a.month-day').count()).toBeGreaterThan(0);
        } else {
          for (const ex of expected) {
            const card = w.page.locator(`main .card[data-card-id="${ex.id}"]`);
            if ((await card.count()) !== 1) {
              failures.push(`${ex.file}: no card on ${route}`);
              continue;
            }
            const label = await card.locator('.card-label').textContent();
            if (label !== ex.label) failures.push(`${ex.file}: label "${label}", expected "${ex.label}"`);
            const component = ex.views[view];
            const unknown = await card.locator('[data-unknown-renderer]').count();
            if (unknown > 0 && BUILT_IN.includes(component)) {
              failures.push(`${ex.file}: "${component}" shows the no-display placeholder`);
            }
            const seen = await card.locator('.card-body').evaluate((body) => ({
              text: (body.textContent ?? '').trim(),
              drawing: body.querySelector('canvas, svg, img') !== null,
            }));
            if (!seen.text && !seen.drawing) failures.push(`${ex.file}: the card body shows nothing`);
          }
        }
        for (const ex of off) {
          if ((await w.page.locator(`main [data-card-id="${ex.id}"]`).count()) > 0) {
            failures.push(`${ex.file}: switched off, yet on ${route}`);
          }
        }
        expect(failures, `cards that did not render on ${route}`).toEqual([]);
      });
    }
  });
}
