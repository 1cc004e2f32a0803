import { describe, expect, it } from 'vitest';
import { readTemplate } from '../../test/helpers/templates.js';
import {
  cellText,
  isDateColumn,
  isNumericColumn,
  sortTableRows,
  tableColumns,
  tableSort,
} from './table-rows.js';

const tableList = readTemplate('lab-results') as unknown as {
  meta: { reports: Record<string, unknown> };
  data: Record<string, unknown>[];
};

describe('the lab-results template', () => {
  const cfg = tableList.meta.reports;
  it('reads columns and sort', () => {
    expect(tableColumns(cfg, tableList.data)).toEqual([
      { field: 'date', header: 'Date', format: 'date' },
      { field: 'test', header: 'Test' },
      { field: 'result', header: 'Result', format: 'number' },
      { field: 'unit', header: 'Unit' },
      { field: 'range', header: 'Reference' },
      { field: 'flagged', header: 'Flag', format: 'check' },
    ]);
    expect(tableSort(cfg)).toEqual({ field: 'date', dir: 'desc' });
  });

  it('sorts newest first, keeping the written order within a day', () => {
    const rows = sortTableRows(tableList.data, tableSort(cfg));
    const dates = rows.map((r) => r.date as string);
    expect([...dates].sort().reverse()).toEqual(dates);
    const sameDay = tableList.data.filter((r) => r.date === dates[0]).map((r) => r.test);
    expect(rows.slice(0, sameDay.length).map((r) => r.test)).toEqual(sameDay);
  });
});

describe('columns and sort, leniently', () => {
  it('guesses columns from the rows when none are written', () => {
    const rows = [
      { date: '2026-04-20', test: 'A', nested: { x: 1 } },
      { date: '2026-04-21', note: 'n' },
      'x',
    ];
    expect(tableColumns({}, rows).map((c) => c.field)).toEqual(['date', 'test', 'note']);
    expect(
      tableColumns({ columns: [{ header: 'no field' }, 'kg', { key: 'bpm', label: 'Pulse' }] }, []).map(
        (c) => [c.field, c.header],
      ),
    ).toEqual([
      ['kg', 'kg'],
      ['bpm', 'Pulse'],
    ]);
    expect(tableColumns(undefined, 'nope')).toEqual([]);
  });

  it('numbers sort by value, text naturally, missing values last either way', () => {
    const rows = [{ v: 10 }, { v: '9' }, {}, { v: 'b' }, { v: 2 }, { v: 'a10' }, { v: 'a2' }];
    expect(sortTableRows(rows, { field: 'v', dir: 'asc' }).map((r) => r.v)).toEqual([
      2,
      '9',
      10,
      'a2',
      'a10',
      'b',
      undefined,
    ]);
    expect(sortTableRows(rows, { field: 'v', dir: 'desc' }).map((r) => r.v)).toEqual([
      'b',
      'a10',
      'a2',
      10,
      '9',
      2,
      undefined,
    ]);
    expect(tableSort({ sort: { field: 'v', dir: 'DESCENDING' } })).toEqual({ field: 'v', dir: 'desc' });
    expect(tableSort({ sort: 'v' })).toEqual({ field: 'v', dir: 'asc' });
    expect(tableSort({ sort: 5 })).toBeNull();
  });
});

describe('cellText', () => {
  const row = { date: '2026-04-20', r: 0.1 + 0.2, ok: true, pct: 0.57, n: 5.236, t: 'x' };
  it('formats dates as calendar dates, numbers without artefacts', () => {
    expect(cellText(row, { field: 'date', header: '', format: 'date' }, 'en-GB')).toBe('20 Apr 2026');
    expect(cellText(row, { field: 'r', header: '' })).toBe('0.3');
    expect(cellText(row, { field: 'n', header: '', format: 'round(1)' })).toBe('5.2');
    expect(cellText(row, { field: 'pct', header: '', format: 'percent' })).toBe('57%');
    expect(cellText(row, { field: 'ok', header: '', format: 'check' })).toBe('✅');
    expect(cellText(row, { field: 'x', header: '', format: '{t} / {n:round(0)}' })).toBe('x / 5');
    expect(cellText(row, { field: 'missing', header: '' })).toBe('');
    expect(cellText({ v: Number.NaN }, { field: 'v', header: '' })).toBe('');
  });

  it('shows a day that is not in the calendar as written, never throws', () => {
    const date = { field: 'date', header: '', format: 'date' };
    expect(cellText({ date: '2026-13-45' }, date, 'en-GB')).toBe('2026-13-45');
    expect(cellText({ date: '2026-02-30' }, date, 'en-GB')).toBe('2026-02-30');
    expect(cellText({ date: '2026-99-99T08:00' }, date, 'en-GB')).toBe('2026-99-99T08:00');
  });

  it('isDateColumn: only calendar dates, or format date', () => {
    expect(isDateColumn(tableList.data, { field: 'date', header: '' })).toBe(true);
    expect(isDateColumn(tableList.data, { field: 'test', header: '' })).toBe(false);
    expect(isDateColumn([{ d: '2026-04-20T08:00' }], { field: 'd', header: '' })).toBe(false);
    expect(isDateColumn([{ d: 'x' }], { field: 'd', header: '', format: 'date' })).toBe(true);
    expect(isDateColumn([{}], { field: 'd', header: '' })).toBe(false);
  });

  it('isNumericColumn', () => {
    expect(isNumericColumn(tableList.data, { field: 'result', header: '' })).toBe(true);
    expect(isNumericColumn(tableList.data, { field: 'test', header: '' })).toBe(false);
  });
});
