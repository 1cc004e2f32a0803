/**
 * A text field's `maxLength` counts characters as a person counts them, in Chromium as on the
 * server: a note of emoji (a family takes eleven UTF-16 units, a flag four) can be as long as the
 * card says and is stored whole, never cut short or mid-emoji; one character over blocks Save with
 * a sentence naming the field and both counts.
 */
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { cardOf, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const FAMILY = '👨‍👩‍👧‍👦';

const note = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'moments',
    label: 'Moments',
    emoji: '📝',
    view: { enabled: true, component: 'generic-card', display: { template: '{what|}' } },
    writeable: {
      fromWebapp: true,
      inputs: [{ key: 'what', type: 'text', label: 'What', maxLength: 10, required: true }],
    },
  },
  data: [],
};

const d = useDashboard({ timezoneId: TZ, manifests: () => [note] });

describe('a text field with maxLength', { timeout: 60_000 }, () => {
  it('takes as many emoji as the limit says and stores them whole; one more blocks Save', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'moments');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.getByRole('form');
    const ten = `${FAMILY.repeat(4)}🇳🇿🇩🇪👍🏽ok!`;
    await form.getByLabel('What').fill(`${ten}?`);
    expect(await form.getByLabel('What').inputValue()).toBe(`${ten}?`);
    expect(await form.locator('.form-hint').textContent()).toBe('What is 11 characters long; at most 10.');
    expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await form.getByLabel('What').fill(ten);
    expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => d.data('moments')).toEqual([{ date: todayIn(TZ), what: ten }]);
  });
});
