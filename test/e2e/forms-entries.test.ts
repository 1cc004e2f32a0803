/**
 * Entry forms in Chromium against the real server: adding, editing and deleting an
 * entry from a card's form, and each write-policy refusal shown in the form as the server words
 * it (a past day the card does not take, a value out of range), or before sending (requireAny).
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { PHONE } from './browser.js';
import { numberCard } from './card-manifests.js';
import { cardOf, example, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const today = () => todayIn(TZ);

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    const caffeine = example('caffeine');
    caffeine.meta.writeable.pastAllowed = false;
    const temperature = example('body-temperature');
    temperature.meta.writeable.maxReadingsPerDay = 3;
    return [
      example('weight'),
      caffeine,
      temperature,
      {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'pressure',
          label: 'Pressure',
          emoji: '💓',
          view: {
            enabled: true,
            component: 'generic-card',
            display: { template: '{systolic|–}/{diastolic|–} {pulse|}' },
          },
          writeable: {
            fromWebapp: true,
            requireAny: ['systolic', 'pulse'],
            inputs: [
              { key: 'systolic', type: 'number', label: 'Systolic', min: 50, max: 250 },
              { key: 'diastolic', type: 'number', label: 'Diastolic', min: 30, max: 150 },
              { key: 'pulse', type: 'number', label: 'Pulse', help: 'Beats a minute' },
            ],
          },
        },
        data: [],
      },
      {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'oxygen',
          label: 'Oxygen',
          view: { enabled: true, component: 'generic-card', display: { template: '{pct|–}%' } },
          writeable: {
            fromWebapp: true,
            inputs: [
              { key: 'pct', type: 'number', label: 'SpO2', step: 1, min: 70, max: 100 },
              { key: 'note', type: 'text', label: 'Note' },
            ],
          },
        },
        // a day's average from the phone: more decimals than the whole-number field takes
        data: [{ date: today(), pct: 96.667 }],
      },
      numberCard('taps', 'Taps', { key: 'count', label: 'Count' }),
    ];
  },
});

describe('entry forms', { timeout: 120_000 }, () => {
  it('a double click on Save sends one entry: one row, not two', async () => {
    const w = await d.open('/');
    const posts: string[] = [];
    let finished = 0;
    w.page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/manifests/taps/')) posts.push(r.url());
    });
    w.page.on('requestfinished', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/manifests/taps/')) finished += 1;
    });
    const card = cardOf(w, 'taps');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    await form.getByLabel('Count').fill('3');
    // two clicks in the same tick (before the page re-renders with the button disabled)
    await form.getByRole('button', { name: 'Save' }).evaluate((b: HTMLButtonElement) => {
      b.click();
      b.click();
    });
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    await expect.poll(() => finished).toBe(posts.length);
    expect(posts).toHaveLength(1);
    expect(await d.data('taps')).toEqual([{ date: today(), count: 3 }]);
  });

  it('a field tapped into as the form opens keeps the focus: the form does not pull it to its first field a frame later', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'body-temperature');
    const kept = await card.getByRole('button', { name: /^Add (entry|another)$/ }).evaluate(async (b) => {
      const root = b.closest('.card') as HTMLElement;
      (b as HTMLButtonElement).click();
      // the render after the click has happened; the next paint has not
      await new Promise((r) => setTimeout(r, 0));
      const field = root.querySelector<HTMLInputElement>('input.form-number');
      field?.focus();
      for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
      return field !== null && document.activeElement === field;
    });
    expect(kept).toBe(true);
    await card.getByRole('form').getByRole('button', { name: 'Cancel' }).click();
  });

  it('an edit that leaves a stored number alone saves it exactly as stored (96.667 in a whole-number field)', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'oxygen');
    await card.getByRole('button', { name: 'Edit entry' }).click();
    const form = card.getByRole('form');
    expect(await form.getByLabel('SpO2').inputValue()).toBe('96.667');
    await form.getByLabel('Note').fill('after the stairs');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    expect(await d.data('oxygen')).toEqual([{ date: today(), pct: 96.667, note: 'after the stairs' }]);
  });

  it('adds, edits and deletes an entry from the form', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'weight');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    await form.getByLabel('Weight (kg)').fill('85.5');
    await form.getByLabel('Body fat (%)').fill('21.5');
    await form.getByLabel('Note').fill('after a run');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('85.5');
    // the live feed can show the new value a moment before the save's own refresh closes the form
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    expect(await card.locator('.gc-secondary').textContent()).toBe('21.5% body fat');
    expect(await d.data('weight')).toEqual([
      { date: today(), kg: 85.5, fatPercent: 21.5, note: 'after a run' },
    ]);

    await card.getByRole('button', { name: 'Edit entry' }).click();
    expect(await form.getByLabel('Weight (kg)').inputValue()).toBe('85.5');
    await form.getByLabel('Weight (kg)').fill('84.9');
    await form.getByLabel('Body fat (%)').fill('');
    await form.getByLabel('Note').fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('84.9');
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    expect(await card.locator('.gc-secondary').count()).toBe(0);
    expect(await d.data('weight')).toEqual([{ date: today(), kg: 84.9 }]);

    await card.getByRole('button', { name: 'Edit entry' }).click();
    await form.getByRole('button', { name: 'Delete…' }).click();
    await form.getByRole('button', { name: 'Delete entry' }).click();
    await expect.poll(() => card.locator('.gc-empty').textContent()).toBe('Not weighed yet');
    expect(await d.data('weight')).toEqual([]);
  });

  it('a past day the card does not take: Add entry is disabled up front with the reason, nothing saved', async () => {
    const yesterday = addDays(today(), -1);
    const w = await d.open(`/day/${yesterday}`);
    const card = cardOf(w, 'caffeine');
    const add = card.getByRole('button', { name: 'Add entry' });
    expect(await add.isDisabled()).toBe(true);
    expect(await card.locator('.gc-refusal').textContent()).toBe(
      "This card doesn't take entries for past days.",
    );
    expect(await card.getByRole('form').count()).toBe(0);
    // weight takes past days: its button stays enabled on the same page
    expect(
      await cardOf(w, 'weight')
        .getByRole('button', { name: /^(Add|Edit) entry$/ })
        .isDisabled(),
    ).toBe(false);
    expect(await d.data('caffeine')).toEqual([]);
    // the same card takes today's entry
    const t = await d.open('/');
    const c = cardOf(t, 'caffeine');
    await c.getByRole('button', { name: 'Add entry' }).click();
    await c.getByRole('form').getByLabel('Caffeine (mg)').fill('120');
    await c.getByRole('form').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => c.locator('.gc-value').textContent()).toBe('120');
    expect(await c.locator('.gc-unit').first().textContent()).toBe('mg');
  });

  it('a number out of range: the server names the field; fixing it saves', async () => {
    const w = await d.open('/', PHONE);
    d.expectRefusals(w, [422]);
    const card = cardOf(w, 'weight');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    await form.getByLabel('Weight (kg)').fill('501');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('alert').waitFor();
    expect(await form.getByRole('alert').textContent()).toBe('Weight (kg) must be at most 300.');
    expect(await d.data('weight')).toEqual([]);
    await form.getByLabel('Weight (kg)').fill('85');
    expect(await form.getByRole('alert').count()).toBe(0);
    await form.getByRole('button', { name: 'Save' }).click();
    // the template rounds to one decimal
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('85.0');
    await expect.poll(() => card.getByRole('form').count()).toBe(0);
    await card.getByRole('button', { name: 'Edit entry' }).click();
    await card.getByRole('form').getByRole('button', { name: 'Delete…' }).click();
    await card.getByRole('form').getByRole('button', { name: 'Delete entry' }).click();
    await expect.poll(() => d.data('weight')).toEqual([]);
  });

  it('requireAny: Save waits for one of the keys, and says which', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'pressure');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    const save = form.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);
    expect(await form.locator('.form-hint').textContent()).toBe('Fill in at least one of: Systolic, Pulse.');
    await form.getByLabel('Diastolic').fill('80');
    expect(await save.isDisabled()).toBe(true);
    expect(await form.getByText('Beats a minute').count()).toBe(1);
    await form.getByLabel('Pulse').fill('61');
    expect(await save.isDisabled()).toBe(false);
    await save.click();
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('–/80 61');
    expect(await d.data('pressure')).toEqual([{ date: today(), diastolic: 80, pulse: 61 }]);
  });

  it('maxReadingsPerDay 3: readings are listed, the oldest beyond three dropped, one edited', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'body-temperature');
    for (const c of ['36.5', '36.9', '37.4', '38.1']) {
      await card.getByRole('button', { name: /^Add (entry|another)$/ }).click();
      await card.getByRole('form').getByLabel('Temperature (°C)').fill(c);
      await card.getByRole('form').getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => card.locator('.gc-value').textContent()).toBe(c);
    }
    expect(await card.locator('.gc-entry-text').allTextContents()).toEqual(['36.9°C', '37.4°C', '38.1°C']);
    // the day is full: the form says before Save that saving replaces the oldest reading
    await card.getByRole('button', { name: 'Add another' }).click();
    expect(await card.getByRole('form').locator('.form-notice').textContent()).toBe(
      'This day already has 3 readings, the most this card keeps: saving will replace the oldest reading of the day.',
    );
    await card.getByRole('form').getByRole('button', { name: 'Cancel' }).click();
    expect(await card.locator('.gc-pill').textContent()).toBe('Fever');
    await card.getByRole('button', { name: 'Edit entry 2' }).click();
    await card.getByRole('form').getByLabel('Temperature (°C)').fill('37.2');
    await card.getByRole('form').getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => card.locator('.gc-entry-text').allTextContents())
      .toEqual(['36.9°C', '37.2°C', '38.1°C']);
    expect(((await d.data('body-temperature')) as { celsius: number }[]).map((r) => r.celsius)).toEqual([
      36.9, 37.2, 38.1,
    ]);
  });
  it('rows shift while Edit is open (an earlier day added): Save is refused with the sentence, the other row intact; Reload edits the right one', async () => {
    const day = (n: number) => addDays(today(), n);
    const seeded = await d.s.api('/api/manifests/weight/data', {
      json: {
        data: [
          { date: day(-3), kg: 80 },
          { date: today(), kg: 82 },
        ],
      },
    });
    expect(seeded.status, JSON.stringify(seeded.body)).toBeLessThan(300);
    const w = await d.open('/');
    d.expectRefusals(w, [412]);
    const card = cardOf(w, 'weight');
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('82.0');
    const trendBefore = await card.locator('.gc-trend').getAttribute('aria-label');
    await card.getByRole('button', { name: 'Edit entry' }).click();
    const form = card.getByRole('form');
    await form.getByLabel('Weight (kg)').fill('83');
    // another device adds an earlier day: today's row moves from index 1 to 2
    const other = await d.s.api('/api/manifests/weight/entries', {
      json: { entry: { date: day(-1), kg: 90 } },
    });
    expect(other.status).toBe(201);
    // the page has heard of it (its trend is now against the new day), so its latest ETag is current
    await expect.poll(() => card.locator('.gc-trend').getAttribute('aria-label')).not.toBe(trendBefore);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toBe('This entry changed elsewhere, so nothing was saved. Reload it to see the current entry.');
    expect(await d.data('weight')).toEqual([
      { date: day(-3), kg: 80 },
      { date: day(-1), kg: 90 },
      { date: today(), kg: 82 },
    ]);
    await form.getByRole('button', { name: 'Reload entry' }).click();
    expect(await form.getByLabel('Weight (kg)').inputValue()).toBe('82');
    await form.getByLabel('Weight (kg)').fill('83');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.locator('.gc-value').textContent()).toBe('83.0');
    expect(await d.data('weight')).toEqual([
      { date: day(-3), kg: 80 },
      { date: day(-1), kg: 90 },
      { date: today(), kg: 83 },
    ]);
  });
});
