import { describe, expect, it } from 'vitest';
import { templateMeta } from '../../test/helpers/templates.js';
import {
  type CombinationSource,
  combinationSourceIds,
  combineText,
  defaultAccessor,
  layoutOf,
  resolveCombination,
} from './combination.js';
import { cssColour } from './css-colour.js';

/** The `meta.view` of a card template in templates/. */
function templateView(id: string): Record<string, unknown> {
  return templateMeta(id).view as Record<string, unknown>;
}

function sources(cards: Record<string, unknown>): (id: string) => CombinationSource | undefined {
  return (id) => {
    if (!Object.hasOwn(cards, id)) return undefined;
    const c = cards[id] as { meta?: unknown; data: unknown } | unknown[];
    return Array.isArray(c) ? { meta: { id, label: id }, data: c } : (c as CombinationSource);
  };
}

const DAY = '2026-04-20';

describe('resolveCombination on the template cards', () => {
  it('morning-check (stack): primary, secondaries, an annotation and a bar, the same source read twice', () => {
    const r = resolveCombination(
      templateView('morning-check'),
      sources({
        'sleep-hours': [
          { date: '2026-04-19', hours: 6 },
          { date: DAY, hours: 7.25, wakeUps: 2 },
        ],
        'heart-rate-resting': [{ date: DAY, bpm: 54 }],
        mood: [{ date: DAY, mood: 4 }],
        hydration: [
          { date: DAY, glasses: 3 },
          { date: DAY, glasses: 1 },
        ],
      }),
      { date: DAY },
    );
    expect(r.layout).toBe('stack');
    expect(r.ignored).toEqual([]);
    expect(r.entries.map((e) => [e.role, e.label, e.state, e.text, e.unit])).toEqual([
      ['primary', 'Slept', 'ok', '7.25', 'h'],
      ['secondary', 'Resting HR', 'ok', '54', 'bpm'],
      ['secondary', 'Woke up', 'ok', '2', '×'],
      ['annotation', 'mood', 'ok', '🙂', undefined],
      ['ring-segment', 'Water', 'ok', '4', undefined],
    ]);
    expect(r.entries[0].date).toBe(DAY);
    expect(r.entries[4]).toMatchObject({ value: 4, goalDaily: 8, ratio: 0.5, complete: false });
  });

  it('daily-rings: ring segments carry goal, ratio, fill and complete; a boolean annotation', () => {
    const r = resolveCombination(
      templateView('daily-rings'),
      sources({
        steps: [{ date: DAY, count: 12000 }],
        'active-minutes': [{ date: DAY, minutes: 15 }],
        hydration: [{ date: DAY, glasses: 8 }],
        workouts: [{ date: DAY, trained: false }],
      }),
      { date: DAY },
    );
    expect(r.layout).toBe('rings');
    const [steps, active, water, trained] = r.entries;
    expect(steps).toMatchObject({
      state: 'ok',
      value: 12000,
      goalDaily: 8000,
      ratio: 1.5,
      fill: 1,
      complete: true,
      colour: '#22c55e',
    });
    expect(active).toMatchObject({
      state: 'ok',
      value: 15,
      goalDaily: 30,
      ratio: 0.5,
      fill: 0.5,
      complete: false,
    });
    expect(water).toMatchObject({ state: 'ok', ratio: 1, complete: true });
    expect(trained).toMatchObject({ role: 'annotation', state: 'ok', text: '❌' });
  });
});

