import { describe, expect, it } from 'vitest';
import { templateMeta } from '../../test/helpers/templates.js';
import {
  aggregateNote,
  chartConfigOf,
  chartData,
  chartKindOf,
  detectNumericField,
  latestPoints,
  legendLabel,
  mostReadingsPerDay,
  pointText,
  windowStart,
} from './chart-series.js';

/** The `meta.trends` of a card template in templates/. */
function trends(id: string): Record<string, unknown> {
  return templateMeta(id).trends as Record<string, unknown>;
}

describe('chartConfigOf', () => {
  it('reads series, xAxis, title and yAxisLabel (bp, weight)', () => {
    expect(chartConfigOf(trends('bp'))).toEqual({
      kind: 'line',
      xField: 'date',
      series: [
        { field: 'systolic', label: 'Systolic' },
        { field: 'diastolic', label: 'Diastolic' },
        { field: 'pulse', label: 'Pulse' },
      ],
      autoSeries: false,
      title: undefined,
      yAxisLabel: 'mmHg',
      aggregate: 'mean',
    });
    expect(chartConfigOf({ ...trends('bp'), title: 'Blood pressure' }).title).toBe('Blood pressure');
    expect(chartConfigOf(trends('weight')).series).toEqual([{ field: 'kg', label: 'Weight' }]);
    expect(chartConfigOf(trends('steps')).kind).toBe('bar');
  });

  it('reads the older xKey / yKey / field / unit', () => {
    expect(
      chartConfigOf({ component: 'line-chart', xKey: 'date', yKey: 'count', unit: 'steps' }),
    ).toMatchObject({
      xField: 'date',
      series: [{ field: 'count', label: 'count' }],
      yAxisLabel: 'steps',
    });
    expect(chartConfigOf({ yKey: 'celsius', unit: '°C' }).yAxisLabel).toBe('°C');
    expect(chartConfigOf({ field: 'kg' }).series).toEqual([{ field: 'kg', label: 'kg' }]);
    expect(chartConfigOf({ yKey: ['a', 'b'] }).series.map((s) => s.field)).toEqual(['a', 'b']);
  });

  it('detects a numeric field when no series is written', () => {
    const rows = [
      { date: '2026-04-19', note: 'x', kg: '85.3' },
      { date: '2026-04-20', note: 'y', kg: 85.5, bodyFat: 20 },
    ];
    expect(chartConfigOf({ component: 'line-chart' }, rows)).toMatchObject({
      series: [{ field: 'kg', label: 'kg' }],
      autoSeries: true,
    });
    expect(
      detectNumericField([
        { date: '2026-04-20', note: 'x' },
        { date: '2026-04-19', ms: 40 },
      ]),
    ).toBe('ms');
    expect(detectNumericField([{ note: 'no date', kg: 1 }])).toBeUndefined();
    expect(chartConfigOf({}, 'nope').series).toEqual([]);
  });

  it('aliases and colours: area-chart, bar-chart; only plain colours are kept', () => {
    expect(chartKindOf('area-chart')).toBe('area');
    expect(chartKindOf('bar-chart')).toBe('bar');
    expect(chartKindOf('line-chart')).toBe('line');
    const cfg = chartConfigOf({
      component: 'bar-chart',
      series: [
        { field: 'a', colour: '#ff0000' },
        { field: 'b', color: 'url(x)' },
        'c',
        { label: 'no field' },
        7,
      ],
      aggregate: 'sum',
    });
    expect(cfg.kind).toBe('bar');
    expect(cfg.aggregate).toBe('sum');
    expect(cfg.series).toEqual([
      { field: 'a', label: 'a', colour: '#ff0000' },
      { field: 'b', label: 'b' },
      { field: 'c', label: 'c' },
    ]);
    expect(chartConfigOf({ aggregate: 'median' }).aggregate).toBe('mean');
  });
});

