/**
 * The daily prompt's rules (web/prompt/prompt-rules.ts): which
 * cards ask today, in which order, and which "asked" marks are old enough to tidy away. The
 * browser behaviour around them is in test/e2e/daily-prompt.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  promptCandidates,
  promptConfigOf,
  shownKey,
  staleShownKeys,
  wantsPrompt,
} from '../../web/prompt/prompt-rules.js';

const DAY = '2026-04-20';

const moodMeta = (prompt: unknown, writeable: Record<string, unknown> = {}) => ({
  id: 'mood',
  label: 'Mood',
  view: { enabled: true, component: 'generic-card' },
  writeable: { fromWebapp: true, inputs: [{ key: 'mood', type: 'rating' }], ...writeable },
  prompt,
});

const medsMeta = (prompt: unknown) => ({
  id: 'meds',
  label: 'Meds',
  view: { enabled: true, component: 'checklist-card' },
  writeable: { fromWebapp: true },
  prompt,
});

const meds = (doses: unknown[] = [], times = 2) => ({
  items: [{ name: 'Vitamin D', schedule: { type: 'daily', times_per_day: times }, doses }],
});

describe('promptConfigOf', () => {
  it('is off unless enabled is true; whenMissing is on unless false', () => {
    expect(promptConfigOf({})).toEqual({ enabled: false, mode: 'modal', whenMissing: true });
    expect(promptConfigOf(moodMeta({ enabled: 'yes' })).enabled).toBe(false);
    expect(promptConfigOf(moodMeta({ enabled: true, whenMissing: 0 })).whenMissing).toBe(true);
    expect(promptConfigOf(moodMeta({ enabled: true, whenMissing: false })).whenMissing).toBe(false);
  });

  it('mode: as written, else the checklist for schedule renderers and the form for the rest', () => {
    expect(promptConfigOf(medsMeta({ enabled: true })).mode).toBe('checklist');
    expect(promptConfigOf(medsMeta({ enabled: true, mode: 'modal' })).mode).toBe('modal');
    expect(promptConfigOf(moodMeta({ enabled: true, mode: 'popup' })).mode).toBe('modal');
  });
});

describe('wantsPrompt: modal', () => {
  const on = moodMeta({ enabled: true, mode: 'modal' });

  it('asks while today has no row, not once it has one (whenMissing)', () => {
    expect(wantsPrompt(on, [], DAY)).toBe(true);
    expect(wantsPrompt(on, null, DAY)).toBe(true);
    expect(wantsPrompt(on, [{ date: '2026-04-19', mood: 3 }], DAY)).toBe(true);
    expect(wantsPrompt(on, [{ date: DAY, mood: 3 }], DAY)).toBe(false);
    // a timestamp names its calendar day
    expect(wantsPrompt(on, [{ date: `${DAY}T23:30:00+10:00`, mood: 3 }], DAY)).toBe(false);
  });

  it('whenMissing false asks with a row; a view dateField is read', () => {
    expect(wantsPrompt(moodMeta({ enabled: true, whenMissing: false }), [{ date: DAY }], DAY)).toBe(true);
    const dated = { ...on, view: { ...on.view, dateField: 'day' } };
    expect(wantsPrompt(dated, [{ date: DAY }], DAY)).toBe(true);
    expect(wantsPrompt(dated, [{ day: DAY }], DAY)).toBe(false);
  });

  it('never asks a card that cannot take today’s entry', () => {
    expect(wantsPrompt(moodMeta({ enabled: false }), [], DAY)).toBe(false);
    expect(wantsPrompt(moodMeta({ enabled: true }, { fromWebapp: false }), [], DAY)).toBe(false);
    expect(wantsPrompt(moodMeta({ enabled: true }, { todayAllowed: false }), [], DAY)).toBe(false);
    expect(wantsPrompt(moodMeta({ enabled: true }, { inputs: [] }), [], DAY)).toBe(false);
    expect(wantsPrompt({ ...on, enabled: false }, [], DAY)).toBe(false);
    // data that is not a list of rows takes no entries
    expect(wantsPrompt(on, { markdown: 'x' }, DAY)).toBe(false);
  });
});

describe('wantsPrompt: checklist', () => {
  const on = medsMeta({ enabled: true, mode: 'checklist' });
  const taken = { scheduledDate: DAY, takenAt: `${DAY}T08:00:00+02:00` };

  it('asks while a dose due today is untaken and none is logged (whenMissing)', () => {
    expect(wantsPrompt(on, meds(), DAY)).toBe(true);
    expect(wantsPrompt(on, meds([taken]), DAY)).toBe(false);
    // a missed mark is not a dose taken
    expect(wantsPrompt(on, meds([{ scheduledDate: DAY, takenAt: null }]), DAY)).toBe(true);
  });

  it('whenMissing false asks until every due dose is taken', () => {
    const open = medsMeta({ enabled: true, mode: 'checklist', whenMissing: false });
    expect(wantsPrompt(open, meds([taken]), DAY)).toBe(true);
    expect(wantsPrompt(open, meds([taken, taken]), DAY)).toBe(false);
  });

  it('nothing due today, or no items: no prompt', () => {
    const weekly = { items: [{ name: 'B12', schedule: { type: 'weekly', on_days: ['Sun'] } }] };
    expect(wantsPrompt(on, weekly, DAY)).toBe(false); // 20 April 2026 is a Monday
    expect(wantsPrompt(on, { items: [] }, DAY)).toBe(false);
    expect(wantsPrompt(on, [], DAY)).toBe(false);
  });
});

describe('promptCandidates', () => {
  it('keeps enabled prompts of switched-on cards, by meta.order (absent 1000), then label, then id', () => {
    const card = (id: string, meta: Record<string, unknown>) => ({
      id,
      meta: { label: id, prompt: { enabled: true }, ...meta },
    });
    const list = promptCandidates([
      card('z', { order: 1000 }),
      card('none', {}),
      card('b', { order: 40, label: 'Beta' }),
      card('a', { order: 40, label: 'Alpha' }),
      card('off', { order: 1, enabled: false }),
      card('quiet', { order: 2, prompt: { enabled: false } }),
      card('first', { order: -5 }),
    ]);
    expect(list.map((c) => c.id)).toEqual(['first', 'a', 'b', 'none', 'z']);
  });
});

describe('shown marks', () => {
  it('keys name the card and the day', () => {
    expect(shownKey('blood-pressure', DAY)).toBe('klebb-prompt-shown-blood-pressure-2026-04-20');
  });

  it('marks older than the kept days are stale; other keys are never touched', () => {
    const keys = [
      shownKey('mood', DAY),
      shownKey('mood', '2026-04-06'),
      shownKey('mood', '2026-04-05'),
      shownKey('my-card-2', '2025-12-31'),
      'klebb-prompt-shown-broken',
      'klebb.theme',
    ];
    expect(staleShownKeys(keys, DAY, 14)).toEqual([
      shownKey('mood', '2026-04-05'),
      shownKey('my-card-2', '2025-12-31'),
    ]);
  });
});
