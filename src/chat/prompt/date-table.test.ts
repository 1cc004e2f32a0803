import { describe, expect, it } from 'vitest';
import { todayIn } from '../../common/dates.js';
import { DATE_TABLE_FIRST_OFFSET, DATE_TABLE_LAST_OFFSET, dateContextBlock } from './date-table.js';

interface Row {
  offset: number;
  weekday: string;
  iso: string;
  label: string;
}

/** The table rows of a block: every line after the `offset weekday ISO` header. */
function rowsOf(block: string): Row[] {
  const lines = block.split('\n');
  const header = lines.indexOf('offset weekday ISO');
  expect(header).toBeGreaterThan(0);
  return lines.slice(header + 1).map((l) => {
    const m = /^([+-]?\d+) (\w+) (\d{4}-\d{2}-\d{2})(?: (\w+))?$/.exec(l);
    if (!m) throw new Error(`bad table line ${JSON.stringify(l)}`);
    return { offset: Number(m[1]), weekday: m[2], iso: m[3], label: m[4] ?? '' };
  });
}

/** Weekday computed independently of src/common/dates.ts (Intl on a UTC noon). */
function weekdayByIntl(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'UTC' }).format(
    Date.UTC(y, m - 1, d, 12),
  );
}

/** The ISO date `days` after `iso`, computed with Date.UTC fields. */
function plusDays(iso: string, days: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days, 12)).toISOString().slice(0, 10);
}

/** Every invariant of a table for `today`. */
function expectWellFormed(block: string, today: string): Row[] {
  const rows = rowsOf(block);
  expect(rows).toHaveLength(DATE_TABLE_LAST_OFFSET - DATE_TABLE_FIRST_OFFSET + 1);
  expect(rows[0].offset).toBe(-14);
  expect(rows.at(-1)?.offset).toBe(60);
  for (const [i, r] of rows.entries()) {
    expect(r.offset).toBe(DATE_TABLE_FIRST_OFFSET + i);
    expect(r.iso).toBe(plusDays(today, r.offset));
    expect(r.weekday).toBe(weekdayByIntl(r.iso));
  }
  expect(new Set(rows.map((r) => r.iso)).size).toBe(rows.length);
  const labelled = rows.filter((r) => r.label).map((r) => [r.offset, r.label]);
  expect(labelled).toEqual([
    [-1, 'yesterday'],
    [0, 'today'],
    [1, 'tomorrow'],
  ]);
  return rows;
}

describe('dateContextBlock', () => {
  it('starts with the heading, today and its weekday, and says to copy weekdays, never compute them', () => {
    const block = dateContextBlock('2026-04-20', 'Europe/Berlin');
    const lines = block.split('\n');
    expect(lines[0]).toBe("## Today's date");
    expect(lines[1]).toBe('Today is Monday 2026-04-20 (time zone Europe/Berlin).');
    expect(block).toMatch(/copy its weekday/);
    expect(block).toMatch(/Never work a weekday out yourself and never assume a year/);
    expect(block).toContain('0 Monday 2026-04-20 today');
    expect(block).toContain('+1 Tuesday 2026-04-21 tomorrow');
    expect(block).toContain('-1 Sunday 2026-04-19 yesterday');
    expectWellFormed(block, '2026-04-20');
  });

  it('America/Los_Angeles spring-forward (2026-03-08): today follows the wall clock, no date skipped or repeated', () => {
    const tz = 'America/Los_Angeles';
    // 01:30 PST, 03:30 PDT (after the 02:00 jump) and 23:30 PDT are all March 8 there
    expect(todayIn(tz, new Date('2026-03-08T09:30:00Z'))).toBe('2026-03-08');
    expect(todayIn(tz, new Date('2026-03-08T10:30:00Z'))).toBe('2026-03-08');
    expect(todayIn(tz, new Date('2026-03-09T06:30:00Z'))).toBe('2026-03-08');
    expect(todayIn(tz, new Date('2026-03-09T07:30:00Z'))).toBe('2026-03-09');
    for (const today of ['2026-03-07', '2026-03-08', '2026-03-09']) {
      const rows = expectWellFormed(dateContextBlock(today, tz), today);
      expect(rows.find((r) => r.iso === '2026-03-08')?.weekday).toBe('Sunday');
    }
    const block = dateContextBlock('2026-03-08', tz);
    expect(block).toContain('0 Sunday 2026-03-08 today');
    expect(block).toContain('-1 Saturday 2026-03-07 yesterday');
    expect(block).toContain('+1 Monday 2026-03-09 tomorrow');
  });

  it('Europe/Berlin fall-back (2026-10-25, a 25-hour day): one row per date', () => {
    const tz = 'Europe/Berlin';
    expect(todayIn(tz, new Date('2026-10-24T22:30:00Z'))).toBe('2026-10-25');
    expect(todayIn(tz, new Date('2026-10-25T22:59:00Z'))).toBe('2026-10-25');
    expect(todayIn(tz, new Date('2026-10-25T23:00:00Z'))).toBe('2026-10-26');
    for (const today of ['2026-10-24', '2026-10-25', '2026-10-26', '2026-10-11', '2026-08-27']) {
      expectWellFormed(dateContextBlock(today, tz), today);
    }
    expect(dateContextBlock('2026-10-25', tz)).toContain('+1 Monday 2026-10-26 tomorrow');
  });

  it('crosses month and year ends, and leap days', () => {
    const newYear = expectWellFormed(dateContextBlock('2026-12-31', 'UTC'), '2026-12-31');
    expect(newYear.find((r) => r.offset === 1)).toEqual({
      offset: 1,
      weekday: 'Friday',
      iso: '2027-01-01',
      label: 'tomorrow',
    });
    expect(newYear.at(-1)?.iso).toBe('2027-03-01');
    const jan = expectWellFormed(dateContextBlock('2027-01-03', 'UTC'), '2027-01-03');
    expect(jan[0].iso).toBe('2026-12-20');
    const leap = expectWellFormed(dateContextBlock('2028-02-28', 'UTC'), '2028-02-28');
    expect(leap.find((r) => r.offset === 1)?.iso).toBe('2028-02-29');
    expect(leap.find((r) => r.offset === 2)?.iso).toBe('2028-03-01');
    const plain = expectWellFormed(dateContextBlock('2026-02-28', 'UTC'), '2026-02-28');
    expect(plain.find((r) => r.offset === 1)?.iso).toBe('2026-03-01');
    expectWellFormed(dateContextBlock('2026-01-31', 'Asia/Tokyo'), '2026-01-31');
  });

  it('is pure: the same inputs give the same bytes', () => {
    expect(dateContextBlock('2026-06-01', 'UTC')).toBe(dateContextBlock('2026-06-01', 'UTC'));
  });

  it('rejects a today that is not a real date', () => {
    for (const bad of ['2026-02-30', '2026-4-1', '', 'today']) {
      expect(() => dateContextBlock(bad, 'UTC')).toThrow(RangeError);
    }
  });
});
