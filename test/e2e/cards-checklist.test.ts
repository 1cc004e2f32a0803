/**
 * `checklist-card` in Chromium with the medication-schedule template: the items due on the shown
 * day (weekly days, times of day, cycles), grouped; ticking a dose appends `{scheduledDate, takenAt}` to the
 * item's doses through the rows API and a second tap undoes it; a day the card does not take
 * shows disabled ticks with the reason.
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { PHONE, scrollsSideways } from './browser.js';
import { cardOf, example, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    const strict = example('medication-schedule');
    strict.meta.id = 'strict-drops';
    strict.meta.label = 'Strict drops';
    strict.meta.writeable.pastAllowed = false;
    strict.meta.view.showSparkline = true;
    strict.data.items = [{ name: 'Vitamin C', schedule: { type: 'daily' }, doses: [] }];
    delete strict.data.groups;
    const course = example('medication-schedule');
    course.meta.id = 'antibiotic-course';
    course.meta.label = 'Antibiotic course';
    course.data = {
      items: [
        {
          name: 'Amoxicillin',
          dose: '500 mg',
          schedule: { type: 'daily', times_per_day: 3 },
          cycles: [{ type: 'on', start: '2026-04-20', end: '2026-04-26' }],
          doses: [],
        },
        {
          name: 'Probiotic',
          schedule: { type: 'daily' },
          cycles: [{ type: 'on', start: '2026-04-20', end: '2026-04-29' }],
          doses: [],
        },
      ],
    };
    return [example('medication-schedule'), strict, course];
  },
});

type Item = { name: string; doses: Record<string, unknown>[] };
const items = async (id: string) => ((await d.data(id)) as { items: Item[] }).items;

describe('checklist-card', { timeout: 120_000 }, () => {
  it('ticks and unticks the doses due on a day', async () => {
    const w = await d.open('/day/2026-04-20');
    const card = cardOf(w, 'medication-schedule');
    await card.locator('.cl-count').waitFor();
    expect(await card.locator('.cl-group-title').allTextContents()).toEqual(['With breakfast', 'Evening']);
    expect(await card.locator('.cl-name').allTextContents()).toEqual([
      'Levothyroxine',
      'Ramipril',
      'Atorvastatin',
    ]);
    // a Monday: the weekly one (Saturdays) and the as-needed one are not due
    expect(await card.locator('.cl-not-due').textContent()).toBe('Not due: Methotrexate, Paracetamol');
    expect(await card.locator('.cl-count').textContent()).toBe('0 of 4 done');

    const first = card.getByRole('checkbox', { name: 'Ramipril, Morning (1 of 2)' });
    await first.click();
    await expect.poll(() => first.getAttribute('aria-checked')).toBe('true');
    expect(await card.locator('.cl-count').textContent()).toBe('1 of 4 done');
    const ramipril = async () => (await items('medication-schedule'))[1];
    const [dose] = (await ramipril()).doses;
    expect((await ramipril()).doses).toHaveLength(1);
    expect(dose.scheduledDate).toBe('2026-04-20');
    // taken now, written with the person's own offset (Berlin: +01:00 or +02:00)
    expect(dose.takenAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]:00$/);
    expect(dose.offSchedule).toBeUndefined();

    const second = card.getByRole('checkbox', { name: 'Ramipril, Evening (2 of 2)' });
    await second.click();
    await expect.poll(() => card.locator('.cl-count').textContent()).toBe('2 of 4 done');
    // a second tap on a ticked dose undoes the latest
    await second.click();
    await expect.poll(() => card.locator('.cl-count').textContent()).toBe('1 of 4 done');
    expect((await ramipril()).doses).toHaveLength(1);
    await first.click();
    await expect.poll(async () => (await ramipril()).doses).toEqual([]);
  });

  it('follows the weekly days and the cycles: Saturday adds the weekly one; a course ends', async () => {
    const sat = await d.open('/day/2026-04-25', PHONE);
    const meds = cardOf(sat, 'medication-schedule');
    await meds.locator('.cl-count').waitFor();
    expect(await meds.locator('.cl-name').allTextContents()).toEqual([
      'Levothyroxine',
      'Ramipril',
      'Atorvastatin',
      'Methotrexate',
    ]);
    expect(await scrollsSideways(sat.page)).toBe(false);
    const w = await d.open('/day/2026-04-28', PHONE);
    const card = cardOf(w, 'antibiotic-course');
    await card.locator('.cl-count').waitFor();
    expect(await card.locator('.cl-name').allTextContents()).toEqual(['Probiotic']);
    expect(await card.locator('.cl-not-due').textContent()).toBe('Not due: Amoxicillin');
    const later = await d.open('/day/2026-05-20');
    await cardOf(later, 'antibiotic-course').locator('.cl-empty').waitFor();
    expect(await cardOf(later, 'antibiotic-course').locator('.cl-empty').textContent()).toBe(
      'Nothing due on 20 May.',
    );
  });

  it('a past day the card does not take: disabled ticks and the reason; today works', async () => {
    const yesterday = addDays(todayIn(TZ), -1);
    const w = await d.open(`/day/${yesterday}`);
    const card = cardOf(w, 'strict-drops');
    await card.locator('.cl-count').waitFor();
    expect(await card.getByRole('checkbox', { name: 'Vitamin C' }).isDisabled()).toBe(true);
    expect(await card.locator('.cl-refusal').textContent()).toBe(
      "This card doesn't take entries for past days.",
    );
    // the 30-day strip (showSparkline): 30 days, none taken yet
    expect(await card.locator('.adherence-strip .strip-day').count()).toBe(30);
    const t = await d.open('/');
    const box = cardOf(t, 'strict-drops').getByRole('checkbox', { name: 'Vitamin C' });
    await box.click();
    await expect.poll(() => box.getAttribute('aria-checked')).toBe('true');
    expect((await items('strict-drops'))[0].doses[0].scheduledDate).toBe(todayIn(TZ));
    expect(await cardOf(t, 'strict-drops').locator('.strip-full').count()).toBe(1);
  });
});
