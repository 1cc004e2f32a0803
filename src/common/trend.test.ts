import { describe, expect, it } from 'vitest';
import { templateIds, templateMeta } from '../../test/helpers/templates.js';
import { toFiniteNumber } from './numbers.js';
import {
  computeTrend,
  dayOf,
  dayRange,
  formatDelta,
  goodDirectionOf,
  indexDatedRows,
  lastOnOrBefore,
  MINUS,
  numericPoints,
  numericPointsIndexed,
  numericSeries,
  sparklineField,
  sparklineFieldIndexed,
  trendAt,
  trendTone,
} from './trend.js';

/** The `meta.view.display` of the card template `id`. */
function display(id: string): Record<string, unknown> {
  return (templateMeta(id).view as { display: Record<string, unknown> }).display;
}

describe('computeTrend', () => {
  it('85.3 → 85.5 is +0.2, not 0.20000000000000284', () => {
    const rows = [
      { date: '2026-04-19', kg: 85.3 },
      { date: '2026-04-20', kg: 85.5 },
    ];
    const t = computeTrend(rows, 'kg');
    expect(t).toEqual({
      dir: 'up',
      delta: 0.2,
      prev: 85.3,
      current: 85.5,
      prevDate: '2026-04-19',
      decimals: 1,
    });
    expect(formatDelta(t?.delta ?? Number.NaN)).toBe('+0.2');
  });

  it('80 → 80.2 is +0.2; 1000000.1 → 1000000.3 is +0.2', () => {
    expect(
      computeTrend(
        [
          { date: '2026-04-19', v: 80 },
          { date: '2026-04-20', v: 80.2 },
        ],
        'v',
      )?.delta,
    ).toBe(0.2);
    expect(
      computeTrend(
        [
          { date: '2026-04-19', v: 1000000.1 },
          { date: '2026-04-20', v: 1000000.3 },
        ],
        'v',
      )?.delta,
    ).toBe(0.2);
  });

  it('down and flat', () => {
    const down = computeTrend(
      [
        { date: '2026-04-19', v: 72 },
        { date: '2026-04-20', v: 70.5 },
      ],
      'v',
    );
    expect(down?.dir).toBe('down');
    expect(down?.delta).toBe(-1.5);
    expect(formatDelta(down?.delta ?? 0)).toBe(`${MINUS}1.5`);
    const flat = computeTrend(
      [
        { date: '2026-04-19', v: 7.1 },
        { date: '2026-04-20', v: 7.1 },
      ],
      'v',
    );
    expect(flat?.dir).toBe('flat');
    expect(flat?.delta).toBe(0);
  });

  it('works on unsorted rows and skips earlier rows without a number', () => {
    const rows = [
      { date: '2026-04-20', kg: 85.5 },
      { date: '2026-04-15', kg: 86.4 },
      { date: '2026-04-19', note: 'forgot to weigh' },
      { date: '2026-04-18', kg: '' },
      { date: '2026-04-17', kg: JSON.parse('1e999') },
      { date: '2026-04-16', kg: 85.9 },
      { kg: 10 },
      { date: 'yesterday', kg: 10 },
    ];
    expect(computeTrend(rows, 'kg')).toMatchObject({
      dir: 'down',
      delta: -0.4,
      prev: 85.9,
      prevDate: '2026-04-16',
    });
  });

  it('compares with the latest entry of the most recent earlier day, never with the same day', () => {
    const rows = [
      { date: '2026-04-19', sys: 130 },
      { date: '2026-04-19', sys: 124 },
      { date: '2026-04-20', sys: 118 },
      { date: '2026-04-20', sys: 121 },
    ];
    expect(computeTrend(rows, 'sys')).toMatchObject({ current: 121, prev: 124, delta: -3, dir: 'down' });
    expect(
      computeTrend(
        [
          { date: '2026-04-20', sys: 118 },
          { date: '2026-04-20', sys: 121 },
        ],
        'sys',
      ),
    ).toBeNull();
  });

  it('uses currentDate (the viewed day) when given', () => {
    const rows = [
      { date: '2026-04-18', v: 10 },
      { date: '2026-04-19', v: 12 },
      { date: '2026-04-20', v: 9 },
    ];
    expect(computeTrend(rows, 'v', { currentDate: '2026-04-19' })).toMatchObject({
      dir: 'up',
      delta: 2,
      prev: 10,
    });
    expect(computeTrend(rows, 'v', { currentDate: '2026-04-21' })).toBeNull();
    expect(computeTrend(rows, 'v', { currentDate: '2026-04-18' })).toBeNull();
  });

  it('is null when the current row has no number', () => {
    const rows = [
      { date: '2026-04-19', v: 10 },
      { date: '2026-04-20', note: 'no reading' },
    ];
    expect(computeTrend(rows, 'v')).toBeNull();
    expect(
      computeTrend(
        [
          { date: '2026-04-20', v: Number.NaN },
          { date: '2026-04-19', v: 1 },
        ],
        'v',
      ),
    ).toBeNull();
  });

  it('reads numeric strings, dotted fields, a custom date field and timestamps', () => {
    const rows = [
      { when: '2026-04-18T22:10:00+10:00', bp: { sys: '120' } },
      { when: '2026-04-20T07:00:00+10:00', bp: { sys: '118' } },
    ];
    expect(computeTrend(rows, 'bp.sys', { dateField: 'when' })).toMatchObject({ dir: 'down', delta: -2 });
  });

  it('is null for no rows or junk', () => {
    expect(computeTrend([], 'v')).toBeNull();
    expect(computeTrend(undefined, 'v')).toBeNull();
    expect(computeTrend([null, 3, 'x'], 'v')).toBeNull();
  });
});