describe('per-source states', () => {
  const view = {
    layout: 'rings',
    combines: [
      { sourceId: 'steps', role: 'ring-segment', accessor: 'count', goalDaily: 10000 },
      { sourceId: 'gone', role: 'primary', label: 'Gone' },
      { role: 'primary', label: 'No id' },
      { sourceId: 'steps', role: 'ring-segment', accessor: 'count' },
      { sourceId: 'steps', role: 'ring-segment', accessor: 'count', goalDaily: -3 },
      { sourceId: 'steps', role: 'secondary', accessor: 'kcal' },
      { sourceId: 'notes', role: 'annotation' },
    ],
  };
  const lookup = sources({
    steps: { meta: { label: 'Steps' }, data: [{ date: '2026-04-19', count: 100 }] },
    notes: [{ date: DAY, note: 'ok' }],
  });

  it('no-entry when the source has no row on the day, no-source, no-goal, no-accessor-match', () => {
    const r = resolveCombination(view, lookup, { date: DAY });
    expect(r.entries.map((e) => [e.label, e.state])).toEqual([
      ['Steps', 'no-entry'],
      ['Gone', 'no-source'],
      ['No id', 'no-source'],
      ['Steps', 'no-goal'],
      ['Steps', 'no-goal'],
      ['Steps', 'no-entry'],
      ['notes', 'ok'],
    ]);
    const prev = resolveCombination(view, lookup, { date: '2026-04-19' });
    expect(prev.entries[0]).toMatchObject({ state: 'ok', value: 100, ratio: 0.01 });
    expect(prev.entries[5]).toMatchObject({ state: 'no-accessor-match', accessor: 'kcal' });
  });

  it('a ring segment whose rows hold no number at the accessor is no-accessor-match', () => {
    const r = resolveCombination(
      { combines: [{ sourceId: 'w', role: 'ring-segment', accessor: 'l', goalDaily: 2 }] },
      sources({
        w: [
          { date: DAY, l: 'lots' },
          { date: DAY, l: null },
          { date: DAY, l: Number.POSITIVE_INFINITY },
        ],
      }),
      { date: DAY },
    );
    expect(r.entries[0].state).toBe('no-accessor-match');
    expect(r.entries[0].ratio).toBeUndefined();
  });

  it('a ring with no rows today is no-entry, never a ratio of 0 or NaN', () => {
    const r = resolveCombination(
      { combines: [{ sourceId: 'w', role: 'ring-segment', goalDaily: 2 }] },
      sources({ w: [] }),
      { date: DAY },
    );
    expect(r.entries[0]).toMatchObject({ state: 'no-entry', text: '' });
    expect(JSON.stringify(r)).not.toMatch(/NaN|Infinity|null/);
  });

  it('ignores entries with a missing, unknown or reserved role, and non-objects', () => {
    const r = resolveCombination(
      {
        combines: [
          'steps',
          { sourceId: 'steps' },
          { sourceId: 'steps', role: 'hero' },
          { sourceId: 'steps', role: 'bar-series' },
          { sourceId: 'steps', role: 'primary' },
        ],
      },
      sources({ steps: [{ date: DAY, count: 5 }] }),
      { date: DAY },
    );
    expect(r.entries.map((e) => e.index)).toEqual([4]);
    expect(r.ignored.map((i) => i.index)).toEqual([0, 1, 2, 3]);
    expect(r.ignored[3].reason).toMatch(/reserved/);
  });

  it('tolerates a config with no combines at all', () => {
    for (const cfg of [undefined, null, 'x', {}, { combines: 'steps' }]) {
      expect(resolveCombination(cfg, sources({}), { date: DAY })).toEqual({
        layout: 'stack',
        entries: [],
        ignored: [],
      });
    }
  });
});

