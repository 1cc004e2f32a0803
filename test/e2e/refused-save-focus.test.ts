/**
 * A save refused because the entry changed elsewhere (412) leaves the edit form open with Save no
 * longer usable, in Chromium against the real server. Save was disabled while saving and then for
 * good, and a focused button that is disabled drops the focus to the page: a keyboard or
 * screen-reader user who pressed Save heard the refusal but was left at the top of the page, away
 * from the Reload entry button the refusal points to. Now the focus goes to Reload entry.
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { cardOf, useDashboard } from './entry-support.js';
import { focusedName } from './focus.js';

const TZ = 'Europe/Berlin';
const today = () => todayIn(TZ);

const weight = (id: string, data: unknown[]) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label: `Weight ${id}`,
    view: { enabled: true, component: 'generic-card', display: { template: '{kg|–}' } },
    writeable: {
      fromWebapp: true,
      pastAllowed: true,
      inputs: [{ key: 'kg', type: 'number', label: 'Weight (kg)', min: 20, max: 300 }],
    },
  },
  data,
});

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => [
    weight('w1', [
      { date: addDays(today(), -3), kg: 80 },
      { date: today(), kg: 82 },
    ]),
  ],
});

describe('the focus after a refused save', { timeout: 120_000 }, () => {
  it('goes to Reload entry when the entry changed elsewhere', async () => {
    const w = await d.open('/');
    d.expectRefusals(w, [412]);
    const card = cardOf(w, 'w1');
    await card.getByRole('button', { name: 'Edit entry' }).click();
    const form = card.getByRole('form');
    await form.getByLabel('Weight (kg)').fill('83');
    // another device adds an earlier day: today's row moves
    const other = await d.s.api('/api/manifests/w1/entries', {
      json: { entry: { date: addDays(today(), -1), kg: 90 } },
    });
    expect(other.status).toBe(201);
    await form.getByRole('button', { name: 'Save' }).focus();
    await w.page.keyboard.press('Enter');
    await form.getByRole('button', { name: 'Reload entry' }).waitFor();
    expect(await focusedName(w)).toBe('Reload entry');
    expect(await d.data('w1')).toEqual([
      { date: addDays(today(), -3), kg: 80 },
      { date: addDays(today(), -1), kg: 90 },
      { date: today(), kg: 82 },
    ]);
  });
});