describe('trendArrow config', () => {
  it('goodDirectionOf: explicit, legacy lowerIsBetter, neutral when the card does not say', () => {
    expect(goodDirectionOf({ field: 'count', goodDirection: 'up' })).toBe('up');
    expect(goodDirectionOf({ field: 'bpm', goodDirection: 'neutral' })).toBe('neutral');
    expect(goodDirectionOf({ field: 'kg', lowerIsBetter: true })).toBe('down');
    expect(goodDirectionOf({ field: 'kg', lowerIsBetter: false })).toBe('up');
    expect(goodDirectionOf({ field: 'kg', goodDirection: 'up', lowerIsBetter: true })).toBe('up');
    expect(goodDirectionOf({ field: 'kg', goodDirection: 'sideways' })).toBe('neutral');
    expect(goodDirectionOf({ field: 'kg' })).toBe('neutral');
    expect(trendTone('up', goodDirectionOf({ field: 'kg' }))).toBe('neutral');
    expect(goodDirectionOf(undefined)).toBe('neutral');
  });

  it('every template trendArrow resolves to the direction it states', () => {
    const expected: Record<string, string> = {
      'heart-rate-resting': 'down',
      'resting-hrv': 'up',
      'sleep-hours': 'up',
      waist: 'down',
      weight: 'down',
    };
    for (const [id, dir] of Object.entries(expected)) {
      const arrow = display(id).trendArrow as Record<string, unknown>;
      expect(typeof arrow.field).toBe('string');
      expect(goodDirectionOf(arrow)).toBe(dir);
    }
  });

  it('every template with an arrow says which direction is good (else it would stay grey)', () => {
    const withArrow = templateIds().filter((id) => {
      const view = templateMeta(id).view as { display?: Record<string, unknown> } | undefined;
      return view?.display?.trendArrow !== undefined;
    });
    expect(withArrow.length).toBeGreaterThan(0);
    for (const id of withArrow) {
      const arrow = display(id).trendArrow as Record<string, unknown>;
      expect([id, arrow.goodDirection ?? arrow.lowerIsBetter]).toEqual([id, expect.anything()]);
    }
  });

  it('trendTone', () => {
    expect(trendTone('down', 'down')).toBe('good');
    expect(trendTone('up', 'down')).toBe('bad');
    expect(trendTone('up', 'up')).toBe('good');
    expect(trendTone('flat', 'up')).toBe('neutral');
    expect(trendTone('up', 'neutral')).toBe('neutral');
  });

  it('formatDelta', () => {
    expect(formatDelta(0.2)).toBe('+0.2');
    expect(formatDelta(85.5 - 85.3, 1)).toBe('+0.2');
    expect(formatDelta(-1.5)).toBe(`${MINUS}1.5`);
    expect(formatDelta(-1.5)).toBe('−1.5');
    expect(formatDelta(0)).toBe('0');
    expect(formatDelta(-0.04, 1)).toBe('0.0');
    expect(formatDelta(3, 1)).toBe('+3.0');
    expect(formatDelta(1200)).toBe('+1200');
    expect(formatDelta(Number.NaN)).toBe('');
  });
});

