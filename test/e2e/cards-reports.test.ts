/**
 * The Reports view and its renderers in Debian's Chromium against the real server (
 * docs/MANIFEST-SCHEMA.md "Renderers"): every card with `meta.reports` renders on /reports with
 * the right text and no console error.
 * - `table-list` (the lab-results template): the manifest's headers, rows sorted newest first,
 *   numbers right-aligned;
 * - `adherence-report` (the medication template with doses relative to today): its groups, items
 *   and doses, its share taken over the last 30 days as the shared report logic computes it, the
 *   "no stock recorded" note with `showInventory`; a card with doses relative to today gives known
 *   figures (3 of 6 taken = 50%, stock lasting 10 days); a finished course says nothing was due;
 * - `schedule-timeline`: 14 days around today, a daily item missed on past days, due today and
 *   upcoming later, a Mon/Wed/Fri item only on those days;
 * - everything fits a 390 px phone.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adherenceReport } from '../../src/common/adherence-report.js';
import { addDays, todayIn } from '../../src/common/dates.js';
import { type DoseSpec, withDoses } from '../fixtures/dose-history.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';
import {
  launchBrowser,
  PHONE,
  screenshot,
  scrollsSideways,
  settled,
  type TestBrowser,
  type WatchedPage,
} from './browser.js';

const TZ = 'America/Los_Angeles';
const today = todayIn(TZ);
const REPORT_CARDS = ['lab-results', 'medication-schedule', 'supplements', 'routine', 'course'];

/** The medication template with ten days of doses up to yesterday, and the stock note on. */
function medication() {
  const m = readTemplate('medication-schedule');
  (m.meta.reports as Record<string, unknown>).showInventory = true;
  const day = (n: number) => addDays(today, n);
  const levo: DoseSpec[] = [-10, -9, -8, -7, -6, -5, -4, -3, -2, -1].map((n) => [
    day(n),
    n === -5 ? null : '07:30',
  ]);
  const ramipril: DoseSpec[] = [-3, -2, -1].flatMap((n): DoseSpec[] => [
    [day(n), '08:00'],
    [day(n), '20:00'],
  ]);
  m.data = withDoses(m.data, { Levothyroxine: levo, Ramipril: ramipril }, '-08:00');
  return m;
}

/** The supplements template as a 14-day timeline: vitamin D3 last taken a month ago, stretching on Mon/Wed/Fri. */
function routine() {
  const m = readTemplate('supplements');
  m.meta.id = 'routine';
  m.meta.label = 'Routine';
  m.meta.reports = {
    enabled: true,
    component: 'schedule-timeline',
    windowDays: 14,
    showPast: true,
    showFuture: true,
  };
  const data = withDoses(m.data, { 'Vitamin D3': [[addDays(today, -30), '07:00']] }) as {
    current: unknown[];
  };
  m.data = {
    groups: [{ id: 'am', label: 'Morning', items: ['Vitamin D3', 'Stretching'] }],
    items: [
      data.current[0],
      {
        name: 'Stretching',
        dose: '10 min',
        schedule: { type: 'weekly', on_days: ['Mon', 'Wed', 'Fri'], start_date: '2026-01-01' },
        doses: [],
      },
    ],
  };
  return m;
}

/** A week-long course that ended long ago, as an adherence report. */
function course() {
  const m = readTemplate('medication-schedule');
  m.meta.id = 'course';
  m.meta.label = 'Antibiotic course';
  m.data = {
    groups: [{ id: 'course', label: 'Antibiotic course', items: ['Amoxicillin', 'Probiotic'] }],
    items: [
      {
        name: 'Amoxicillin',
        dose: '500 mg',
        schedule: { type: 'daily', times_per_day: 3 },
        cycles: [{ type: 'on', start: '2025-01-06', end: '2025-01-12' }],
        doses: [],
      },
      {
        name: 'Probiotic',
        schedule: { type: 'daily' },
        cycles: [{ type: 'on', start: '2025-01-06', end: '2025-01-16' }],
        doses: [],
      },
    ],
  };
  return m;
}

/** A supplement taken on three of the last six days, with stock for ten more doses. */
const vitamins = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'vitamins',
    label: 'Vitamins',
    emoji: '🌞',
    order: 1,
    reports: { enabled: true, component: 'adherence-report', showInventory: true, windowDays: 7 },
  },
  data: {
    items: [
      {
        name: 'Vitamin D',
        dose: '2000 IU',
        // tracked from six days ago (its first dose record is four days ago)
        schedule: { type: 'daily', start_date: addDays(today, -6) },
        inventory: { count: 10, unit: 'capsules' },
        doses: [
          { scheduledDate: addDays(today, -1), takenAt: `${addDays(today, -1)}T08:00:00-08:00` },
          { scheduledDate: addDays(today, -2), takenAt: `${addDays(today, -2)}T08:00:00-08:00` },
          { scheduledDate: addDays(today, -3), takenAt: `${addDays(today, -3)}T08:00:00-08:00` },
          { scheduledDate: addDays(today, -4), takenAt: null },
        ],
      },
    ],
  },
};

