/**
 * The card templates of templates/ say what a person needs without editing them: what each
 * card is for in plain words and what else one may search for; for a card showing a number, which
 * direction of change is good and the unit; reminders for a card that takes entries by hand; a
 * calendar marker for a day-by-day card that takes entries; colour ranges for vital signs.
 */
import { describe, expect, it } from 'vitest';
import { KNOWN_CATEGORIES } from '../../src/cards/categories.js';
import { readTemplate, templateIds } from '../helpers/templates.js';

// biome-ignore lint/suspicious/noExplicitAny: manifests are open-ended JSON
type Meta = Record<string, any>;

const NUMERIC_INPUTS = new Set(['number', 'stepper', 'rating']);
const DEVELOPER_WORDS = /meta\.|[{}]|\/api\/|\$HEALTH_HOME|\bJSON\b|manifest/;

/** The first `{field}` of a display template. */
const firstField = (template: unknown) =>
  typeof template === 'string' ? /\{([\w.]+)/.exec(template)?.[1] : undefined;

/** True when the card's headline is a number: a numeric input, or a number in its sample rows. */
function numericHeadline(meta: Meta): boolean {
  if (meta.view?.component !== 'generic-card') return false;
  const field = firstField(meta.view.display?.template);
  if (!field) return false;
  const input = (meta.writeable?.inputs ?? []).find((i: Meta) => i.key === field);
  if (input) return NUMERIC_INPUTS.has(input.type) || input.type === 'emoji-picker';
  return (meta.template?.sample ?? []).some((r: Meta) => typeof r[field] === 'number');
}

const takesEntries = (meta: Meta) =>
  meta.writeable?.fromWebapp === true &&
  ((meta.writeable.inputs ?? []).length > 0 ||
    ['checklist-card', 'schedule-card'].includes(meta.view?.component));

const cases = templateIds().map((id) => [id, readTemplate(id).meta as Meta] as const);

describe.each(cases)('template %s', (id, meta) => {
  it('says what it is for, in words for people, with a known category and search words', () => {
    expect(meta.template?.summary?.length ?? 0).toBeGreaterThan(20);
    expect(meta.template.summary).not.toMatch(DEVELOPER_WORDS);
    expect(meta.template.synonyms?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(KNOWN_CATEGORIES).toContain(meta.category);
  });

  it.runIf(numericHeadline(meta))('a number: says which direction is good, and its unit', () => {
    const display = meta.view.display;
    expect(['up', 'down', 'neutral']).toContain(display.trendArrow?.goodDirection);
    expect(display.trendArrow.field).toBe(firstField(display.template));
    const literal = display.template.replace(/\{[^}]*\}/g, '').trim();
    const emoji = display.template.includes(':emoji}');
    expect(Boolean(display.unit) || literal !== '' || emoji, `${id}: a unit`).toBe(true);
  });

  it.runIf(takesEntries(meta))(
    'takes entries: has a reminder, off until switched on unless it is medicine',
    () => {
      const items = meta.notifications?.items ?? [];
      expect(items.length).toBeGreaterThan(0);
      if (meta.category !== 'medication') for (const item of items) expect(item.default).toBe('off');
    },
  );

  it.runIf(takesEntries(meta) && meta.view?.component === 'generic-card')(
    'a day-by-day card taking entries: marks the calendar',
    () => {
      expect(meta.calendar).toMatchObject({ enabled: true, component: 'day-marker' });
    },
  );

  it.runIf(meta.category === 'vitals' && numericHeadline(meta))('a vital sign: colours its ranges', () => {
    expect(meta.view.display.thresholds?.length ?? 0).toBeGreaterThan(1);
  });

  it.runIf(Array.isArray(meta.template?.sample))('has sample rows for the preview, dated by days ago', () => {
    const sample = meta.template.sample as Meta[];
    expect(sample.length).toBeGreaterThan(0);
    if (meta.view?.component === 'generic-card') {
      for (const row of sample) expect(Number.isInteger(row.daysAgo), JSON.stringify(row)).toBe(true);
    }
  });
});
