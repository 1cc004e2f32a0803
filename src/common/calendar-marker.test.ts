import { describe, expect, it } from 'vitest';
import { templateMeta } from '../../test/helpers/templates.js';
import { DEFAULT_MARKER, latestEntry, layoutDayCell, markerFor } from './calendar-marker.js';

type Json = Record<string, unknown>;

/** The `meta` of a card template in templates/. */
const meta = (id: string): Json => templateMeta(id);

const day = '2026-04-20';

describe('static markers from the templates', () => {
  it('bp: the static 🩺 on a day with readings, nothing on a day without', () => {
    const m = meta('bp');
    expect(markerFor(m.calendar, m, [{ date: day, systolic: 120, diastolic: 80 }])).toBe('🩺');
    expect(markerFor(m.calendar, m, [])).toBeNull();
    expect(markerFor(m.calendar, m, undefined)).toBeNull();
  });

  it('medication-schedule: the static 💊 on a day with doses', () => {
    const m = meta('medication-schedule');
    const doses = [{ scheduledDate: day, takenAt: `${day}T08:01:00+10:00` }];
    expect(markerFor(m.calendar, m, doses)).toBe('💊');
  });

  it('cards without a calendar block, or with it disabled, put no mark', () => {
    const m = meta('symptoms');
    expect(m.calendar).toBeUndefined();
    expect(markerFor(m.calendar, m, [{ date: day, symptom: 'headache' }])).toBeNull();
    expect(markerFor({ enabled: false, marker: '🤒' }, m, [{ date: day, symptom: 'headache' }])).toBeNull();
  });
});

