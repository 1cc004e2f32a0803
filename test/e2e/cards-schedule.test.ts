/**
 * `schedule-card` in Chromium: which items are due on a day (every 2 days from 27 March
 * 2026 in Berlin, across the daylight-saving change, is due on 27, 29 and 31 March only; from
 * 23 October on 23, 25 and 27 October), the seven-day dot grid, check-offs with a checkOffForm
 * (the previous dose's fields shown, the new dose's fields stored), colorMap, and logging a dose
 * on a day the item is not due (offSchedule).
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { withDoses } from '../fixtures/dose-history.js';
import type { WatchedPage } from './browser.js';
import { settled } from './browser.js';
import { cardOf, example, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const today = () => todayIn(TZ);

const meds = (id: string, start: string) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label: `Meds ${id}`,
    emoji: '💊',
    view: { enabled: true, component: 'schedule-card' },
    writeable: { fromWebapp: true, pastAllowed: true },
  },
  data: {
    items: [{ name: 'Vitamin D', schedule: { type: 'every_n_days', interval_days: 2, start_date: start } }],
  },
});

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    // the supplements template with a history: vitamin D3 daily, omega-3 every 2 days from 1 January
    const timeline = example('supplements');
    timeline.meta.id = 'routine';
    timeline.meta.label = 'Routine';
    timeline.meta.view = { enabled: true, component: 'schedule-card' };
    timeline.meta.writeable = { fromWebapp: true, pastAllowed: true };
    timeline.data = withDoses(
      timeline.data,
      {
        'Vitamin D3': [
          ['2026-04-22', '07:10'],
          ['2026-04-23', '07:05'],
          ['2026-04-28', '07:12'],
          ['2026-04-29', '07:04'],
          ['2026-04-30', null],
        ],
        'Omega-3': [['2026-04-28', '07:30']],
      },
      '+10:00',
    );
    timeline.data.groups = [{ id: 'am', label: 'Morning', items: ['Vitamin D3', 'Omega-3'] }];
    return [
      meds('spring', '2026-03-27'),
      meds('autumn', '2026-10-23'),
      timeline,
      {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'peptide',
          label: 'Peptide',
          emoji: '💉',
          view: {
            enabled: true,
            component: 'schedule-card',
            colorMap: { BPC: '#aa33ff' },
            checkOffForm: {
              currentDoseFields: [
                {
                  key: 'site',
                  type: 'select',
                  label: 'Site',
                  options: ['Left thigh', 'Right thigh'],
                  required: true,
                },
              ],
              previousDoseFields: ['site'],
            },
          },
          writeable: { fromWebapp: true },
        },
        data: {
          items: [
            {
              name: 'BPC',
              dose: '250 mcg',
              schedule: { type: 'daily', time_of_day: 'morning' },
              doses: [
                {
                  scheduledDate: addDays(today(), -1),
                  takenAt: `${addDays(today(), -1)}T08:00:00+02:00`,
                  site: 'Left thigh',
                },
              ],
            },
          ],
        },
      },
    ];
  },
});

/** Whether the card shows `item` as due (a tick) on the page's day. */
async function dueOn(w: WatchedPage, id: string, date: string, item: string): Promise<boolean> {
  await w.page.goto(`${d.s.url}/day/${date}`);
  await settled(w.page);
  const card = cardOf(w, id);
  await card.locator('.sc-item').first().waitFor();
  return (await card.getByRole('checkbox', { name: item }).count()) === 1;
}

