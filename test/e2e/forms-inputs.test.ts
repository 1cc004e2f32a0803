/**
 * Every input type of an entry form (docs/MANIFEST-SCHEMA.md "Input types", plus chips and
 * chips-multi) filled in Chromium and saved through the real server: the stored row has each
 * value with its proper JSON type. Also the mood template's emoji picker (emitIndex, with
 * autoSubmit), a legacy form (view.inputs keyed by name) and the weight template's prefill.
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { PHONE, scrollsSideways } from './browser.js';
import { cardOf, example, useDashboard } from './entry-support.js';

const TZ = 'America/Los_Angeles';

const everything = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'everything',
    label: 'Every input',
    emoji: '🧪',
    view: {
      enabled: true,
      component: 'generic-card',
      display: { template: '{title|}', secondary: '{place|} {tags|}' },
    },
    writeable: {
      fromWebapp: true,
      inputs: [
        { key: 'weight', type: 'number', label: 'Weight', min: 0, max: 300, step: 0.1, placeholder: 'kg' },
        { key: 'glasses', type: 'stepper', label: 'Glasses', min: 0, max: 20, default: 0 },
        { key: 'title', type: 'text', label: 'Title', maxLength: 40, required: true },
        { key: 'notes', type: 'textarea', label: 'Notes', rows: 3 },
        {
          key: 'bristol',
          type: 'select',
          label: 'Bristol type',
          options: [
            { value: '3', label: '3 — Cracked' },
            { value: '4', label: '4 — Smooth' },
          ],
        },
        { key: 'face', type: 'emoji-picker', label: 'Face', emojis: ['😩', '🙂', '😄'] },
        { key: 'shade', type: 'colour', label: 'Shade' },
        { key: 'trained', type: 'checkbox', label: 'Trained' },
        { key: 'day', type: 'date', label: 'Day of the walk' },
        { key: 'at', type: 'time', label: 'Time' },
        { key: 'energy', type: 'rating', label: 'Energy' },
        { key: 'place', type: 'chips', label: 'Place', options: ['Home', 'Gym', 'Park'] },
        { key: 'tags', type: 'chips-multi', label: 'Tags', options: ['work', 'family', 'travel'] },
      ],
    },
  },
  data: [],
};

/** A card written in the older form: inputs under `view`, keyed by `name`. */
const legacyBp = {
  $schema: 'eddzhealth.datafile.v1',
  meta: {
    id: 'bp-legacy',
    label: 'Blood pressure (older card)',
    emoji: '🩺',
    view: {
      enabled: true,
      component: 'metric-card',
      display: { format: '{systolic}/{diastolic}', unit: 'mmHg' },
      inputs: [
        {
          name: 'systolic',
          type: 'number',
          label: 'Systolic',
          min: 60,
          max: 260,
          required: true,
          placeholder: '118',
        },
        {
          name: 'diastolic',
          type: 'number',
          label: 'Diastolic',
          min: 30,
          max: 160,
          required: true,
          placeholder: '76',
        },
      ],
    },
    writeable: { fromWebapp: true, pastAllowed: true },
  },
  data: [],
};

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    const weight = example('weight');
    weight.data = [{ date: addDays(todayIn(TZ), -2), kg: 72.4, fatPercent: 19 }];
    // the daily prompt is tested in daily-prompt.test.ts; here it would cover the forms
    const mood = example('mood');
    delete mood.meta.prompt;
    mood.meta.writeable.inputs[0].autoSubmit = true;
    return [everything, mood, legacyBp, weight];
  },
});