describe('chartData', () => {
  const bp = chartConfigOf({
    component: 'line-chart',
    series: [
      { field: 'systolic', label: 'Systolic' },
      { field: 'diastolic', label: 'Diastolic' },
    ],
  });

  it('one point per day, in date order, whatever the row order', () => {
    const rows = [
      { date: '2026-04-20', systolic: 131, diastolic: 86 },
      { date: '2026-04-18', systolic: 125, diastolic: 82 },
      { date: '2026-04-19', systolic: 128, diastolic: 84 },
    ];
    expect(chartData(rows, bp)).toEqual({
      days: ['2026-04-18', '2026-04-19', '2026-04-20'],
      values: [
        [125, 128, 131],
        [82, 84, 86],
      ],
      counts: [
        [1, 1, 1],
        [1, 1, 1],
      ],
    });
  });

  it('a timestamped date counts on its calendar day (midday UTC: the same day from UTC−12 to +11)', () => {
    const cfg = chartConfigOf({ series: [{ field: 'kg' }] });
    expect(chartData([{ date: '2026-04-20T05:30:00-07:00', kg: 85.5 }], cfg).days).toEqual(['2026-04-20']);
    expect(chartData([{ date: '2026-04-20T23:30:00', kg: 85.5 }], cfg).days).toEqual(['2026-04-20']);
  });

  it('several readings on a day: their mean, to one decimal more than the readings', () => {
    const rows = [
      { date: '2026-04-20', systolic: 120, diastolic: 80 },
      { date: '2026-04-20', systolic: 131, diastolic: 86 },
      { date: '2026-04-20', systolic: 125 },
    ];
    expect(chartData(rows, bp).values).toEqual([[125.3], [83]]);
    // and says so: the chart names how many readings a day's point stands for
    const data = chartData(rows, bp);
    expect(data.counts).toEqual([[3], [2]]);
    expect(mostReadingsPerDay(data)).toBe(3);
    expect(aggregateNote(bp.aggregate, 3)).toBe('daily average of 3 readings');
    expect(aggregateNote(bp.aggregate, 1)).toBe('');
    expect(aggregateNote('sum', 5)).toBe('daily total of 5 entries');
    expect(aggregateNote('max')).toBe("daily highest of the day's readings");
  });

  it('legend labels do not repeat the unit shown after the value', () => {
    expect(legendLabel('Weight (kg)', 'kg')).toBe('Weight');
    expect(legendLabel('Weight [kg]', 'kg')).toBe('Weight');
    expect(legendLabel('Weight, kg', 'kg')).toBe('Weight');
    expect(legendLabel('Glucose in mmol/L', 'mmol/L')).toBe('Glucose');
    expect(legendLabel('Weight', 'kg')).toBe('Weight');
    expect(legendLabel('kg', 'kg')).toBe('kg');
    expect(legendLabel('Steps (daily)', 'steps')).toBe('Steps (daily)');
    expect(legendLabel('Weight (kg)')).toBe('Weight (kg)');
  });

  it('sums carry no float artefacts', () => {
    const cfg = chartConfigOf({ series: ['l'], aggregate: 'sum' });
    const rows = [
      { date: '2026-04-21', l: 0.1 },
      { date: '2026-04-21', l: 0.2 },
    ];
    expect(chartData(rows, cfg).values).toEqual([[0.3]]);
    expect(chartData(rows, { ...cfg, aggregate: 'last' }).values).toEqual([[0.2]]);
    expect(chartData(rows, { ...cfg, aggregate: 'min' }).values).toEqual([[0.1]]);
    expect(chartData(rows, { ...cfg, aggregate: 'max' }).values).toEqual([[0.2]]);
  });

  it('missing and non-finite values are gaps, never 0; empty days are left out', () => {
    const rows = [
      { date: '2026-04-18', systolic: 125 },
      { date: '2026-04-19', systolic: Number.POSITIVE_INFINITY, diastolic: 'n/a' },
      { date: '2026-04-20', diastolic: 86 },
      { systolic: 200 },
      null,
      'row',
    ];
    expect(chartData(rows, bp)).toEqual({
      days: ['2026-04-18', '2026-04-20'],
      values: [
        [125, null],
        [null, 86],
      ],
      counts: [
        [1, 0],
        [0, 1],
      ],
    });
    expect(chartData('not rows', bp)).toEqual({ days: [], values: [[], []], counts: [[], []] });
  });

  it('keeps only days in the window; windowStart counts the end day in', () => {
    const cfg = chartConfigOf({ series: ['kg'] });
    const rows = ['2026-04-01', '2026-04-14', '2026-04-15', '2026-04-20', '2026-04-21'].map((date, i) => ({
      date,
      kg: 80 + i,
    }));
    const from = windowStart('2026-04-20', 7);
    expect(from).toBe('2026-04-14');
    expect(chartData(rows, cfg, { from, to: '2026-04-20' }).days).toEqual([
      '2026-04-14',
      '2026-04-15',
      '2026-04-20',
    ]);
    expect(windowStart('2026-04-20', null)).toBeUndefined();
  });

  it('latestPoints and pointText', () => {
    const data = {
      days: ['2026-04-18', '2026-04-19'],
      values: [
        [1, null],
        [null, null],
      ],
      counts: [
        [1, 0],
        [0, 0],
      ],
    };
    expect(latestPoints(data)).toEqual([{ day: '2026-04-18', value: 1 }, null]);
    expect(pointText(0.1 + 0.2)).toBe('0.3');
    expect(pointText(null)).toBe('');
  });
});

describe('a day of many readings (a heart rate sampled every second, over 86 400 rows)', () => {
  // Safari stops a call at 65 536 arguments and V8 near 120 000: `Math.max(...values)` over one
  // day's readings threw and the whole chart failed to draw
  const n = 200_000;
  const rows = Array.from({ length: n }, (_, i) => ({ date: '2026-05-01', bpm: 60 + (i % 50) + 0.5 }));
  rows.push({ date: '2026-05-02', bpm: 70 });
  it.each([
    ['max', 109.5],
    ['min', 60.5],
    ['mean', 85],
    ['sum', cleanSum(rows.slice(0, n).map((r) => r.bpm))],
    ['last', 109.5],
  ])('%s', (aggregate, want) => {
    const config = chartConfigOf({ series: ['bpm'], aggregate });
    const data = chartData(rows, config);
    expect(data.days).toEqual(['2026-05-01', '2026-05-02']);
    expect(data.values[0][0]).toBeCloseTo(want, 6);
    expect(data.counts[0][0]).toBe(n);
  });
});

function cleanSum(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return Math.round(s * 10) / 10;
}
