/**
 * Schedule cards written the way the older app wrote them, in Chromium: an item's dose given as
 * `dose_label` ("18 units") or as an amount and unit (`dose_mg: 0.25`, `dose_units: "mg"`) is
 * shown on the card and in the reports; `checkOffForm` naming its fields by the keys of
 * `writeable.inputs` asks for them on a check-off and stores them in the dose, with
 * `previousDosePrompt` over the previous dose's fields; an item's `action_label` names its
 * off-schedule button; the reports' `vocab` ("sessions done", "skipped") is what they say.
 */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn, weekdayOf } from '../../src/common/dates.js';
import { settled } from './browser.js';
import { cardOf, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const today = () => todayIn(TZ);
const short = (date: string) => weekdayOf(date).slice(0, 3);

const d = useDashboard({
  timezoneId: TZ,
  manifests: () => {
    const t = today();
    // one lift due today, one due the day after; three weeks of sessions, one skipped
    const lift = (name: string, due: string, label: string) => ({
      name,
      dose_label: label,
      action_label: 'Lift',
      schedule: { type: 'weekly', on_days: [short(due)] },
      cycles: [{ type: 'on', start: addDays(due, -21) }],
      doses: [-21, -14, -7].map((k) => ({
        scheduledDate: addDays(due, k),
        takenAt: k === -14 ? null : `${addDays(due, k)}T07:14:00`,
      })),
    });
    return [
      {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'strength',
          label: 'Strength Training',
          emoji: '🏋️',
          view: { enabled: true, component: 'schedule-card' },
          trends: {
            enabled: true,
            component: 'schedule-timeline',
            itemsPath: 'items',
            vocab: {
              done: 'Done',
              missed: 'Skipped',
              offSchedule: 'Extra session',
              upcoming: 'Upcoming',
              rest: 'Rest day',
            },
          },
          reports: {
            enabled: true,
            component: 'adherence-report',
            showCompliance: true,
            vocab: {
              headline: 'Consistency',
              done: 'Sessions done',
              missed: 'Skipped',
              offSchedule: 'Extra',
              noun: 'session',
            },
          },
          writeable: { fromWebapp: true, pastAllowed: true, todayAllowed: true, futureAllowed: false },
        },
        data: {
          items: [lift('Bench Press', t, '72.5 kg · 4×8'), lift('Back Squat', addDays(t, 1), '95 kg · 5×5')],
        },
      },
      {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'injections',
          label: 'Injections',
          emoji: '💉',
          view: {
            enabled: true,
            component: 'schedule-card',
            checkOffForm: {
              currentDoseFields: ['site_side', 'site_region'],
              previousDoseFields: ['reactions'],
              previousDosePrompt: 'How does the last injection site look?',
            },
          },
          reports: { enabled: true, component: 'adherence-report', showCompliance: true },
          writeable: {
            fromWebapp: true,
            pastAllowed: true,
            todayAllowed: true,
            inputs: [
              { key: 'site_side', label: 'Side', type: 'chips', options: ['left', 'right', 'centre'] },
              { key: 'site_region', label: 'Region', type: 'chips', options: ['belly', 'flank', 'thigh'] },
              { key: 'reactions', label: 'Reactions', type: 'chips-multi', options: ['bruised', 'red'] },
            ],
          },
        },
        data: {
          items: [
            {
              name: 'BPC-157',
              short_name: 'BPC',
              dose_mg: 0.25,
              dose_units: 'mg',
              schedule: { type: 'daily' },
              doses: [
                {
                  scheduledDate: addDays(t, -1),
                  takenAt: `${addDays(t, -1)}T08:14:00`,
                  site_side: 'left',
                  site_region: 'belly',
                  reactions: ['bruised'],
                },
              ],
            },
            { name: 'Insulin glargine', dose_label: '18 units', schedule: { type: 'daily' }, doses: [] },
          ],
        },
      },
    ];
  },
});

describe('schedule cards in the older spellings', { timeout: 120_000 }, () => {
  it('shows the doses, asks for the fields the check-off form names by key and stores them', async () => {
    const w = await d.open('/');
    const bpc = cardOf(w, 'injections').locator('.sc-item[data-item="BPC-157"]');
    await bpc.waitFor();
    expect(await bpc.locator('.sc-sub').textContent()).toBe('0.25 mg · Daily');
    expect(
      await cardOf(w, 'injections').locator('.sc-item[data-item="Insulin glargine"] .sc-sub').textContent(),
    ).toBe('18 units · Daily');
    expect(await bpc.locator('.sc-prev').textContent()).toBe(
      'How does the last injection site look? Reactions: bruised',
    );

    await bpc.getByRole('checkbox', { name: 'BPC-157' }).click();
    const form = bpc.getByRole('form');
    await form.getByRole('radio', { name: 'right' }).click();
    await form.getByRole('radio', { name: 'thigh' }).click();
    await form.getByRole('button', { name: 'Taken' }).click();
    await expect
      .poll(() => bpc.getByRole('checkbox', { name: 'BPC-157' }).getAttribute('aria-checked'))
      .toBe('true');
    const data = (await d.data('injections')) as { items: { doses: Record<string, unknown>[] }[] };
    expect(data.items[0].doses.at(-1)).toMatchObject({
      scheduledDate: today(),
      site_side: 'right',
      site_region: 'thigh',
    });

    const bench = cardOf(w, 'strength').locator('.sc-item[data-item="Bench Press"]');
    expect(await bench.locator('.sc-sub').textContent()).toMatch(/^72\.5 kg · 4×8 · /);
    // the lift not due today is logged with the item's own verb
    const squat = cardOf(w, 'strength').locator('.sc-item[data-item="Back Squat"]');
    expect(await squat.getByRole('button', { name: 'Lift' }).count()).toBe(1);
  });

  it('the reports speak in the card’s words and show the doses', async () => {
    const w = await d.open('/reports');
    await settled(w.page);
    const strength = cardOf(w, 'strength');
    await strength.locator('.adh').waitFor();
    expect(await strength.locator('.adh-headline').textContent()).toBe('Consistency');
    expect(await strength.locator('.adh-summary-text').textContent()).toMatch(/^of sessions done in /);
    const bench = strength.locator('.adh-item[data-item="Bench Press"]');
    expect(await bench.locator('.adh-dose').textContent()).toBe(' · 72.5 kg · 4×8');
    expect(await bench.locator('.adh-detail').textContent()).toMatch(/^2 of 3 sessions done/);
    expect(
      await cardOf(w, 'injections').locator('.adh-item[data-item="BPC-157"] .adh-dose').textContent(),
    ).toBe(' · 0.25 mg');

    await w.page.goto(`${d.s.url}/trends`);
    await settled(w.page);
    const timeline = cardOf(w, 'strength').locator('.timeline');
    await timeline.waitFor();
    expect(await timeline.locator('.timeline-key li').allTextContents()).toEqual([
      ' done',
      ' some',
      ' skipped',
      ' upcoming',
    ]);
    // a day with nothing due is a rest day
    expect(await timeline.locator('.timeline-cell[data-state="none"]').first().getAttribute('title')).toMatch(
      /: rest day$/,
    );
  });
});