describe('every input type', { timeout: 120_000 }, () => {
  it('fills and saves each type with its JSON type', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'everything');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    // Save waits for the required title
    expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await form.locator('.form-hint').textContent()).toBe('Title is needed.');

    await form.getByLabel('Weight').fill('72.5');
    await form.getByRole('button', { name: 'Glasses: more' }).click();
    await form.getByRole('button', { name: 'Glasses: more' }).click();
    expect(await form.locator('.stepper-value').textContent()).toBe('2');
    await form.getByLabel('Title').fill('Morning walk');
    await form.getByLabel('Notes').fill('Line one\nLine two');
    await form.getByLabel('Bristol type').selectOption({ label: '4 — Smooth' });
    await form.getByRole('radio', { name: '🙂' }).click();
    await form.getByLabel('Shade').fill('#3399ff');
    await form.getByLabel('Trained').check();
    await form.getByLabel('Day of the walk').fill('2026-04-18');
    await form.getByLabel('Time').fill('07:30');
    await form.getByRole('radio', { name: '4 of 5' }).click();
    await form.getByRole('radio', { name: 'Gym' }).click();
    await form.getByRole('button', { name: 'travel' }).click();
    await form.getByRole('button', { name: 'work' }).click();
    expect(await form.getByRole('button', { name: 'work' }).getAttribute('aria-pressed')).toBe('true');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('Morning walk');
    expect(await card.locator('.gc-secondary').textContent()).toBe('Gym work, travel');
    expect(await d.data('everything')).toEqual([
      {
        date: todayIn(TZ),
        weight: 72.5,
        glasses: 2,
        title: 'Morning walk',
        notes: 'Line one\nLine two',
        bristol: '4',
        face: '🙂',
        shade: '#3399ff',
        trained: true,
        day: '2026-04-18',
        at: '07:30',
        energy: 4,
        place: 'Gym',
        tags: ['work', 'travel'],
      },
    ]);

    // the edit form shows every stored value again, and clearing a chip and a tag saves that
    await card.getByRole('button', { name: 'Edit entry' }).click();
    expect(await form.getByLabel('Bristol type').inputValue()).toBe('1');
    expect(await form.getByRole('radio', { name: '🙂' }).getAttribute('aria-checked')).toBe('true');
    expect(await form.getByRole('radio', { name: '4 of 5' }).getAttribute('aria-checked')).toBe('true');
    expect(await form.getByLabel('Trained').isChecked()).toBe(true);
    await form.getByRole('radio', { name: 'Gym' }).click();
    await form.getByRole('button', { name: 'travel' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => ((await d.data('everything')) as Record<string, unknown>[])[0].tags)
      .toEqual(['work']);
    expect(((await d.data('everything')) as Record<string, unknown>[])[0].place).toBeUndefined();
  });

  it('mood: tapping an emoji saves at once (autoSubmit), storing its position (emitIndex)', async () => {
    const w = await d.open('/', PHONE);
    const card = cardOf(w, 'mood');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    expect(await form.getByLabel('Note').getAttribute('placeholder')).toBe('One line about why');
    await form.getByRole('radio', { name: '😁 (5 of 5)' }).click();
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('😁');
    expect(await d.data('mood')).toEqual([{ date: todayIn(TZ), mood: 5 }]);
    expect(await card.locator('.gc-secondary').count()).toBe(0);
    expect(await scrollsSideways(w.page)).toBe(false);
  });

  it('legacy view.inputs keyed by name: the form has both numbers, both required', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'bp-legacy');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    expect(await form.getByLabel('Systolic').getAttribute('placeholder')).toBe('118');
    await form.getByLabel('Systolic').fill('122');
    expect(await form.locator('.form-hint').textContent()).toBe('Diastolic is needed.');
    await form.getByLabel('Diastolic').fill('79');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('122/79');
    expect(await d.data('bp-legacy')).toEqual([{ date: todayIn(TZ), systolic: 122, diastolic: 79 }]);
  });

  it('prefillFromLatest: a new entry starts from the latest row, dated the shown day', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'weight');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    expect(await form.getByLabel('Weight (kg)').inputValue()).toBe('72.4');
    expect(await form.getByLabel('Body fat (%)').inputValue()).toBe('19');
    await form.getByLabel('Weight (kg)').fill('72.1');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('72.1');
    expect(((await d.data('weight')) as unknown[]).at(-1)).toEqual({
      date: todayIn(TZ),
      kg: 72.1,
      fatPercent: 19,
    });
  });
});
