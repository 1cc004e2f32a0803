/**
 * The daily prompt (docs/MANIFEST-SCHEMA.md "prompt (daily modal)") in Chromium against the real
 * server: on app load on the live Today page, each card whose `meta.prompt` asks today opens a
 * modal dialog in turn, by `meta.order`; saving writes the row (shown on Today at once), Done or
 * dismissing marks the card as asked for the day in localStorage, so a reload does not ask again;
 * `whenMissing` skips a card that already has today's row (or, for a checklist, today's dose);
 * the checklist's "Taken" records a dose. Dialog manners: role=dialog, aria-modal, focus kept
 * inside, Escape dismisses, a phone sheet that fits 390 px.
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
const today = () => todayIn(TZ);

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    // the mood example asks with its form (prompt modal, whenMissing), order 60, no rows
    const mood = example('mood');
    // weight asks too (mode defaults to the form) but already has today's row: whenMissing skips it
    const weight = example('weight');
    weight.meta.prompt = { enabled: true };
    weight.data = [
      { date: addDays(today(), -1), kg: 80.4 },
      { date: today(), kg: 80.1, note: 'before breakfast' },
    ];
    // the medication example asks with its checklist, order 40; its cycle moved around today
    const meds = example('medication-schedule');
    meds.meta.prompt = { enabled: true, mode: 'checklist' };
    for (const item of meds.data.items)
      item.cycles = [{ type: 'on', start: addDays(today(), -5), end: addDays(today(), 20) }];
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
    const meds = w.page.getByRole('dialog', { name: 'Medication Schedule' });
    await meds.waitFor();
    expect(await dialog(w.page).count()).toBe(1);
    expect(await meds.getAttribute('aria-modal')).toBe('true');
    expect(await meds.locator('.prompt-sub').textContent()).toMatch(/^Due today · /);
    // one "Taken" button per item due today, in the card's group
    expect(await meds.getByRole('heading', { name: 'Post-op eye drops' }).count()).toBe(1);
    expect(await meds.getByRole('button', { name: /^Taken: / }).allTextContents()).toEqual([
      'Taken',
      'Taken',
    ]);

    await meds.getByRole('button', { name: 'Taken: prednisolone' }).click();
    await expect
      .poll(() => meds.locator('[data-item="prednisolone"] .prompt-item-sub').textContent())
      .toBe('1 drop, L eye · 1 of 4 taken');
    // biome-ignore lint/suspicious/noExplicitAny: the example's object-rooted data
    const data = (await d.data('medication-schedule')) as any;
    expect(data.items[0].doses).toHaveLength(1);
    expect(data.items[0].doses[0].scheduledDate).toBe(today());
    expect(data.items[0].doses[0].takenAt.slice(0, 10)).toBe(today());
    expect(data.items[1].doses).toEqual([]);
    await screenshot(w.page, 'daily-prompt-checklist-desktop');
    // the card behind shows the tick too
    expect(await cardOf(w, 'medication-schedule').locator('.cl-count').textContent()).toBe('1 of 8 done');

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

    await mood.getByRole('button', { name: 'Wake-ups: more' }).click();
    await mood.getByRole('radio', { name: '🙂 (4 of 5)' }).click();
    await expect.poll(() => promptState(w.page)).toBe('done');
    expect(await dialog(w.page).count()).toBe(0);
    expect(await d.data('mood')).toEqual([{ date: today(), mood: 4, wakeUps: 1 }]);
    const card = cardOf(w, 'mood');
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('🙂');
    expect(await card.locator('.gc-secondary').textContent()).toBe('1 wake-ups ·');

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
    const weight = w.page.getByRole('dialog', { name: 'Weight' });
    await weight.waitFor();
    // one reading a day: the form starts from today's row, which saving replaces
    expect(await weight.getByLabel('Weight (kg)').inputValue()).toBe('80.1');
    expect(await weight.getByLabel('Note').inputValue()).toBe('before breakfast');
    const box = await weight.boundingBox();
    expect(box?.width).toBe(PHONE.width);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeCloseTo(PHONE.height, 0);
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