describe('numericSeries / numericPoints', () => {
  const rows = [
    { date: '2026-04-20', v: 5 },
    { date: '2026-04-18', v: 3 },
    { date: '2026-04-19', v: Number.NaN },
    { date: '2026-04-17', v: 'x' },
    { date: '2026-04-16', v: '1' },
    { date: '2026-04-19', v: 4 },
    { v: 99 },
    { date: '2026-04-15', v: Infinity },
  ];

  it('last N numeric values, oldest first, non-finite dropped', () => {
    expect(numericSeries(rows, 'v')).toEqual([1, 3, 4, 5]);
    expect(numericSeries(rows, 'v', 2)).toEqual([4, 5]);
    expect(numericSeries(rows, 'v', 10)).toEqual([1, 3, 4, 5]);
    expect(numericSeries(rows, 'v', 0)).toEqual([]);
    expect(numericSeries(rows, 'v', -1)).toEqual([]);
    expect(numericSeries([], 'v', 5)).toEqual([]);
    expect(numericSeries(undefined, 'v', 5)).toEqual([]);
  });

  it('keeps the dates, and several entries of a day in array order', () => {
    expect(numericPoints(rows, 'v', 3)).toEqual([
      { date: '2026-04-18', value: 3 },
      { date: '2026-04-19', value: 4 },
      { date: '2026-04-20', value: 5 },
    ]);
    const bp = [
      { date: '2026-04-20', sys: 121 },
      { date: '2026-04-20', sys: 118 },
    ];
    expect(numericSeries(bp, 'sys')).toEqual([121, 118]);
  });
});

describe('sparklineField and dayOf', () => {
  it('trendArrow.field, then first template field, then a numeric field of the latest row', () => {
    expect(sparklineField(display('weight'))).toBe('kg');
    expect(sparklineField(display('body-temperature'))).toBe('celsius');
    expect(sparklineField({ template: 'static' }, [{ date: '2026-04-20', note: 'x', score: '7' }])).toBe(
      'score',
    );
    expect(sparklineField({}, [])).toBeUndefined();
    expect(sparklineField(undefined)).toBeUndefined();
  });

  it('dayOf', () => {
    expect(dayOf('2026-04-20')).toBe('2026-04-20');
    expect(dayOf('2026-04-20T23:30:00-07:00', 'America/Los_Angeles')).toBe('2026-04-20');
    expect(dayOf('2026-04-21T06:30:00Z', 'America/Los_Angeles')).toBe('2026-04-20');
    expect(dayOf('2026-04-20T23:30', 'Pacific/Auckland')).toBe('2026-04-20');
    // starts with a day but is no timestamp: the day written, as before
    expect(dayOf('2026-04-20 morning', 'Pacific/Auckland')).toBe('2026-04-20');
    expect(dayOf('20/04/2026')).toBeNull();
    expect(dayOf(20260420)).toBeNull();
  });
});

