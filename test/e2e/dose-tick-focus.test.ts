/**
 * Ticking a dose with the keyboard keeps the focus on the tick, in Chromium against the real
 * server. The tick was disabled while its dose was being saved, and a focused control that is
 * disabled loses the focus to the page: a keyboard or screen-reader user who ticked the morning
 * dose was sent back to the top of the page (and after a check-off form, to the card), and had to
 * find their place again for the next dose. Now the tick keeps the focus through the save, on a
 * schedule card and a checklist card, as does the button that logs a dose on a day it is not
 * due, and a check-off form hands it back to the tick it was opened from.
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { cardOf, useDashboard } from './entry-support.js';
import { focusedInCard } from './focus.js';

/** `expect.poll` with room to wait on a loaded machine (its default gives up after one second). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 50 });

const TZ = 'Europe/Berlin';

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => [
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'offday',
        label: 'Every other day',
        order: 4,
        view: { enabled: true, component: 'schedule-card' },
        writeable: { fromWebapp: true },
      },
      data: {
        items: [
          {
            name: 'Iron',
            schedule: { type: 'every_n_days', interval_days: 2, start_date: addDays(todayIn(TZ), -1) },
          },
        ],
      },
    },
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'meds',
        label: 'Meds',
        order: 1,
        view: { enabled: true, component: 'schedule-card' },
        writeable: { fromWebapp: true },
      },
      data: {
        items: [{ name: 'Vitamin D', schedule: { type: 'daily', time_of_day: ['morning', 'evening'] } }],
      },
    },
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'list',
        label: 'Checklist',
        order: 2,
        view: { enabled: true, component: 'checklist-card' },
        writeable: { fromWebapp: true },
      },
      data: { items: [{ name: 'Magnesium', schedule: { type: 'daily' } }] },
    },
    {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'peptide',
        label: 'Peptide',
        order: 3,
        view: {
          enabled: true,
          component: 'schedule-card',
          checkOffForm: {
            currentDoseFields: [
              { key: 'site', type: 'select', label: 'Site', options: ['Left thigh', 'Right thigh'] },
            ],
          },
        },
        writeable: { fromWebapp: true },
      },
      data: { items: [{ name: 'BPC', schedule: { type: 'daily' } }] },
    },
  ],
});

/** The number of doses stored for the first item of card `id`. */
async function doses(id: string): Promise<number> {
  const data = (await d.data(id)) as { items: { doses?: unknown[] }[] };
  return data.items[0].doses?.length ?? 0;
}

describe('the focus after ticking a dose', { timeout: 120_000 }, () => {
  it('stays on the tick of a schedule card, through ticking and unticking', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'meds');
    const morning = card.getByRole('checkbox', { name: /Vitamin D, Morning/ });
    await morning.focus();
    await w.page.keyboard.press('Space');
    await eventually(() => morning.getAttribute('aria-checked')).toBe('true');
    expect(await focusedInCard(w)).toEqual({ card: 'meds', name: 'Vitamin D, Morning (1 of 2)' });
    expect(await doses('meds')).toBe(1);
    // Tab goes on to the evening dose
    await w.page.keyboard.press('Tab');
    expect(await focusedInCard(w)).toEqual({ card: 'meds', name: 'Vitamin D, Evening (2 of 2)' });
    await w.page.keyboard.press('Shift+Tab');
    await w.page.keyboard.press('Space');
    await eventually(() => morning.getAttribute('aria-checked')).toBe('false');
    expect(await focusedInCard(w)).toEqual({ card: 'meds', name: 'Vitamin D, Morning (1 of 2)' });
    expect(await doses('meds')).toBe(0);
  });

  it('stays on the tick of a checklist card', async () => {
    const w = await d.open('/');
    const tick = cardOf(w, 'list').getByRole('checkbox', { name: 'Magnesium' });
    await tick.focus();
    await w.page.keyboard.press('Enter');
    await eventually(() => tick.getAttribute('aria-checked')).toBe('true');
    expect(await focusedInCard(w)).toEqual({ card: 'list', name: 'Magnesium' });
    expect(await doses('list')).toBe(1);
  });

  it('goes back to the tick after its check-off form', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'peptide');
    await card.getByRole('checkbox', { name: 'BPC' }).focus();
    await w.page.keyboard.press('Enter');
    const form = card.getByRole('form');
    await form.getByLabel('Site').selectOption({ label: 'Right thigh' });
    await form.getByRole('button', { name: 'Taken' }).focus();
    await w.page.keyboard.press('Enter');
    const tick = card.getByRole('checkbox', { name: 'BPC' });
    await eventually(() => tick.getAttribute('aria-checked')).toBe('true');
    expect(await focusedInCard(w)).toEqual({ card: 'peptide', name: 'BPC' });
  });

  it('stays on Log a dose of an item not due today', async () => {
    const w = await d.open('/');
    const item = cardOf(w, 'offday').locator('.sc-item[data-item="Iron"]');
    await item.getByRole('button', { name: 'Log a dose' }).focus();
    await w.page.keyboard.press('Enter');
    await eventually(() => item.locator('.sc-off-text').textContent()).toBe('Logged 1× (not due)');
    expect(await focusedInCard(w)).toEqual({ card: 'offday', name: 'Log a dose' });
    expect(await doses('offday')).toBe(1);
  });
});
