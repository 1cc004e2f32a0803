/**
 * Bad data never blanks a page (docs/MANIFEST-SCHEMA.md "Renderers": a renderer shows a short
 * note in the card instead of failing):
 * - an impossible date ("2026-13-45") written over the REST API into a `table-list` shows as the
 *   text it is, and the other cards of /reports still render;
 * - a renderer that throws anyway is caught by the card's error boundary: that card says "This
 *   card could not be drawn: …", its neighbours render, the page keeps working.
 */
import { describe, expect, it } from 'vitest';
import { cardOf, useDashboard } from './entry-support.js';

const TZ = 'Europe/Berlin';
const TOKEN = 'bad-data-token-0123456789abcdef';

const weights = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'weights',
    label: 'Weights',
    emoji: '⚖️',
    order: 1,
    reports: {
      enabled: true,
      component: 'table-list',
      columns: [{ field: 'date', format: 'date' }, { field: 'kg' }],
    },
    writeable: { fromWebapp: true, inputs: [{ key: 'kg', type: 'number', label: 'Weight' }] },
  },
  data: [{ date: '2026-11-02', kg: 71 }],
};

/** A table whose one date the test makes the browser unable to format. */
const walks = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'walks',
    label: 'Walks',
    emoji: '🚶',
    order: 3,
    reports: {
      enabled: true,
      component: 'table-list',
      columns: [{ field: 'date', format: 'date' }, { field: 'km' }],
    },
  },
  data: [{ date: '2026-11-01', km: 4 }],
};

const steps = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'steps',
    label: 'Steps',
    emoji: '👟',
    order: 2,
    reports: { enabled: true, component: 'table-list', columns: [{ field: 'day' }, { field: 'count' }] },
  },
  data: [{ day: 'Monday', count: 9000 }],
};

/** A Body weight card on Today (headline "{kg:round(1)}" with the unit kg). */
const body = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'body',
    label: 'Body weight',
    emoji: '⚖️',
    order: 4,
    view: { enabled: true, component: 'generic-card', display: { template: '{kg:round(1)}', unit: 'kg' } },
    writeable: { fromWebapp: true, inputs: [{ key: 'kg', type: 'number', label: 'Weight (kg)', max: 300 }] },
  },
  data: [],
};

const d = useDashboard({
  timezoneId: TZ,
  env: { AGENT_API_TOKEN: TOKEN },
  manifests: () => [weights, steps, walks, body],
});

describe('values the card’s form would refuse, written over the API, on Today', () => {
  const headlineAfter = async (kg: unknown) => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date());
    const res = await d.s.api('/api/manifests/body/rows', {
      json: { value: { date: today, kg } },
      token: TOKEN,
    });
    expect(res.status).toBe(201);
    const w = await d.open('/');
    const card = cardOf(w, 'body');
    await card.locator('.gc-headline').waitFor();
    return { w, card };
  };

  it('a text in the number field is shown as "not a number", without the unit after it', async () => {
    const { card } = await headlineAfter('heavy');
    const headline = card.locator('.gc-headline');
    await expect.poll(() => headline.textContent()).toBe('not a number');
    expect(await card.textContent()).not.toMatch(/heavy kg/);
  });

  it('an absurd magnitude is written compactly and stays inside its card', async () => {
    const { card } = await headlineAfter(1e308);
    const headline = card.locator('.gc-headline');
    await expect.poll(() => headline.textContent()).toBe('1E308kg');
    const fits = await card.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const value = el.querySelector('.gc-headline')?.getBoundingClientRect();
      return !!value && value.right <= box.right && value.height < 80;
    });
    expect(fits).toBe(true);
  });
});

describe('bad data on /reports', () => {
  it('an impossible date shows as its text and every card still renders', async () => {
    // written over the REST API with the agent token (the API accepts any JSON row)
    const res = await d.s.api('/api/manifests/weights/rows', {
      json: { value: { date: '2026-13-45', kg: 70 } },
      token: TOKEN,
    });
    expect(res.status).toBe(201);
    const w = await d.open('/reports');
    const table = cardOf(w, 'weights');
    await table.getByRole('cell', { name: '2026-13-45' }).waitFor();
    expect(await table.locator('tbody').textContent()).toContain('70');
    await cardOf(w, 'steps').getByRole('cell', { name: 'Monday' }).waitFor();
    expect(await table.locator('[data-renderer-note]').count()).toBe(0);
  });

  it('a renderer that throws shows a note in its own card, not a blank page', async () => {
    const w = await d.open('/');
    // a browser whose date formatting fails for one day: the table of that card throws while drawing
    await w.page.evaluate(() => {
      const proto = Intl.DateTimeFormat.prototype;
      const bound = Object.getOwnPropertyDescriptor(proto, 'format')?.get as (
        this: Intl.DateTimeFormat,
      ) => Intl.DateTimeFormat['format'];
      Object.defineProperty(proto, 'format', {
        configurable: true,
        get(this: Intl.DateTimeFormat) {
          return (date?: Date | number) => {
            if (
              date instanceof Date &&
              date.getUTCFullYear() === 2026 &&
              date.getUTCMonth() === 10 &&
              date.getUTCDate() === 1
            )
              throw new RangeError('Test: this day cannot be formatted');
            return bound.call(this)(date);
          };
        },
      });
    });
    await w.page.getByRole('link', { name: 'Reports' }).first().click();
    const note = cardOf(w, 'walks').locator('[data-renderer-note="problem"]');
    await note.waitFor();
    expect(await note.textContent()).toContain(
      'This card could not be drawn: Test: this day cannot be formatted',
    );
    await cardOf(w, 'steps').getByRole('cell', { name: 'Monday' }).waitFor();
    await cardOf(w, 'weights').getByRole('cell', { name: '71' }).waitFor();
    await w.page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    // the boundary logs the failure once, as a console error: expected here
    const logged = w.problems.splice(0);
    expect(logged.filter((p) => p.includes('Test: this day cannot be formatted')).length).toBeGreaterThan(0);
  });
});
