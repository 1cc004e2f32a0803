/**
 * The daily prompt (docs/MANIFEST-SCHEMA.md "prompt (daily modal)") in Chromium against the real
 * server: on app load on the live Today page, each card whose `meta.prompt` asks today opens a
 * modal dialog in turn, by `meta.order`; saving writes the row (shown on Today at once), Done or
 * dismissing marks the card as asked for the day in localStorage, so a reload does not ask again;
 * `whenMissing` skips a card that already has today's row (or, for a checklist, today's dose);
 * the checklist's "Taken" records a dose. Dialog manners: role=dialog, the page behind inert and
 * veiled while the chat button stays free and usable, focus kept inside, Escape dismisses, a
 * phone sheet that fits 390 px and ends above the chat button.
 *
 * The tests run in order and share one server and one browser profile (localStorage lasts across
 * them), as a person's day does.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { PHONE, screenshot, scrollsSideways, settled } from './browser.js';
import { cardOf, example, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';

/** True when the chat button is the topmost element at its own centre (nothing covers it). */
async function launcherIsFree(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const b = document.querySelector('.chat-launcher');
    if (!b) return false;
    const r = b.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return top !== null && b.contains(top);
  });
}
const today = () => todayIn(TZ);

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    // the mood template asks with its form (prompt modal, whenMissing), order 60, no rows
    const mood = example('mood');
    mood.meta.order = 60;
    // weight asks too (mode defaults to the form) but already has today's row: whenMissing skips it
    const weight = example('weight');
    weight.meta.order = 20;
    weight.meta.prompt = { enabled: true };
    weight.data = [
      { date: addDays(today(), -1), kg: 80.4 },
      { date: today(), kg: 80.1, note: 'before breakfast' },
    ];
    // the medication template asks with its checklist, order 40; only its daily items, so that
    // the same ones are due whatever the weekday
    const meds = example('medication-schedule');
    meds.meta.order = 40;
    meds.meta.prompt = { enabled: true, mode: 'checklist' };
    meds.data.items = meds.data.items.filter(
      (i: { schedule: { type: string } }) => i.schedule.type === 'daily',
    );
    return [mood, weight, meds];
  },
});

const dialog = (page: Page) => page.getByRole('dialog');
const promptState = (page: Page) => page.locator('[data-prompt-state]').getAttribute('data-prompt-state');

/** Forgets every "asked today" mark and loads the app again. */
async function freshDay(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await settled(page);
}

