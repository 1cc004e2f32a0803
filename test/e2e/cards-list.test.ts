/**
 * `list-card` in Chromium with the symptoms template: the empty message, Edit → Add (stamped with
 * `added`), the primary field and secondary template, Change, and Remove (asked once).
 */
import { describe, expect, it } from 'vitest';
import { PHONE, scrollsSideways } from './browser.js';
import { cardOf, example, useDashboard } from './entry-support.js';

const d = useDashboard({
  timezoneId: 'Europe/Berlin',
  manifests: () => {
    const pantry = example('symptoms');
    pantry.meta.id = 'long-list';
    pantry.meta.label = 'Long names';
    pantry.meta.writeable = { fromWebapp: false };
    pantry.data = [
      {
        symptom: 'A very long symptom name that goes on and on 🏃‍♀️ and on until it has to be cut short',
        location: 'everywhere',
      },
    ];
    return [example('symptoms'), pantry];
  },
});

describe('list-card', { timeout: 120_000 }, () => {
  it('adds, changes and removes rows of the symptoms roster', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'symptoms');
    await card.locator('.lc-empty').waitFor();
    expect(await card.locator('.lc-empty').textContent()).toBe('Nothing being watched.');

    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByRole('button', { name: 'Add' }).click();
    const form = card.getByRole('form');
    await form.getByLabel('Symptom').fill('Headache');
    await form.getByRole('radio', { name: 'moderate' }).click();
    await form.getByLabel('Note').fill('temples, worse after screens');
    await form.getByRole('button', { name: 'Add' }).click();
    await card.locator('.lc-primary', { hasText: 'Headache' }).waitFor();
    expect(await card.locator('.lc-secondary').first().textContent()).toBe(
      'moderate · temples, worse after screens',
    );
    const [row] = (await d.data('symptoms')) as Record<string, unknown>[];
    expect(row).toMatchObject({
      symptom: 'Headache',
      severity: 'moderate',
      note: 'temples, worse after screens',
    });
    expect(Date.now() - Date.parse(row.added as string)).toBeLessThan(10 * 60_000);
    expect(row.date).toBeUndefined();

    await card.getByRole('button', { name: 'Add' }).click();
    await form.getByLabel('Symptom').fill('Sore knee');
    await form.getByRole('button', { name: 'Add' }).click();
    await card.locator('.lc-primary', { hasText: 'Sore knee' }).waitFor();

    await card.getByRole('button', { name: 'Change Headache' }).click();
    expect(await form.getByLabel('Note').inputValue()).toBe('temples, worse after screens');
    await form.getByLabel('Note').fill('left temple');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => card.locator('.lc-secondary').first().textContent())
      .toBe('moderate · left temple');
    // the change kept the row's `added` stamp
    expect(((await d.data('symptoms')) as Record<string, unknown>[])[0].added).toBe(row.added);

    await card.getByRole('button', { name: 'Remove Sore knee' }).click();
    await card.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(async () => ((await d.data('symptoms')) as unknown[]).length).toBe(1);
    // the page re-reads the card after the server answered: the list follows a moment later
    await expect.poll(() => card.locator('.lc-primary').allTextContents()).toEqual(['Headache']);
    await card.getByRole('button', { name: 'Done' }).click();
    expect(await card.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
  });

  it('cuts long text to maxCharPreview without splitting an emoji; a read-only list has no Edit', async () => {
    const w = await d.open('/', PHONE);
    const card = cardOf(w, 'long-list');
    await card.locator('.lc-primary').waitFor();
    const text = (await card.locator('.lc-primary').textContent()) ?? '';
    expect([...new Intl.Segmenter().segment(text)].length).toBe(61);
    expect(text.endsWith('…')).toBe(true);
    expect(text).toContain('🏃‍♀️');
    expect(await card.getByRole('button').count()).toBe(0);
    expect(await scrollsSideways(w.page)).toBe(false);
  });
});
