/**
 * The read-only schedule reports: adherence (src/common/adherence-report.ts), the timeline grid
 * (src/common/schedule-timeline.ts) and their grouping (src/common/schedule-groups.ts), on the
 * medication and supplement templates with a dose history written onto them, and on small
 * hand-made inputs.
 */
import { describe, expect, it } from 'vitest';
import { type DoseSpec, daysBetween, withDoses } from '../../test/fixtures/dose-history.js';
import { readTemplate } from '../../test/helpers/templates.js';
import { adherenceReport, stockLastDay, stockOf } from './adherence-report.js';
import { dailyShares } from './schedule.js';
import { groupReportItems, reportItems } from './schedule-groups.js';
import { cellState, timelineCells, timelineDays } from './schedule-timeline.js';

/**
 * The medication template with a month of doses: Levothyroxine every morning of April but a
 * missed 10th (marked) and 20th (never ticked); Ramipril twice a day from the 21st, only the
 * morning dose so far on the 30th; paracetamol (as needed) twice; nothing for the others.
 */
function medicationCard() {
  const card = readTemplate('medication-schedule');
  const levo: DoseSpec[] = daysBetween('2026-04-01', '2026-04-30')
    .filter((d) => d !== '2026-04-20')
    .map((d) => [d, d === '2026-04-10' ? null : '07:30']);
  const ramipril: DoseSpec[] = daysBetween('2026-04-21', '2026-04-29').flatMap((d): DoseSpec[] => [
    [d, '08:00'],
    [d, '20:00'],
  ]);
  ramipril.push(['2026-04-30', '08:05']);
  card.data = withDoses(card.data, {
    Levothyroxine: levo,
    Ramipril: ramipril,
    Paracetamol: [
      ['2026-04-12', '14:00'],
      ['2026-04-25', '09:30'],
    ],
  });
  return card as unknown as {
    data: unknown;
    meta: Record<string, unknown> & { reports: Record<string, unknown> };
  };
}