describe('daily prompt', { timeout: 120_000 }, () => {
  it('asks in meta.order, skips a card with today’s row (whenMissing), and the checklist ticks a dose', async () => {
    const w = await d.open('/');
    // order 40 comes before order 60; weight (order 20) has today's row and is not asked
    const meds = w.page.getByRole('dialog', { name: 'Medication' });
    await meds.waitFor();
    expect(await dialog(w.page).count()).toBe(1);
    // the cards behind are out of reach; the chat button is not covered
    expect(await w.page.locator('main#main').getAttribute('inert')).toBe('');
    expect(await launcherIsFree(w.page)).toBe(true);
    expect(await meds.locator('.prompt-sub').textContent()).toMatch(/^Due today · /);
    // one "Taken" button per item due today, in the card's groups
    expect(await meds.getByRole('heading', { name: 'With breakfast' }).count()).toBe(1);
    expect(await meds.getByRole('heading', { name: 'Evening' }).count()).toBe(1);
    expect(await meds.getByRole('button', { name: /^Taken: / }).allTextContents()).toEqual([
      'Taken',
      'Taken',
      'Taken',
    ]);

    await meds.getByRole('button', { name: 'Taken: Ramipril' }).click();
    await expect
      .poll(() => meds.locator('[data-item="Ramipril"] .prompt-item-sub').textContent())
      .toBe('2.5 mg · 1 of 2 taken');
    // biome-ignore lint/suspicious/noExplicitAny: the template's object-rooted data
    const data = (await d.data('medication-schedule')) as any;
    expect(data.items[1].doses).toHaveLength(1);
    expect(data.items[1].doses[0].scheduledDate).toBe(today());
    expect(data.items[1].doses[0].takenAt.slice(0, 10)).toBe(today());
    expect(data.items[0].doses).toEqual([]);
    await screenshot(w.page, 'daily-prompt-checklist-desktop');
    // the card behind shows the tick too
    expect(await cardOf(w, 'medication-schedule').locator('.cl-count').textContent()).toBe('1 of 4 done');

    await meds.getByRole('button', { name: 'Done' }).click();
    // the next in line: mood, with its own form
    const mood = w.page.getByRole('dialog', { name: 'Mood' });
    await mood.waitFor();
    expect(await dialog(w.page).count()).toBe(1);
    expect(await mood.getByRole('radio').count()).toBe(5);
    expect(
      await w.page.evaluate(
        (k) => localStorage.getItem(k),
        `klebb-prompt-shown-medication-schedule-${today()}`,
      ),
    ).toBe('saved');
  });

  it('saving the form writes today’s row, shows it on Today, and does not ask again after a reload', async () => {
    const w = await d.open('/');
    const mood = w.page.getByRole('dialog', { name: 'Mood' });
    await mood.waitFor();
    // the form has the focus, and Tab stays inside the dialog
    expect(await w.page.evaluate(() => !!document.activeElement?.closest('dialog.prompt'))).toBe(true);
    for (let i = 0; i < 12; i++) {
      await w.page.keyboard.press('Tab');
      expect(await w.page.evaluate(() => !!document.activeElement?.closest('dialog.prompt'))).toBe(true);
    }
    await w.page.keyboard.press('Shift+Tab');
    expect(await w.page.evaluate(() => !!document.activeElement?.closest('dialog.prompt'))).toBe(true);

    await mood.getByRole('radio', { name: '🙂 (4 of 5)' }).click();
    await mood.getByLabel('Note').fill('slept well');
    await mood.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => promptState(w.page)).toBe('done');
    expect(await dialog(w.page).count()).toBe(0);
    expect(await d.data('mood')).toEqual([{ date: today(), mood: 4, note: 'slept well' }]);
    const card = cardOf(w, 'mood');
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('🙂');
    expect(await card.locator('.gc-secondary').textContent()).toBe('slept well');

    await w.page.reload();
    await settled(w.page);
    await expect.poll(() => promptState(w.page)).toBe('done');
    expect(await dialog(w.page).count()).toBe(0);
  });

  it('dismissing (Escape) keeps a card away for the day, also after a reload', async () => {
    // mood loses today's row; a fresh day's marks: mood asks again, the checklist (a dose is
    // logged today, whenMissing) and weight (today's row) do not
    const del = await d.s.api('/api/manifests/mood/entries/0', { method: 'DELETE' });
    expect(del.status).toBe(200);
    const w = await d.open('/');
    await freshDay(w.page);
    const mood = w.page.getByRole('dialog', { name: 'Mood' });
    await mood.waitFor();
    await w.page.keyboard.press('Escape');
    await expect.poll(() => promptState(w.page)).toBe('done');
    expect(await dialog(w.page).count()).toBe(0);
    expect(await w.page.evaluate((k) => localStorage.getItem(k), `klebb-prompt-shown-mood-${today()}`)).toBe(
      'dismissed',
    );
    expect(await d.data('mood')).toEqual([]);
    // the page behind is usable again
    await cardOf(w, 'mood').getByRole('button', { name: 'Add entry' }).click();
    await cardOf(w, 'mood').getByRole('button', { name: 'Cancel' }).click();

    await w.page.reload();
    await settled(w.page);
    await expect.poll(() => promptState(w.page)).toBe('done');
    expect(await dialog(w.page).count()).toBe(0);
    // another day of the app does not ask: a past day is not the live page
    const past = await d.open(`/day/${addDays(today(), -1)}`);
    expect(await promptState(past.page)).toBe('off');
  });

  it('whenMissing: false asks even with today’s row, starting from it; the phone sheet fits and "Skip for today" dismisses', async () => {
    const patch = await d.s.api('/api/manifests/weight', {
      method: 'PATCH',
      json: { meta: { prompt: { whenMissing: false } } },
    });
    expect(patch.status).toBe(200);
    const w = await d.open('/', PHONE);
    await freshDay(w.page);
    const weight = w.page.getByRole('dialog', { name: 'Body weight' });
    await weight.waitFor();
    // one reading a day: the form starts from today's row, which saving replaces
    expect(await weight.getByLabel('Weight (kg)').inputValue()).toBe('80.1');
    expect(await weight.getByLabel('Note').inputValue()).toBe('before breakfast');
    const box = await weight.boundingBox();
    expect(box?.width).toBe(PHONE.width);
    // the sheet ends above the chat button, which stays free to tap
    const launcher = await w.page.locator('.chat-launcher').boundingBox();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(launcher?.y ?? 0);
    expect(await launcherIsFree(w.page)).toBe(true);
    expect(await scrollsSideways(w.page)).toBe(false);
    await screenshot(w.page, 'daily-prompt-phone');

    await weight.getByRole('button', { name: 'Skip for today' }).click();
    // next in order: mood (no row today); the checklist has today's dose and stays quiet
    const mood = w.page.getByRole('dialog', { name: 'Mood' });
    await mood.waitFor();
    await mood.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => promptState(w.page)).toBe('done');
    expect(await dialog(w.page).count()).toBe(0);
    expect(await d.data('weight')).toEqual([
      { date: addDays(today(), -1), kg: 80.4 },
      { date: today(), kg: 80.1, note: 'before breakfast' },
    ]);
  });
});
