/**
 * A checklist written the way the older app wrote a supplement stack, in Chromium: items that
 * name their own `group` ("morning") are under that heading, and the days listed in an item's
 * `takenDates` are its doses taken: ticked on the card, counted by the adherence report, marked
 * on the calendar; a tick is stored as a dose, and unticking a listed day removes it from the list.
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { settled } from './browser.js';
import { cardOf, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const today = () => todayIn(TZ);

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    const t = today();
    return [
      {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'supplement-stack',
          label: 'Supplement stack',
          emoji: '💊',
          view: { enabled: true, component: 'checklist-card' },
          reports: { enabled: true, component: 'adherence-report', showCompliance: true },
          calendar: { enabled: true, component: 'day-marker', marker: '💊' },
          writeable: { fromWebapp: true, pastAllowed: true, todayAllowed: true, futureAllowed: false },
        },
        data: {
          items: [
            { name: 'Vitamin D3', group: 'morning', takenDates: [1, 2, 3, 4].map((k) => addDays(t, -k)) },
            { name: 'Magnesium', group: 'evening', takenDates: [addDays(t, -1), addDays(t, -4)] },
            { name: 'Omega-3', group: 'morning', takenDates: [] },
          ],
        },
      },
    ];
  },
});

describe('a checklist with takenDates and per-item groups', { timeout: 90_000 }, () => {
  it('groups by the items’ own groups and reads the listed days as doses taken', async () => {
    const yesterday = addDays(today(), -1);
    const w = await d.open(`/day/${yesterday}`);
    const card = cardOf(w, 'supplement-stack');
    await card.locator('.cl-count').waitFor();
    expect(await card.locator('.cl-group-title').allTextContents()).toEqual(['Morning', 'Evening']);
    expect(await card.locator('.cl-name').allTextContents()).toEqual(['Vitamin D3', 'Omega-3', 'Magnesium']);
    expect(await card.locator('.cl-count').textContent()).toBe('2 of 3 done');

    // unticking a listed day takes it off the list
    await card.getByRole('checkbox', { name: 'Magnesium' }).click();
    await expect.poll(() => card.locator('.cl-count').textContent()).toBe('1 of 3 done');
    const data = (await d.data('supplement-stack')) as { items: { takenDates: string[] }[] };
    expect(data.items[1].takenDates).toEqual([addDays(today(), -4)]);

    // a tick today is stored as a dose
    await w.page.goto(`${d.s.url}/`);
    await settled(w.page);
    await card.getByRole('checkbox', { name: 'Omega-3' }).click();
    await expect.poll(() => card.locator('.cl-count').textContent()).toBe('1 of 3 done');
  });

  it('the report counts the listed days, and the calendar marks them', async () => {
    const w = await d.open('/reports');
    const report = cardOf(w, 'supplement-stack');
    await report.locator('.adh').waitFor();
    expect(await report.locator('.adh-group-title').allTextContents()).toEqual(['Morning', 'Evening']);
    expect(await report.locator('.adh-item[data-item="Vitamin D3"] .adh-detail').textContent()).toMatch(
      /^4 of 4 doses taken · last /,
    );
    const day = addDays(today(), -2);
    await w.page.goto(`${d.s.url}/calendar?month=${day.slice(0, 7)}`);
    await settled(w.page);
    const marked = await w.page.locator(`main a.month-day[href$="${day}"]`).textContent();
    expect(marked).toContain('💊');
  });
});