describe('reading rows', () => {
  it('0.7 + 0.1 L of a 0.8 L goal is complete, ratio 1, total 0.8', () => {
    const r = resolveCombination(
      { combines: [{ sourceId: 'water', role: 'ring-segment', accessor: 'amount', goalDaily: 0.8 }] },
      sources({
        water: [
          { date: DAY, amount: 0.7 },
          { date: DAY, amount: 0.1 },
        ],
      }),
      { date: DAY },
    );
    expect(r.entries[0]).toMatchObject({ value: 0.8, text: '0.8', ratio: 1, fill: 1, complete: true });
  });

  it('0.1 + 0.2 reads 0.3', () => {
    const r = resolveCombination(
      { combines: [{ sourceId: 'water', role: 'ring-segment', accessor: 'amount', goalDaily: 2 }] },
      sources({
        water: [
          { date: '2026-04-21', amount: 0.1 },
          { date: '2026-04-21', amount: 0.2 },
        ],
      }),
      { date: '2026-04-21' },
    );
    expect(r.entries[0].text).toBe('0.3');
    expect(r.entries[0].ratio).toBe(0.15);
  });

  it('other roles show the latest entry of the day that has a value', () => {
    const r = resolveCombination(
      { combines: [{ sourceId: 'bp', role: 'primary', accessor: 'systolic' }] },
      sources({
        bp: [
          { date: DAY, systolic: 120 },
          { date: DAY, systolic: 131 },
          { date: DAY, note: 'no reading' },
          { date: '2026-04-21', systolic: 150 },
        ],
      }),
      { date: DAY },
    );
    expect(r.entries[0]).toMatchObject({ state: 'ok', value: 131, text: '131' });
  });

  it('dateContext latest reads each source’s most recent day, in any row order', () => {
    const r = resolveCombination(
      { dateContext: 'latest', combines: [{ sourceId: 'kg', role: 'primary' }] },
      sources({
        kg: [
          { date: '2026-04-18', kg: 85.1 },
          { date: '2026-04-19', kg: 85.3 },
          { date: '2026-04-02', kg: 90 },
        ],
      }),
      { date: DAY },
    );
    expect(r.entries[0]).toMatchObject({ state: 'ok', value: 85.3, date: '2026-04-19', accessor: 'kg' });
  });

  it('dateContext latest on a past day reads the latest day up to it, never a later one', () => {
    const kg = [
      { date: '2026-04-17', kg: 85.6 },
      { date: '2026-04-19', kg: 85.3 },
    ];
    const at = (date: string) =>
      resolveCombination(
        { dateContext: 'latest', combines: [{ sourceId: 'kg', role: 'primary' }] },
        sources({ kg }),
        { date },
      ).entries[0];
    expect(at('2026-04-18')).toMatchObject({ state: 'ok', value: 85.6, date: '2026-04-17' });
    expect(at('2026-04-16')).toMatchObject({ state: 'no-entry' });
  });

  it('uses the source’s own dateField, dotted accessors, and reads a single-object source as one row', () => {
    const r = resolveCombination(
      {
        combines: [
          { sourceId: 'sleep', role: 'primary', accessor: 'stages.deep', unit: 'h' },
          { sourceId: 'profile', role: 'annotation', accessor: 'goal' },
        ],
      },
      sources({
        sleep: {
          meta: { label: 'Sleep', view: { dateField: 'night' } },
          data: [{ night: DAY, stages: { deep: 1.5 } }],
        },
        profile: { meta: { label: 'Profile' }, data: { goal: 'Run 10k' } },
      }),
      { date: DAY },
    );
    expect(r.entries.map((e) => [e.label, e.state, e.text, e.date])).toEqual([
      ['Sleep', 'ok', '1.5', DAY],
      ['Profile', 'ok', 'Run 10k', undefined],
    ]);
  });

  it('the default accessor is the first non-date scalar', () => {
    expect(defaultAccessor({ date: DAY, tags: ['a'], mood: 3, note: 'x' })).toBe('mood');
    expect(defaultAccessor({ day: DAY, kg: 80 }, 'day')).toBe('kg');
    expect(defaultAccessor({ date: DAY, list: [] })).toBeUndefined();
    expect(defaultAccessor('row')).toBeUndefined();
  });

  it('dates in rows may carry a time; rows in the wrong shape are skipped', () => {
    const r = resolveCombination(
      { combines: [{ sourceId: 'hr', role: 'primary', accessor: 'bpm' }] },
      sources({ hr: [null, 'x', 7, { date: `${DAY}T23:30:00+12:00`, bpm: 58 }] }),
      { date: DAY },
    );
    expect(r.entries[0]).toMatchObject({ state: 'ok', text: '58' });
  });
});