describe('adherenceReport on the medication template', () => {
  const card = medicationCard();

  it('counts the last 30 days ending on the report day, grouped as the data says', () => {
    const r = adherenceReport(card.data, '2026-04-30', card.meta.reports, card.meta);
    expect(r.from).toBe('2026-04-01');
    expect(r.windowDays).toBe(30);
    expect(r.groups.map((g) => [g.label, g.items.map((i) => i.name)])).toEqual([
      ['With breakfast', ['Levothyroxine', 'Ramipril']],
      ['Evening', ['Atorvastatin']],
      ['Other', ['Methotrexate', 'Paracetamol']],
    ]);
    const [levo, ramipril] = r.groups[0].items;
    // 1–29 April are due (29 days, 27 taken); 30 April counts its taken dose
    expect(levo).toMatchObject({ dose: '50 µg', scheduled: 30, taken: 28, lastTaken: '2026-04-30' });
    // tracked from its first dose on the 21st; the evening dose of the 30th is not missed yet
    expect(ramipril).toMatchObject({ scheduled: 19, taken: 19, rate: 1, lastTaken: '2026-04-30' });
    // never ticked, no start date: only today would count, and nothing is taken today
    expect(r.groups[1].items[0]).toMatchObject({ scheduled: 0, taken: 0, rate: null });
    // as needed: never due, so every dose is extra
    expect(r.groups[2].items[1]).toMatchObject({ scheduled: 0, taken: 0, extra: 2 });
    expect(r.overall).toEqual({ scheduled: 49, taken: 47, rate: 47 / 49 });
    expect(r.hasStock).toBe(false);
  });

  it('a shorter windowDays, and only the days with records', () => {
    const r = adherenceReport(card.data, '2026-04-30', { windowDays: 11 });
    expect(r.from).toBe('2026-04-20');
    const [levo, ramipril] = r.groups[0].items;
    expect(levo).toMatchObject({ scheduled: 11, taken: 10, rate: 10 / 11 });
    expect(ramipril).toMatchObject({ scheduled: 19, taken: 19 });
  });

  it('nothing due before the first dose: rate null, never NaN', () => {
    const r = adherenceReport(card.data, '2026-03-15', {});
    expect(r.overall).toEqual({ scheduled: 0, taken: 0, rate: null });
    expect(JSON.stringify(r)).not.toMatch(/NaN|Infinity/);
  });

  it('counts an item from the day it was tracked, not the whole window', () => {
    const item = (extra: Record<string, unknown>) => ({ name: 'D', schedule: { type: 'daily' }, ...extra });
    // set up three days ago, every dose taken since: 100 %, not 3 of 30
    const recent = item({
      doses: ['2026-04-27', '2026-04-28', '2026-04-29'].map((d) => ({
        scheduledDate: d,
        takenAt: `${d}T08:00:00Z`,
      })),
    });
    expect(adherenceReport({ items: [recent] }, '2026-04-30').groups[0].items[0]).toMatchObject({
      scheduled: 3,
      taken: 3,
      rate: 1,
    });
    // a missed dose recorded first starts the count too
    const missedFirst = item({
      doses: [
        { scheduledDate: '2026-04-25', takenAt: null },
        { scheduledDate: '2026-04-29', takenAt: '2026-04-29T08:00:00Z' },
      ],
    });
    expect(adherenceReport({ items: [missedFirst] }, '2026-04-30').groups[0].items[0]).toMatchObject({
      scheduled: 5,
      taken: 1,
    });
    // an explicit start_date wins over the records
    const started = item({ schedule: { type: 'daily', start_date: '2026-04-21' }, doses: [] });
    expect(adherenceReport({ items: [started] }, '2026-04-30').groups[0].items[0]).toMatchObject({
      scheduled: 9,
      taken: 0,
      rate: 0,
    });
    // nothing recorded and no start: nothing to rate yet
    expect(adherenceReport({ items: [item({})] }, '2026-04-30').groups[0].items[0]).toMatchObject({
      scheduled: 0,
      rate: null,
    });
    // the report says from when it counted: the earliest item's start inside the window
    const both = adherenceReport({ items: [recent, missedFirst] }, '2026-04-30');
    expect([both.from, both.countedFrom]).toEqual(['2026-04-01', '2026-04-25']);
    expect(adherenceReport({ items: [started] }, '2026-04-30', { windowDays: 5 }).countedFrom).toBe(
      '2026-04-26',
    );
  });

  it('the timeline and the daily shares agree: days before tracking are not missed', () => {
    const item = {
      name: 'D',
      schedule: { type: 'daily' },
      doses: [{ scheduledDate: '2026-04-28', takenAt: '2026-04-28T08:00:00Z' }],
    };
    const days = ['2026-04-26', '2026-04-27', '2026-04-28', '2026-04-29', '2026-04-30'];
    expect(timelineCells(item, days, '2026-04-30').map((c) => c.state)).toEqual([
      'none',
      'none',
      'taken',
      'missed',
      'due',
    ]);
    expect(dailyShares({ items: [item] }, '2026-04-30', 5).map((d) => d.share)).toEqual([
      null,
      null,
      1,
      0,
      0,
    ]);
    // nothing recorded: only today is due, nothing before it missed
    const fresh = { name: 'E', schedule: { type: 'daily' } };
    expect(timelineCells(fresh, days, '2026-04-30').map((c) => c.state)).toEqual([
      'none',
      'none',
      'none',
      'none',
      'due',
    ]);
  });

  it('tolerates data of any shape', () => {
    for (const d of [null, 'x', 7, [], {}, { items: 'no' }]) {
      const r = adherenceReport(d, '2026-04-30');
      expect(r.groups).toEqual([]);
      expect(r.overall.rate).toBeNull();
    }
  });
});

describe('stock', () => {
  const item = (extra: Record<string, unknown>) => ({
    name: 'D',
    schedule: { type: 'daily', times_per_day: 2 },
    doses: [{ scheduledDate: '2026-04-20', takenAt: '2026-04-20T08:00:00Z' }],
    ...extra,
  });

  it('reads the stock in its several spellings', () => {
    expect(stockOf(item({ inventory: 10 }))).toEqual({ left: 10 });
    expect(stockOf(item({ stock: '4' }))).toEqual({ left: 4 });
    expect(stockOf(item({ inventory: { remaining: 30, unit: 'tablets' } }))).toEqual({
      left: 30,
      unit: 'tablets',
    });
    expect(stockOf(item({ inventory: -1 }))).toBeNull();
    expect(stockOf(item({}))).toBeNull();
  });

  it('walks the schedule: today’s untaken dose first, then two a day', () => {
    // today (20 April): one of two taken, so 1 needed; then 2 a day
    expect(stockLastDay(item({}), 5, '2026-04-20')).toEqual({ lastDay: '2026-04-22', days: 3 });
    expect(stockLastDay(item({}), 0, '2026-04-20')).toEqual({ lastDay: null, days: 0 });
    expect(stockLastDay({ name: 'x', schedule: { type: 'as_needed' } }, 3, '2026-04-20')).toEqual({
      lastDay: null,
      days: null,
    });
    const r = adherenceReport({ items: [item({ inventory: { count: 5, unit: 'tablets' } })] }, '2026-04-20');
    expect(r.hasStock).toBe(true);
    expect(r.groups[0].items[0].stock).toEqual({ left: 5, unit: 'tablets', lastDay: '2026-04-22', days: 3 });
  });
});