let browser: TestBrowser | undefined;
let launchError: Error | undefined;
const pages: WatchedPage[] = [];
let s: TestServer;

async function open(url: string, viewport?: { width: number; height: number }): Promise<WatchedPage> {
  if (!browser) throw launchError ?? new Error('Chromium was not started');
  const w = await browser.newPage(viewport);
  pages.push(w);
  await w.page.goto(url);
  await settled(w.page);
  return w;
}

const card = (page: Page, id: string) => page.locator(`main .card[data-card-id="${id}"]`);
const text = async (p: Promise<string | null>) => ((await p) ?? '').replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  try {
    browser = await launchBrowser({ timezoneId: TZ });
  } catch (err) {
    launchError = err as Error;
  }
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      for (const m of [
        readTemplate('lab-results'),
        medication(),
        readTemplate('supplements'),
        routine(),
        course(),
      ]) {
        fs.writeFileSync(path.join(dataDir, `${m.meta.id}.json`), JSON.stringify(m, null, 2));
      }
      fs.writeFileSync(path.join(dataDir, 'vitamins.json'), JSON.stringify(vitamins, null, 2));
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

describe('Reports', { timeout: 90_000 }, () => {
  it('lists every card with meta.reports, none as an unknown renderer', async () => {
    const { page } = await open(`${s.url}/reports`);
    expect(await page.locator('main h1').textContent()).toBe('Reports');
    const ids = await page
      .locator('main .card')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-card-id')));
    expect([...ids].sort()).toEqual([...REPORT_CARDS, 'vitamins'].sort());
    expect(await page.locator('main [data-unknown-renderer]').count()).toBe(0);
    expect(await page.locator('main [data-renderer-note="problem"]').count()).toBe(0);
  });

  it('table-list: the manifest’s headers, newest rows first, numbers right-aligned', async () => {
    const { page } = await open(`${s.url}/reports`);
    const table = card(page, 'lab-results').locator('table');
    await table.waitFor();
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'Date',
      'Test',
      'Result',
      'Unit',
      'Reference',
      'Flag',
    ]);
    const rows = readTemplate('lab-results').data as {
      date: string;
      test: string;
      result: number;
      unit: string;
      range: string;
      flagged: boolean;
    }[];
    expect(await table.locator('tbody tr').count()).toBe(rows.length);
    const newest = [...rows].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))[0];
    // bare calendar dates read as dates, in the page's locale (en-GB), never shifted by the zone
    const asDate = (d: string) =>
      new Intl.DateTimeFormat('en-GB', {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(`${d}T00:00:00Z`));
    const first = await table.locator('tbody tr').first().locator('td').allTextContents();
    expect(first).toEqual([
      asDate(newest.date),
      newest.test,
      String(newest.result),
      newest.unit,
      newest.range,
      newest.flagged ? '✅' : '',
    ]);
    const byDate = [...rows]
      .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
      .map((r) => asDate(r.date));
    expect(await table.locator('tbody tr td:first-child').allTextContents()).toEqual(byDate);
    expect(await table.locator('td.is-numeric').count()).toBe(rows.length);
  });

  it('adherence-report: the medication template’s items with their share taken and the stock note', async () => {
    const { page } = await open(`${s.url}/reports`);
    const c = card(page, 'medication-schedule');
    await c.locator('.adh').waitFor();
    const ex = medication();
    const expected = adherenceReport(ex.data, today, ex.meta.reports, ex.meta);
    expect(await c.locator('.adh-group-title').allTextContents()).toEqual(
      expected.groups.map((g) => g.label),
    );
    expect(expected.groups[0].label).toBe('With breakfast');
    expect(
      await c.locator('.adh-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-item'))),
    ).toEqual(['Levothyroxine', 'Ramipril', 'Atorvastatin', 'Methotrexate', 'Paracetamol']);
    expect(await text(c.locator('.adh-item').first().locator('.adh-name').textContent())).toBe(
      'Levothyroxine · 50 µg',
    );
    const pct = (r: number | null) => (r === null ? '—' : `${Math.round(r * 100)}%`);
    expect(await c.locator('.adh-overall').textContent()).toBe(pct(expected.overall.rate));
    expect(await text(c.locator('.adh-summary-text').textContent())).toContain(
      `(${expected.overall.taken} of ${expected.overall.scheduled})`,
    );
    for (const [i, it] of expected.groups[0].items.entries()) {
      const row = c.locator('.adh-item').nth(i);
      expect(await row.locator('.adh-pct').textContent()).toBe(pct(it.rate));
      expect(await text(row.locator('.adh-detail').textContent())).toMatch(
        new RegExp(`^${it.taken} of ${it.scheduled} doses taken · last \\d+ \\p{L}+`, 'u'),
      );
    }
    expect(await text(c.locator('[data-renderer-note]').textContent())).toMatch(/^No stock recorded/);
  });

  it('adherence-report: known figures for doses relative to today, and stock that lasts ten days', async () => {
    const { page } = await open(`${s.url}/reports`);
    const c = card(page, 'vitamins');
    await c.locator('.adh').waitFor();
    // the last 7 days: six past days due (3 taken), today counts once taken
    expect(await c.locator('.adh-overall').textContent()).toBe('50%');
    expect(await text(c.locator('.adh-summary-text').textContent())).toMatch(
      /^of doses taken in the last 7 days \(3 of 6\)/,
    );
    const item = c.locator('.adh-item');
    expect(await item.getAttribute('data-rate')).toBe('50');
    expect(await text(item.locator('.adh-detail').textContent())).toBe(
      `3 of 6 doses taken · last ${await dayMonthIn(page, addDays(today, -1))}`,
    );
    expect(await text(item.locator('.adh-stock').textContent())).toBe(
      `10 capsules left · lasts until ${await dayMonthIn(page, addDays(today, 9))} (10 days)`,
    );
  });

  it('adherence-report: a finished course says nothing was due', async () => {
    const { page } = await open(`${s.url}/reports`);
    const c = card(page, 'course');
    await c.locator('.adh').waitFor();
    expect(await c.locator('.adh-group-title').allTextContents()).toEqual(['Antibiotic course']);
    expect(await text(c.locator('.adh-summary-text').textContent())).toBe(
      'Nothing was due in the last 30 days.',
    );
    expect(await c.locator('.adh-pct').allTextContents()).toEqual(['—', '—']);
    expect(await text(c.locator('.adh-detail').first().textContent())).toBe(
      'Nothing was due · none logged yet',
    );
  });

  it('schedule-timeline: 14 days around today, missed, due and upcoming dots', async () => {
    const { page } = await open(`${s.url}/reports`);
    const t = card(page, 'routine').locator('.timeline');
    await t.waitFor();
    expect(await t.getAttribute('data-days')).toBe('14');
    expect(await t.getAttribute('data-first')).toBe(addDays(today, -7));
    expect(await t.getAttribute('data-last')).toBe(addDays(today, 6));
    expect(await t.locator('.timeline-group-title').allTextContents()).toEqual(['Morning']);
    const states = (item: string) =>
      t
        .locator(`.timeline-item[data-item="${item}"] .timeline-cell`)
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    // vitamin D3 is daily and its last check-off is a month ago: 7 missed days, today due, 6 to come
    expect(await states('Vitamin D3')).toEqual([
      ...Array(7).fill('missed'),
      'due',
      ...Array(6).fill('upcoming'),
    ]);
    // stretching is on Mondays, Wednesdays and Fridays only
    const cells = await t
      .locator('.timeline-item[data-item="Stretching"] .timeline-cell')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-date'), e.getAttribute('data-state')]));
    for (const [date, state] of cells) {
      const wd = new Date(`${date}T00:00:00Z`).getUTCDay();
      expect(state === 'none', `${date} ${state}`).toBe(![1, 3, 5].includes(wd));
    }
    expect(await t.locator('.timeline-cell.is-today').count()).toBe(2);
    expect(
      await t.locator(`.timeline-cell[data-date="${today}"] .visually-hidden`).first().textContent(),
    ).toMatch(/due today$/);
  });

  it('fits a 390 px phone', async () => {
    const { page } = await open(`${s.url}/reports`, PHONE);
    await card(page, 'routine').locator('.timeline').waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'reports-phone');
  });
});

/** "20 April" as the page writes it (the page's locale and year rule). */
function dayMonthIn(page: Page, date: string): Promise<string> {
  return page.evaluate(
    ([d, now]) =>
      new Intl.DateTimeFormat(undefined, {
        day: 'numeric',
        month: 'long',
        year: d.slice(0, 4) === now.slice(0, 4) ? undefined : 'numeric',
        timeZone: 'UTC',
      }).format(new Date(`${d}T12:00:00Z`)),
    [date, today] as const,
  );
}
