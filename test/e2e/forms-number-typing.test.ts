/**
 * A number typed as the person's keyboard and region write it is stored as that number, in an
 * English browser too: a decimal comma (`72,4`, a German keypad's decimal key), grouped digits
 * (`1.234,5`), full-width digits from a Japanese input method, Arabic-Indic digits. A browser's own
 * number field read `72,4` as 724 there. A whole-number field takes `8,432` as 8432; a decimal
 * field says that `1,500` could be 1500 or 1.5 instead of guessing, and text that is no number
 * blocks Save with a sentence.
 */
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { cardOf, example, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';

const counts = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'counts',
    label: 'Counts',
    view: { enabled: true, component: 'generic-card', display: { template: '{steps|} {litres|}' } },
    writeable: {
      fromWebapp: true,
      maxReadingsPerDay: 10,
      inputs: [
        { key: 'steps', type: 'number', label: 'Steps', step: 1 },
        { key: 'litres', type: 'number', label: 'Water (L)', step: 0.1 },
      ],
    },
  },
  data: [],
};

const d = useDashboard({ timezoneId: TZ, manifests: () => [example('weight'), counts] });

async function openForm(id: string) {
  const w = await d.open('/');
  const card = cardOf(w, id);
  await card.getByRole('button', { name: /^Add (entry|another)$/ }).click();
  return card.getByRole('form');
}

describe('numbers typed in an English browser', { timeout: 90_000 }, () => {
  it('a decimal comma is a decimal mark: 72,4 kg and 19,5 % are stored as 72.4 and 19.5', async () => {
    const form = await openForm('weight');
    await form.getByLabel('Weight (kg)').pressSequentially('72,4');
    await form.getByLabel('Body fat (%)').pressSequentially('19,5');
    expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => d.data('weight')).toEqual([{ date: todayIn(TZ), kg: 72.4, fatPercent: 19.5 }]);
  });

  it('grouped, full-width and Arabic-Indic digits; a whole-number field reads 8,432 as 8432', async () => {
    const cases: [string, string, Record<string, number>][] = [
      ['Steps', '8,432', { steps: 8432 }],
      ['Steps', '１２３４５', { steps: 12345 }],
      ['Water (L)', '1.234,5', { litres: 1234.5 }],
      ['Water (L)', '٢٫٥', { litres: 2.5 }],
    ];
    for (const [label, typed, stored] of cases) {
      const form = await openForm('counts');
      await form.getByLabel(label).fill(typed);
      await form.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(async () => ((await d.data('counts')) as Record<string, unknown>[]).at(-1))
        .toEqual({ date: todayIn(TZ), ...stored });
    }
  });

  it('1,500 in a decimal field could be two numbers, and text is no number: Save waits with a sentence', async () => {
    const before = await d.data('counts');
    const form = await openForm('counts');
    await form.getByLabel('Water (L)').fill('1,500');
    expect(await form.locator('.form-hint').textContent()).toBe(
      'Water (L): “1,500” could be 1500 or 1.5. Write 1.5 with a point, or 1500 without the comma.',
    );
    expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await form.getByLabel('Water (L)').fill('lots');
    expect(await form.locator('.form-hint').textContent()).toBe('Water (L) must be a number.');
    expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await form.getByLabel('Water (L)').fill('1.5');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => ((await d.data('counts')) as Record<string, unknown>[]).at(-1))
      .toEqual({ date: todayIn(TZ), litres: 1.5 });
    expect(((await d.data('counts')) as unknown[]).length).toBe((before as unknown[]).length + 1);
  });
});