describe('schedule-card', { timeout: 180_000 }, () => {
  it('every 2 days across the daylight-saving changes', async () => {
    const w = await d.open('/day/2026-03-27');
    const spring: string[] = [];
    for (let i = 0; i < 6; i++) {
      const day = addDays('2026-03-27', i);
      if (await dueOn(w, 'spring', day, 'Vitamin D')) spring.push(day);
    }
    expect(spring).toEqual(['2026-03-27', '2026-03-29', '2026-03-31']);
    const autumn: string[] = [];
    for (let i = 0; i < 6; i++) {
      const day = addDays('2026-10-23', i);
      if (await dueOn(w, 'autumn', day, 'Vitamin D')) autumn.push(day);
    }
    expect(autumn).toEqual(['2026-10-23', '2026-10-25', '2026-10-27']);
    // on a day it is not due, it says so and offers an off-schedule dose
    await dueOn(w, 'spring', '2026-03-28', 'Vitamin D');
    expect(await cardOf(w, 'spring').locator('.sc-off-text').textContent()).toBe('Not due');
    expect(await cardOf(w, 'spring').locator('.sc-sub').textContent()).toBe('Every other day');
  });

  it('the seven-day dot grid reads the recorded doses (taken, missed, not due)', async () => {
    const w = await d.open('/day/2026-04-30');
    const vitD = cardOf(w, 'routine').locator('.sc-item[data-item="Vitamin D3"]');
    await vitD.waitFor();
    expect(
      await vitD.locator('.sc-day').evaluateAll((els) => els.map((e) => e.getAttribute('title'))),
    ).toEqual([
      '24 April: missed',
      '25 April: missed',
      '26 April: missed',
      '27 April: missed',
      '28 April: taken',
      '29 April: taken',
      '30 April: missed',
    ]);
    const omega = cardOf(w, 'routine').locator('.sc-item[data-item="Omega-3"]');
    expect(
      await omega.locator('.sc-day').evaluateAll((els) => els.map((e) => e.getAttribute('title'))),
    ).toEqual([
      '24 April: not due',
      '25 April: missed',
      '26 April: not due',
      '27 April: missed',
      '28 April: taken',
      '29 April: missed',
      '30 April: not due',
    ]);
    expect(await cardOf(w, 'routine').locator('.sc-group-title').allTextContents()).toEqual(['Morning']);
  });

  it('logs a dose on a day the item is not due, marked offSchedule', async () => {
    const w = await d.open('/day/2026-04-30');
    const omega = cardOf(w, 'routine').locator('.sc-item[data-item="Omega-3"]');
    await omega.getByRole('button', { name: 'Log a dose' }).click();
    await expect.poll(() => omega.locator('.sc-off-text').textContent()).toBe('Logged 1× (not due)');
    const data = (await d.data('routine')) as { current: { doses: Record<string, unknown>[] }[] };
    const last = data.current[2].doses.at(-1);
    expect(last).toMatchObject({ scheduledDate: '2026-04-30', offSchedule: true });
    expect(typeof last?.takenAt).toBe('string');
  });

  it('checkOffForm: the previous dose’s site is shown, the new dose stores its own; colorMap colours the item', async () => {
    const w = await d.open('/');
    const item = cardOf(w, 'peptide').locator('.sc-item[data-item="BPC"]');
    await item.waitFor();
    expect(await item.locator('.sc-prev').textContent()).toBe('Last dose: Site: Left thigh');
    expect(await item.evaluate((el) => getComputedStyle(el).getPropertyValue('--sc-colour').trim())).toBe(
      '#aa33ff',
    );
    expect(await item.locator('.sc-sub').textContent()).toBe('250 mcg · Daily · morning');
    await item.getByRole('checkbox', { name: 'BPC' }).click();
    const form = item.getByRole('form');
    expect(await form.getByRole('button', { name: 'Taken' }).isDisabled()).toBe(true);
    await form.getByLabel('Site').selectOption({ label: 'Right thigh' });
    await form.getByRole('button', { name: 'Taken' }).click();
    await expect
      .poll(() => item.getByRole('checkbox', { name: 'BPC' }).getAttribute('aria-checked'))
      .toBe('true');
    expect(await item.locator('.sc-prev').textContent()).toBe('Last dose: Site: Right thigh');
    const data = (await d.data('peptide')) as { items: { doses: Record<string, unknown>[] }[] };
    expect(data.items[0].doses.at(-1)).toMatchObject({ scheduledDate: today(), site: 'Right thigh' });
    expect(await cardOf(w, 'peptide').locator('.sc-summary').textContent()).toBe('1 of 1 dose taken today');
  });
});