describe('indexed variants (indexDatedRows, trendAt, numericPointsIndexed, sparklineFieldIndexed)', () => {
  /** A block as people leave it: out of order, several entries a day, gaps, text and junk values. */
  const rows: unknown[] = [
    { date: '2026-04-03', v: 3 },
    { date: '2026-04-01', v: 1 },
    { date: '2026-04-03T21:00:00+02:00', v: 3.5 },
    { note: 'no date', v: 99 },
    { date: '2026-04-02', v: 'n/a' },
    { date: '2026-04-05', v: '5.25' },
    null,
    ['2026-04-04'],
    { date: '2026-04-04', v: Number.NaN },
    { date: '2026-04-06' },
    { date: '2026-04-07', v: 7 },
    { date: '2026-04-07', v: 6.5 },
  ];

  it('orders dated rows by day then array index, skipping rows with no day', () => {
    const ix = indexDatedRows(rows);
    expect(ix.dateField).toBe('date');
    expect(ix.items.map((d) => `${d.day}#${d.index}`)).toEqual([
      '2026-04-01#1',
      '2026-04-02#4',
      '2026-04-03#0',
      '2026-04-03#2',
      '2026-04-04#8',
      '2026-04-05#5',
      '2026-04-06#9',
      '2026-04-07#10',
      '2026-04-07#11',
    ]);
    expect(indexDatedRows({ date: '2026-04-01' }).items).toEqual([]);
    expect(indexDatedRows(null).items).toEqual([]);
    expect(indexDatedRows([{ when: '2026-04-01' }, { date: '2026-04-02' }], 'when').items).toEqual([
      { row: { when: '2026-04-01' }, day: '2026-04-01', index: 0 },
    ]);
  });

  it('lastOnOrBefore and dayRange find positions by day', () => {
    const ix = indexDatedRows(rows);
    expect(lastOnOrBefore(ix, '2026-03-31')).toBe(-1);
    expect(lastOnOrBefore(ix, '2026-04-01')).toBe(0);
    expect(lastOnOrBefore(ix, '2026-04-03')).toBe(3);
    expect(lastOnOrBefore(ix, '2026-04-03', true)).toBe(1);
    expect(lastOnOrBefore(ix, '2026-04-30')).toBe(8);
    expect(dayRange(ix, '2026-04-03')).toEqual([2, 4]);
    expect(dayRange(ix, '2026-04-07')).toEqual([7, 9]);
    expect(dayRange(ix, '2026-04-08')).toEqual([9, 9]);
    expect(dayRange(ix, '2026-03-01')).toEqual([0, 0]);
  });

  /** The straightforward reading of the trend rule: every dated row, sorted, scanned. */
  function naiveTrend(block: unknown[], field: string, currentDate: string) {
    const dated = block
      .map((row, index) => ({ row, index, day: dayOf((row as Record<string, unknown> | null)?.date) }))
      .filter((d) => d.day !== null && typeof d.row === 'object' && !Array.isArray(d.row))
      .sort((a, b) =>
        (a.day as string) < (b.day as string)
          ? -1
          : (a.day as string) > (b.day as string)
            ? 1
            : a.index - b.index,
      );
    const cur = dated.filter((d) => d.day === currentDate).pop();
    if (!cur) return null;
    const current = toFiniteNumber((cur.row as Record<string, unknown>)[field]);
    if (current === null) return null;
    const prev = dated
      .filter((d) => (d.day as string) < (cur.day as string))
      .filter((d) => toFiniteNumber((d.row as Record<string, unknown>)[field]) !== null)
      .pop();
    return prev
      ? { prevDate: prev.day, prev: toFiniteNumber((prev.row as Record<string, unknown>)[field]), current }
      : null;
  }

  it('trendAt gives what computeTrend and a plain scan give, for every day', () => {
    const ix = indexDatedRows(rows);
    for (let d = 0; d <= 8; d++) {
      const day = `2026-04-0${d}`;
      const t = trendAt(ix, 'v', day);
      expect(t).toEqual(computeTrend(rows, 'v', { currentDate: day }));
      const naive = naiveTrend(rows, 'v', day);
      expect(t === null ? null : { prevDate: t.prevDate, prev: t.prev, current: t.current }).toEqual(naive);
    }
    // the latest entry of the day is current (6.5 after 7 on the 7th), compared with the 5th's 5.25
    expect(trendAt(ix, 'v', '2026-04-07')).toMatchObject({
      current: 6.5,
      prev: 5.25,
      prevDate: '2026-04-05',
    });
    expect(trendAt(ix, 'v')).toEqual(computeTrend(rows, 'v'));
    expect(trendAt(ix, 'v', 'not a date')).toBeNull();
    expect(trendAt(indexDatedRows([]), 'v')).toBeNull();
  });

  it('numericPointsIndexed: the last n numbers up to a day, from the rows accepted', () => {
    const ix = indexDatedRows(rows);
    expect(numericPointsIndexed(ix, 'v')).toEqual(numericPoints(rows, 'v'));
    expect(numericPointsIndexed(ix, 'v', 3)).toEqual(numericPoints(rows, 'v', 3));
    expect(numericPointsIndexed(ix, 'v', 2.5)).toEqual(numericPoints(rows, 'v', 2.5));
    expect(numericPointsIndexed(ix, 'v', 0)).toEqual([]);
    expect(numericPointsIndexed(ix, 'v', 3, { through: '2026-04-04' })).toEqual([
      { date: '2026-04-01', value: 1 },
      { date: '2026-04-03', value: 3 },
      { date: '2026-04-03', value: 3.5 },
    ]);
    expect(numericPointsIndexed(ix, 'v', 30, { through: '2026-03-01' })).toEqual([]);
    // the same as filtering the rows first and asking numericPoints
    const upTo = rows.filter(
      (r) =>
        dayOf((r as Record<string, unknown> | null)?.date) !== null &&
        (dayOf((r as Record<string, unknown>).date) as string) <= '2026-04-06',
    );
    expect(numericPointsIndexed(ix, 'v', 30, { through: '2026-04-06' })).toEqual(
      numericPoints(upTo, 'v', 30),
    );
    const accept = (r: unknown) => (r as Record<string, unknown>).v !== 3;
    expect(numericPointsIndexed(ix, 'v', undefined, { accept }).map((p) => p.value)).toEqual([
      1, 3.5, 5.25, 7, 6.5,
    ]);
  });

  it('sparklineFieldIndexed matches sparklineField', () => {
    const block = [
      { date: '2026-04-02', steps: 'x', kcal: 300 },
      { date: '2026-04-01', steps: 100 },
    ];
    const ix = indexDatedRows(block);
    expect(sparklineFieldIndexed({}, ix)).toBe('kcal');
    expect(sparklineFieldIndexed({}, ix)).toBe(sparklineField({}, block));
    expect(sparklineFieldIndexed({ template: '{steps} steps' }, ix)).toBe('steps');
    expect(sparklineFieldIndexed({ trendArrow: { field: ' kg ' } }, ix)).toBe('kg');
    expect(sparklineFieldIndexed({}, indexDatedRows([]))).toBeUndefined();
  });
});