describe('markerFor', () => {
  const rows = [{ date: day, mood: 4 }];

  it('marker absent or empty: meta.emoji, then •', () => {
    expect(markerFor({ enabled: true }, { emoji: '🙂' }, rows)).toBe('🙂');
    expect(markerFor({ enabled: true, marker: '' }, { emoji: '🙂' }, rows)).toBe('🙂');
    expect(markerFor({ enabled: true }, {}, rows)).toBe(DEFAULT_MARKER);
    expect(markerFor({ enabled: true }, null, rows)).toBe('•');
  });

  it('field-emoji: the day latest entry wins; fallback → meta.emoji → •', () => {
    const cfg = {
      enabled: true,
      marker: {
        type: 'field-emoji',
        field: 'mood',
        emojiMap: { '1': '😩', '4': '🙂', '5': '😄' },
        fallback: '❔',
      },
    };
    const m = { emoji: '🫥' };
    expect(
      markerFor(cfg, m, [
        { date: day, mood: 1 },
        { date: day, mood: 5 },
      ]),
    ).toBe('😄');
    expect(markerFor(cfg, m, [{ date: day, mood: 3 }])).toBe('❔');
    const noFallback = { enabled: true, marker: { type: 'field-emoji', field: 'mood', emojiMap: {} } };
    expect(markerFor(noFallback, m, [{ date: day, mood: 3 }])).toBe('🫥');
    expect(markerFor(noFallback, {}, [{ date: day, mood: 3 }])).toBe('•');
  });

  it('field-emoji: without its own map, uses the keyed display.emojiMap (mood template)', () => {
    const m = meta('mood');
    const cfg = { enabled: true, marker: { type: 'field-emoji', field: 'mood' } };
    expect(markerFor(cfg, m, [{ date: day, mood: 2 }])).toBe('😕');
    expect(markerFor(cfg, m, [{ date: day, mood: '5' }])).toBe('😁');
    expect(markerFor(cfg, m, [{ date: day }])).toBe('🙂');
  });

  it('template: the mini-language, :emoji from meta.view.display.emojiMap (mood template)', () => {
    const m = meta('mood');
    const cfg = { enabled: true, marker: { type: 'template', template: '{mood:emoji}', fallback: '·' } };
    expect(markerFor(cfg, m, [{ date: day, mood: 1 }])).toBe('😞');
    expect(markerFor(cfg, m, [{ date: day, notes: 'x' }])).toBe('·');
    const workouts = { enabled: true, marker: { type: 'template', template: '{trained?💪:}' } };
    expect(markerFor(workouts, meta('workouts'), [{ date: day, trained: true }])).toBe('💪');
    expect(markerFor(workouts, meta('workouts'), [{ date: day, trained: false }])).toBe('🏋️');
  });

  it('threshold: first matching rule, string/number eq, catch-all, fallback', () => {
    const cfg = {
      enabled: true,
      marker: {
        type: 'threshold',
        field: 'hours',
        rules: [
          { max: 5.9, emoji: '🔴' },
          { min: 6, max: 6.9, emoji: '🟠' },
          { min: 7, emoji: '🟢' },
        ],
        fallback: '❔',
      },
    };
    const m = { emoji: '😴' };
    expect(markerFor(cfg, m, [{ date: day, hours: 5 }])).toBe('🔴');
    expect(markerFor(cfg, m, [{ date: day, hours: 6.1 + 0.8 }])).toBe('🟠');
    expect(markerFor(cfg, m, [{ date: day, hours: '8' }])).toBe('🟢');
    expect(markerFor(cfg, m, [{ date: day, note: 'no hours' }])).toBe('❔');
    const eq = {
      enabled: true,
      marker: { type: 'threshold', field: 'type', rules: [{ eq: '4', emoji: '✅' }, { emoji: '⚠️' }] },
    };
    expect(markerFor(eq, m, [{ date: day, type: 4 }])).toBe('✅');
    expect(markerFor(eq, m, [{ date: day, type: 6 }])).toBe('⚠️');
  });

  it('trend-arrow: compares with the previous day given all rows; custom glyphs; fallback without history', () => {
    const all = [
      { date: '2026-04-18', kg: 86 },
      { date: '2026-04-19', kg: 85.3 },
      { date: day, kg: 85.5 },
    ];
    const cfg = { enabled: true, marker: { type: 'trend-arrow', field: 'kg' } };
    const m = { emoji: '⚖️' };
    expect(markerFor(cfg, m, [all[2]], { rows: all })).toBe('⬆️');
    expect(markerFor(cfg, m, [all[1]], { rows: all, date: '2026-04-19' })).toBe('⬇️');
    expect(markerFor(cfg, m, [all[0]], { rows: all })).toBe('⚖️');
    expect(markerFor(cfg, m, [all[2]])).toBe('⚖️');
    const custom = {
      enabled: true,
      marker: { type: 'trend-arrow', field: 'kg', up: '📈', flat: '〰️', fallback: '·' },
    };
    expect(markerFor(custom, m, [all[2]], { rows: all })).toBe('📈');
    expect(markerFor(custom, m, [all[0]], { rows: all })).toBe('·');
    const same = [...all, { date: '2026-04-21', kg: 85.5 }];
    expect(markerFor(custom, m, [same[3]], { rows: same })).toBe('〰️');
    expect(markerFor(cfg, m, [same[3]], { rows: same })).toBe('➡️');
  });

  it('unknown or broken marker objects fall back', () => {
    const m = { emoji: '🧪' };
    expect(markerFor({ enabled: true, marker: { type: 'sparkle' } }, m, [{ date: day }])).toBe('🧪');
    expect(markerFor({ enabled: true, marker: { type: 'field-emoji' } }, m, [{ date: day }])).toBe('🧪');
    expect(
      markerFor({ enabled: true, marker: { type: 'threshold', field: 'v', rules: 'x', fallback: '?' } }, m, [
        { date: day, v: 1 },
      ]),
    ).toBe('?');
    expect(markerFor({ enabled: true, marker: 42 }, m, [{ date: day }])).toBe('🧪');
    expect(markerFor({ enabled: true }, m, [null, 'x'])).toBeNull();
  });
});

describe('latestEntry', () => {
  it('the last object in array order', () => {
    expect(latestEntry([{ a: 1 }, { a: 2 }, null])).toEqual({ a: 2 });
    expect(latestEntry([])).toBeUndefined();
    expect(latestEntry(undefined)).toBeUndefined();
  });

  it('doses: the one taken last, whatever the array order; missed doses do not count', () => {
    const doses = [
      { scheduledDate: day, takenAt: `${day}T20:00:00+10:00`, n: 'evening' },
      { scheduledDate: day, takenAt: `${day}T08:00:00+10:00`, n: 'morning' },
      { scheduledDate: day, takenAt: null, n: 'missed' },
    ];
    expect(latestEntry(doses)?.n).toBe('evening');
  });
});

describe('layoutDayCell', () => {
  it('up to three glyphs and a +N count', () => {
    expect(layoutDayCell(['💓', '💊', null, '🙂', '', '⚖️', '😴'])).toEqual({
      glyphs: ['💓', '💊', '🙂'],
      overflow: 2,
    });
    expect(layoutDayCell(['💓'])).toEqual({ glyphs: ['💓'], overflow: 0 });
    expect(layoutDayCell([], 3)).toEqual({ glyphs: [], overflow: 0 });
    expect(layoutDayCell(['a', 'b'], 1)).toEqual({ glyphs: ['a'], overflow: 1 });
  });
});