describe('schedule timeline', () => {
  const card = readTemplate('supplements') as { data: unknown; meta: Record<string, unknown> };
  const meds = readTemplate('medication-schedule').meta as Record<string, unknown>;

  it('the window: both sides by default, or ending / starting today', () => {
    const both = timelineDays(card.meta.trends, '2026-04-29');
    expect(both).toHaveLength(10);
    expect(both[0]).toBe('2026-04-24');
    expect(both[9]).toBe('2026-05-03');
    expect(timelineDays({ windowDays: 3, showFuture: false }, '2026-04-29')).toEqual([
      '2026-04-27',
      '2026-04-28',
      '2026-04-29',
    ]);
    expect(timelineDays({ windowDays: 3, showPast: false }, '2026-04-29')).toEqual([
      '2026-04-29',
      '2026-04-30',
      '2026-05-01',
    ]);
    const pastOnly = timelineDays(meds.trends, '2026-04-29');
    expect(pastOnly).toHaveLength(14);
    expect(pastOnly[13]).toBe('2026-04-29');
    expect(timelineDays({ windowDays: 1e9 }, '2026-04-29')).toHaveLength(62);
  });

  it('cells: taken, missed, due, upcoming, none (every other day)', () => {
    const data = withDoses(card.data, {
      'Vitamin D3': [
        ['2026-04-26', '07:10'],
        ['2026-04-28', '07:12'],
        ['2026-04-29', '07:04'],
      ],
      'Omega-3': [['2026-04-28', '07:30']],
    });
    const items = reportItems(data);
    expect(items.map((i) => i.name)).toEqual([
      'Vitamin D3',
      'Magnesium glycinate',
      'Omega-3',
      'Creatine',
      'Iron',
    ]);
    const days = ['2026-04-27', '2026-04-28', '2026-04-29', '2026-04-30', '2026-05-01'];
    const today = '2026-04-30';
    expect(timelineCells(items[0].ref.item, days, today).map((c) => c.state)).toEqual([
      'missed',
      'taken',
      'taken',
      'due',
      'upcoming',
    ]);
    // every 2 days from 1 January: 27 due (missed), 28 not due but taken (extra), 29 missed,
    // 30 not due, 1 May upcoming
    expect(timelineCells(items[2].ref.item, days, today).map((c) => c.state)).toEqual([
      'missed',
      'extra',
      'missed',
      'none',
      'upcoming',
    ]);
    expect(cellState('2026-04-30', 4, 2, '2026-04-30')).toBe('partial');
  });

  it('groups: the data’s groups first, then the rest under "Other"', () => {
    const data = {
      groups: [
        { id: 'am', label: 'Morning', items: ['b', 'missing'] },
        { id: 'empty', items: ['nope'] },
      ],
      items: [
        { name: 'a', schedule: { type: 'daily' } },
        { name: 'b', schedule: { type: 'daily' } },
      ],
    };
    const groups = groupReportItems(data, reportItems(data));
    expect(groups.map((g) => [g.label, g.items.map((i) => i.name)])).toEqual([
      ['Morning', ['b']],
      ['Other', ['a']],
    ]);
  });

  it('a card-level meta.schedule over dated rows is one item whose rows are doses', () => {
    const items = reportItems([{ date: '2026-04-27' }, { date: '2026-04-29', note: 'x' }], {
      meta: { label: 'Run', schedule: { type: 'weekly', on_days: ['Mon', 'Wed', 'Fri'] } },
    });
    expect(items.map((i) => i.name)).toEqual(['Run']);
    const days = ['2026-04-27', '2026-04-28', '2026-04-29', '2026-05-01'];
    expect(timelineCells(items[0].ref.item, days, '2026-04-30').map((c) => c.state)).toEqual([
      'taken',
      'none',
      'taken',
      'upcoming',
    ]);
    expect(
      reportItems({ stack: [{ name: 'z', schedule: {} }] }, { itemsPath: 'stack' }).map((i) => i.name),
    ).toEqual(['z']);
  });

  it('a card-level schedule over rows dated in another field (view.dateField) reads that field', () => {
    const items = reportItems([{ day: '2026-04-27' }, { day: '2026-04-29T07:10' }], {
      meta: {
        label: 'Run',
        schedule: { type: 'weekly', on_days: ['Mon', 'Wed', 'Fri'] },
        view: { dateField: 'day' },
      },
    });
    const days = ['2026-04-27', '2026-04-28', '2026-04-29'];
    expect(timelineCells(items[0].ref.item, days, '2026-04-30').map((c) => c.state)).toEqual([
      'taken',
      'none',
      'taken',
    ]);
  });
});
