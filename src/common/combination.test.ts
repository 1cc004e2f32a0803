import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type CombinationSource,
  combinationSourceIds,
  combineText,
  defaultAccessor,
  layoutOf,
  resolveCombination,
} from './combination.js';
import { cssColour } from './css-colour.js';

/** The shared example manifests, read at test time (never copied). */
const EXAMPLES = new URL('../../../shared/cases/manifests/examples/', import.meta.url);

function example(id: string): { meta: Record<string, unknown> & { view: Record<string, unknown> } } {
  return JSON.parse(readFileSync(new URL(`${id}.example.json`, EXAMPLES), 'utf8'));
}

function sources(cards: Record<string, unknown>): (id: string) => CombinationSource | undefined {
  return (id) => {
    if (!Object.hasOwn(cards, id)) return undefined;
    const c = cards[id] as { meta?: unknown; data: unknown } | unknown[];
    return Array.isArray(c) ? { meta: { id, label: id }, data: c } : (c as CombinationSource);
  };
}

const DAY = '2026-04-20';

describe('resolveCombination on the example cards', () => {
  it('activity (stack): primary, secondary and an annotation from three cards', () => {
    const view = example('activity').meta.view;
    const r = resolveCombination(
      view,
      sources({
        steps: [
          { date: '2026-04-19', count: 4000 },
          { date: DAY, count: 8123 },
        ],
        'active-minutes': [{ date: DAY, minutes: 42 }],
        workouts: [{ date: DAY, trained: true, type: 'Run' }],
      }),
      { date: DAY },
    );
    expect(r.layout).toBe('stack');
    expect(r.ignored).toEqual([]);
    expect(r.entries.map((e) => [e.role, e.label, e.state, e.text, e.unit])).toEqual([
      ['primary', 'Steps', 'ok', '8123', 'steps'],
      ['secondary', 'Active minutes', 'ok', '42', 'min'],
      ['annotation', 'Trained', 'ok', '✅', undefined],
    ]);
    expect(r.entries[0].date).toBe(DAY);
  });

  it('sleep: a per-source emojiMap, and the same source read twice', () => {
    const view = example('sleep').meta.view;
    const r = resolveCombination(
      view,
      sources({
        'sleep-hours': [{ date: DAY, hours: 7.25 }],
        mood: [{ date: DAY, mood: 4, wakeUps: 2 }],
      }),
      { date: DAY },
    );
    expect(r.entries.map((e) => [e.label, e.state, e.text])).toEqual([
      ['Asleep', 'ok', '7.25'],
      ['Mood', 'ok', '🙂'],
      ['Wake-ups', 'ok', '2'],
    ]);
  });

  it('activity-rings: ring segments carry goal, ratio, fill and complete', () => {
    const view = example('activity-rings').meta.view;
    const r = resolveCombination(
      view,
      sources({
        steps: [{ date: DAY, count: 12000 }],
        'active-minutes': [{ date: DAY, minutes: 15 }],
        workouts: [{ date: DAY, trained: false }],
      }),
      { date: DAY },
    );
    expect(r.layout).toBe('rings');
    const [steps, active, trained] = r.entries;
    expect(steps).toMatchObject({
      state: 'ok',
      value: 12000,
      goalDaily: 10000,
      ratio: 1.2,
      fill: 1,
      complete: true,
      colour: '#0ea5e9',
    });
    expect(active).toMatchObject({
      state: 'ok',
      value: 15,
      goalDaily: 30,
      ratio: 0.5,
      fill: 0.5,
      complete: false,
    });
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
      sources({ hr: [null, 'x', 7, { date: `${DAY}T07:30:00+12:00`, bpm: 58 }] }),
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
    expect(combinationSourceIds(example('sleep').meta.view)).toEqual(['sleep-hours', 'mood']);
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