describe('threshold markers written with the older name `bands`', () => {
  it('reads `bands` as `rules`', () => {
    const meta = { id: 'bp', label: 'BP', emoji: '🩺' };
    const calendar = {
      enabled: true,
      component: 'day-marker',
      marker: { type: 'threshold', field: 'systolic', bands: [{ min: 140, emoji: '🔴' }, { emoji: '🟢' }] },
    };
    expect(markerFor(calendar, meta, [{ date: '2026-04-20', systolic: 150 }])).toBe('🔴');
    expect(markerFor(calendar, meta, [{ date: '2026-04-20', systolic: 118 }])).toBe('🟢');
  });
});

describe('a card that adds up its day is marked by its total', () => {
  it('eight glasses logged one by one reach the 💧 of eight a day (as the water template marks it)', () => {
    const m: Json = { ...meta('hydration'), emoji: '🥤' };
    const glasses = [3, 3, 2].map((n) => ({ date: day, glasses: n }));
    expect(markerFor(m.calendar, m, glasses, { date: day })).toBe('💧');
    // five glasses are not eight: no 💧, the card's own emoji
    expect(markerFor(m.calendar, m, glasses.slice(1), { date: day })).toBe('🥤');
  });

  it("today's total so far marks only by a rule it cannot fall out of", () => {
    const m = { emoji: '🔸', trends: { aggregate: 'sum' } };
    const calendar = {
      enabled: true,
      marker: {
        type: 'threshold',
        field: 'mg',
        rules: [
          { min: 400, emoji: '☕' },
          { max: 200, emoji: '✅' },
        ],
      },
    };
    const parts = [
      { date: day, mg: 100 },
      { date: day, mg: 50 },
    ];
    expect(markerFor(calendar, m, parts, { date: day })).toBe('✅');
    // under 200 so far is not yet a day under 200
    expect(markerFor(calendar, m, parts, { date: day, unfinished: true })).toBe('🔸');
    const over = [...parts, { date: day, mg: 300 }];
    expect(markerFor(calendar, m, over, { date: day, unfinished: true })).toBe('☕');
  });
});

describe('a trend-arrow on a card that adds up its day compares the days totals', () => {
  const cal = { enabled: true, marker: { type: 'trend-arrow', field: 'ml', fallback: '·' } };
  const rows = [
    { date: '2026-04-12', ml: 250 },
    { date: '2026-04-12', ml: 250 },
    { date: '2026-04-12', ml: 250 },
    { date: '2026-04-13', note: 'no water logged' },
    { date: '2026-04-14', ml: 500 },
    { date: '2026-04-15', ml: 200 },
    { date: '2026-04-15', ml: 200 },
    { date: '2026-04-15', ml: 200 },
    { date: '2026-04-16', ml: 0.1 },
    { date: '2026-04-16', ml: 0.2 },
    { date: '2026-04-17', ml: 0.3 },
  ];
  const of = (m: Json, d: string, unfinished = false) =>
    markerFor(
      cal,
      m,
      rows.filter((r) => r.date === d),
      { rows, date: d, unfinished },
    );

  for (const [where, m] of [
    ['view.aggregate', { view: { aggregate: 'sum' } }],
    ['trends.aggregate', { trends: { aggregate: 'sum' } }],
  ] as const) {
    it(`by ${where}: down from three glasses to one larger glass, up again, flat without float tails`, () => {
      // 500 against the 750 of the 12th (the 13th holds no number), not against its last 250
      expect(of(m, '2026-04-14')).toBe('⬇️');
      // 600 in three glasses against 500, although each glass is smaller
      expect(of(m, '2026-04-15')).toBe('⬆️');
      expect(of(m, '2026-04-17')).toBe('➡️');
      expect(of(m, '2026-04-12')).toBe('·');
    });
  }

  it("today's total still growing has no arrow yet; runningTotal false compares it", () => {
    const m = { view: { aggregate: 'sum' } };
    expect(of(m, '2026-04-14', true)).toBe('·');
    expect(of({ view: { aggregate: 'sum', runningTotal: false } }, '2026-04-14', true)).toBe('⬇️');
  });

  it('a card that does not add up its day still compares its latest entries', () => {
    expect(of({}, '2026-04-14')).toBe('⬆️');
  });
});
