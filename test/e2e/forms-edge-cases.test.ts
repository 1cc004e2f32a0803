/**
 * Entry forms at their edges, in Chromium against the real server:
 * - an optional stepper with a `default` starts at the default but can be cleared, so the entry
 *   leaves it out; the first press after clearing brings the default back; a required stepper has
 *   no Clear;
 * - a stepper stepping a value with more decimals than its step keeps them (1.25 by 0.5 is 1.75,
 *   not 1.8);
 * - a stepper holding a value off its steps (2.5 with a step of 1) moves by one step, not to 4;
 * - a writable card whose only input was dropped at load (an unknown `wobble` type) offers no
 *   "Add entry" and no form: it says it takes no entries from the web app.
 */
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { PHONE } from './browser.js';
import { cardOf, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';

const vitals = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'vitals',
    label: 'Vitals',
    emoji: '💓',
    order: 1,
    view: {
      enabled: true,
      component: 'generic-card',
      display: { template: '{sets|} sets', secondary: '{pulse|}' },
    },
    writeable: {
      fromWebapp: true,
      inputs: [
        { key: 'pulse', type: 'stepper', label: 'Pulse', min: 30, max: 220, default: 70 },
        { key: 'sets', type: 'stepper', label: 'Sets', min: 0, max: 10, default: 3, required: true },
      ],
    },
  },
  data: [],
};

/** Its only input has a type this version does not know: dropped at load (FIELD_DROPPED). */
const mood = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'slider-mood',
    label: 'Slider mood',
    emoji: '🎚️',
    order: 2,
    view: { enabled: true, component: 'generic-card', display: { template: '{level|}' } },
    writeable: { fromWebapp: true, inputs: [{ key: 'level', type: 'wobble', label: 'Level' }] },
  },
  data: [],
};

/** Hours of a nap in half hours, the form starting from the latest row (an agent wrote 1.25). */
const naps = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'naps',
    label: 'Naps',
    emoji: '😴',
    order: 3,
    view: { enabled: true, component: 'generic-card', display: { template: '{hours|} h' } },
    writeable: {
      fromWebapp: true,
      pastAllowed: true,
      maxReadingsPerDay: 99,
      prefillFromLatest: true,
      inputs: [{ key: 'hours', type: 'stepper', label: 'Hours', min: 0, max: 12, step: 0.5, default: 1 }],
    },
  },
  data: [{ date: '2026-01-05', hours: 1.25 }],
};

/** A stepper of whole glasses holding a half (2.5, as a script or the phone may write it). */
const water = () => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'glasses',
    label: 'Glasses',
    order: 4,
    view: { enabled: true, component: 'generic-card', display: { template: '{glasses|}' } },
    writeable: {
      fromWebapp: true,
      inputs: [{ key: 'glasses', type: 'stepper', label: 'Glasses', min: 0, max: 20, step: 1 }],
    },
  },
  data: [{ date: todayIn(TZ), glasses: 2.5 }],
});

const d = useDashboard({ timezoneId: TZ, manifests: () => [vitals, mood, naps, water()] });

describe('entry form edges', () => {
  it('an optional stepper with a default can be left empty; a required one cannot', async () => {
    const w = await d.open('/', PHONE);
    const card = cardOf(w, 'vitals');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    const pulse = form.locator('.stepper').first();
    expect(await pulse.locator('.stepper-value').textContent()).toBe('70');
    expect(await form.getByRole('button', { name: 'Sets: clear' }).count()).toBe(0);
    // clearing, then + brings the default back; clearing again leaves it empty
    await form.getByRole('button', { name: 'Pulse: clear' }).click();
    expect(await pulse.locator('.stepper-value').textContent()).toBe('–');
    await form.getByRole('button', { name: 'Pulse: more' }).click();
    expect(await pulse.locator('.stepper-value').textContent()).toBe('70');
    await form.getByRole('button', { name: 'Pulse: clear' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => d.data('vitals')).toEqual([{ date: todayIn(TZ), sets: 3 }]);
  });

  it('a stepper keeps the decimals of its value: 1.25 stepped by 0.5 is 1.75, then 2.25', async () => {
    const w = await d.open('/', PHONE);
    const card = cardOf(w, 'naps');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    const value = form.locator('.stepper-value');
    expect(await value.textContent()).toBe('1.25');
    await form.getByRole('button', { name: 'Hours: more' }).click();
    expect(await value.textContent()).toBe('1.75');
    await form.getByRole('button', { name: 'Hours: more' }).click();
    expect(await value.textContent()).toBe('2.25');
    await form.getByRole('button', { name: 'Hours: less' }).click();
    expect(await value.textContent()).toBe('1.75');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => d.data('naps'))
      .toEqual([
        { date: '2026-01-05', hours: 1.25 },
        { date: todayIn(TZ), hours: 1.75 },
      ]);
  });

  it('a stepper moves a value off its steps by one step: 2.5 and + is 3.5, not 4', async () => {
    const w = await d.open('/', PHONE);
    const card = cardOf(w, 'glasses');
    await card.getByRole('button', { name: 'Edit entry' }).click();
    const form = card.getByRole('form');
    const value = form.locator('.stepper-value');
    expect(await value.textContent()).toBe('2.5');
    await form.getByRole('button', { name: 'Glasses: more' }).click();
    expect(await value.textContent()).toBe('3.5');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => d.data('glasses')).toEqual([{ date: todayIn(TZ), glasses: 3.5 }]);
  });

  it('a card whose inputs were all dropped offers no entry form', async () => {
    const w = await d.open('/', PHONE);
    const card = cardOf(w, 'slider-mood');
    await card.getByText('This card takes no entries from the web app.').waitFor();
    expect(await card.getByRole('button').count()).toBe(0);
    expect(await card.getByRole('form').count()).toBe(0);
  });
});