describe('helpers', () => {
  it('layoutOf: rings, else stack (chart reserved, unknown → stack)', () => {
    expect(layoutOf({ layout: 'rings' })).toBe('rings');
    expect(layoutOf({ layout: 'chart' })).toBe('stack');
    expect(layoutOf({ layout: 'grid' })).toBe('stack');
    expect(layoutOf(null)).toBe('stack');
  });

  it('combinationSourceIds: distinct ids in order', () => {
    expect(combinationSourceIds(templateView('morning-check'))).toEqual([
      'sleep-hours',
      'heart-rate-resting',
      'mood',
      'hydration',
    ]);
    expect(combinationSourceIds({ combines: [{ sourceId: ' a ' }, {}, 'b', { sourceId: 'a' }] })).toEqual([
      'a',
    ]);
    expect(combinationSourceIds(undefined)).toEqual([]);
  });

  it('combineText: emoji maps (flat or keyed), booleans, clean numbers', () => {
    expect(combineText(4, 'mood', { '4': '🙂' })).toBe('🙂');
    expect(combineText('4', 'mood', { mood: { '4': '🙂' } })).toBe('🙂');
    expect(combineText(9, 'mood', { '4': '🙂' })).toBe('9');
    expect(combineText(true, 'trained', undefined)).toBe('✅');
    expect(combineText(0.1 + 0.2, 'l', undefined)).toBe('0.3');
    expect(combineText(Number.NaN, 'l', undefined)).toBe('');
  });

  it('cssColour lets plain colours through and nothing else', () => {
    for (const ok of [
      '#0ea5e9',
      '#abc',
      'teal',
      'rgb(14 165 233)',
      'hsl(200, 80%, 50%)',
      'oklch(0.7 0.1 200 / 50%)',
    ])
      expect(cssColour(ok)).toBe(ok);
    for (const bad of [
      'url(javascript:alert(1))',
      'red; background: url(x)',
      'expression(alert(1))',
      'var(--accent)',
      'inherit',
      '#12345',
      '',
      7,
      null,
    ])
      expect(cssColour(bad)).toBeUndefined();
  });
});

describe('goalWeekly', () => {
  // 2026-04-20 is a Monday; the week runs to Sunday 26 April
  const workouts = [
    { date: '2026-04-19', sessionCount: 1 },
    { date: '2026-04-20', sessionCount: 1 },
    { date: '2026-04-22', sessionCount: 2 },
    { date: '2026-04-27', sessionCount: 1 },
  ];
  const view = (entry: Record<string, unknown>) => ({
    layout: 'rings',
    combines: [{ sourceId: 'workouts', role: 'ring-segment', accessor: 'sessionCount', ...entry }],
  });

  it('fills against the rows of the Monday-to-Sunday week holding the day, and wins over goalDaily', () => {
    const wed = resolveCombination(view({ goalWeekly: 5, goalDaily: 1 }), sources({ workouts }), {
      date: '2026-04-23',
    });
    expect(wed.entries[0]).toMatchObject({
      state: 'ok',
      value: 3,
      goalDaily: 5,
      period: 'week',
      weekStart: '2026-04-20',
      ratio: 0.6,
      complete: false,
    });
    // a new week starts again
    const nextMonday = resolveCombination(view({ goalWeekly: 5 }), sources({ workouts }), {
      date: '2026-04-27',
    });
    expect(nextMonday.entries[0]).toMatchObject({ value: 1, weekStart: '2026-04-27' });
    // weeks starting on Sunday (the person's calendar in the United States): Sunday 19 April
    // opens the week of Wednesday 22 April, and Sunday 26 April the next one (Monday 27 in it)
    const sundayFirst = resolveCombination(view({ goalWeekly: 5 }), sources({ workouts }), {
      date: '2026-04-22',
      weekStartsOn: 0,
    });
    expect(sundayFirst.entries[0]).toMatchObject({ value: 4, weekStart: '2026-04-19' });
    const nextSunday = resolveCombination(view({ goalWeekly: 5 }), sources({ workouts }), {
      date: '2026-04-26',
      weekStartsOn: 0,
    });
    expect(nextSunday.entries[0]).toMatchObject({ value: 1, weekStart: '2026-04-26' });
    // a week without rows has no entry; the daily goal alone reads the day
    expect(
      resolveCombination(view({ goalWeekly: 5 }), sources({ workouts }), { date: '2026-05-06' }).entries[0]
        .state,
    ).toBe('no-entry');
    expect(
      resolveCombination(view({ goalDaily: 1 }), sources({ workouts }), { date: '2026-04-22' }).entries[0],
    ).toMatchObject({ value: 2, period: 'day' });
  });
});
