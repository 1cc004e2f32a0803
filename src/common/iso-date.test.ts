import { describe, expect, it } from 'vitest';
import { addDays, dayOfDateTime, isIsoDate, isoDateSpelling } from './dates.js';

/** What `Date` says: the text survives a round trip through midnight UTC of that day. */
function dateRoundTrip(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

describe('isIsoDate', () => {
  it('agrees with a Date round trip on every month and day of leap, common and century years', () => {
    for (const y of [0, 4, 100, 400, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9999]) {
      for (let m = 0; m <= 13; m++) {
        for (let d = 0; d <= 32; d++) {
          const s = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          expect(isIsoDate(s), s).toBe(dateRoundTrip(s));
        }
      }
    }
  });

  it('takes real days and refuses days that do not exist', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2000-02-29')).toBe(true);
    expect(isIsoDate('1900-02-29')).toBe(false);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-04-31')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('2026-00-10')).toBe(false);
  });

  it('refuses anything not written YYYY-MM-DD', () => {
    for (const v of [
      '2026-1-01',
      '2026-01-01T00:00',
      ' 2026-01-01',
      '20260101',
      '',
      null,
      undefined,
      20260101,
    ]) {
      expect(isIsoDate(v), String(v)).toBe(false);
    }
  });
});

describe('dayOfDateTime', () => {
  it('gives the written day of a date or of a wall-clock time, in any zone', () => {
    for (const s of ['2026-04-20', '2026-04-20T07:12', '2026-04-20T07:12:05', '2026-04-20 07:12:05.250'])
      for (const tz of [undefined, 'UTC', 'Pacific/Auckland', 'America/Los_Angeles'])
        expect(dayOfDateTime(s, tz), `${s} ${tz}`).toBe('2026-04-20');
  });

  it('files an instant (Z or an offset) under its date in the person’s zone', () => {
    const cases: [string, string, string][] = [
      // a Los Angeles evening sent in UTC is that evening's day, not the next
      ['2026-04-21T03:30:00Z', 'America/Los_Angeles', '2026-04-20'],
      ['2026-04-21T03:30:00Z', 'UTC', '2026-04-21'],
      ['2026-04-20T23:59:59Z', 'UTC', '2026-04-20'],
      // a morning in Auckland sent in UTC is already the next day there
      ['2026-04-19T20:00:00.5Z', 'Pacific/Auckland', '2026-04-20'],
      // half and three-quarter hour zones: 18:29 and 18:30 UTC are either side of midnight in Kolkata
      ['2026-04-19T18:29:59Z', 'Asia/Kolkata', '2026-04-19'],
      ['2026-04-19T18:30:00Z', 'Asia/Kolkata', '2026-04-20'],
      ['2026-04-19T18:15:00Z', 'Asia/Kathmandu', '2026-04-20'],
      ['2026-04-19T18:14:59Z', 'Asia/Kathmandu', '2026-04-19'],
      // an offset written by the person's own device keeps its day
      ['2026-04-20T23:30:00-07:00', 'America/Los_Angeles', '2026-04-20'],
      ['2026-04-20T00:00:00+14:00', 'Pacific/Kiritimati', '2026-04-20'],
      ['2026-04-20T10:00:00+0100', 'Europe/London', '2026-04-20'],
      ['2026-04-20T10:00:00-05:45', 'UTC', '2026-04-20'],
      // the same instant, seen from the other side of the date line
      ['2026-04-20T00:00:00+14:00', 'Pacific/Pago_Pago', '2026-04-18'],
      // daylight saving: 01:30 local on the autumn night in Los Angeles happens twice, both the 1st
      ['2026-11-01T08:30:00Z', 'America/Los_Angeles', '2026-11-01'],
      ['2026-11-01T09:30:00Z', 'America/Los_Angeles', '2026-11-01'],
      ['2026-11-02T07:59:59Z', 'America/Los_Angeles', '2026-11-01'],
    ];
    for (const [s, tz, day] of cases) expect(dayOfDateTime(s, tz), `${s} in ${tz}`).toBe(day);
  });

  it('refuses trailing text, clocks that do not exist and days that do not exist', () => {
    for (const s of [
      '2026-04-20 ',
      '2026-04-20abc',
      '2026-04-20T',
      '2026-04-20T25:00',
      '2026-04-20T24:00',
      '2026-04-20T07:60',
      '2026-04-20T07:12:61',
      '2026-04-20T07:12+15:00',
      '2026-04-20T07:12+01:99',
      '2026-02-30T07:12',
      '2026-04-20T07:12:00+01:00 extra',
    ])
      expect(dayOfDateTime(s), s).toBeNull();
    expect(dayOfDateTime(20260420)).toBeNull();
  });
});

describe('days at the ends of the four-digit years', () => {
  it('addDays stays within 0000-01-01 and 9999-12-31, so its text still compares as a day', () => {
    expect(addDays('9999-12-30', 2)).toBe('9999-12-31');
    expect(addDays('9999-12-31', 1)).toBe('9999-12-31');
    expect(addDays('0000-01-01', -2)).toBe('0000-01-01');
    expect(addDays('0000-01-02', -1)).toBe('0000-01-01');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
  });

  it('dayOfDateTime reads a year below 100 as written, and no day past 9999', () => {
    expect(dayOfDateTime('0050-03-01T10:00:00Z', 'UTC')).toBe('0050-03-01');
    expect(dayOfDateTime('0050-03-01T23:00:00-05:00', 'UTC')).toBe('0050-03-02');
    expect(dayOfDateTime('9999-12-31T23:00:00-05:00', 'UTC')).toBeNull();
    expect(dayOfDateTime('9999-12-31T23:00:00Z', 'UTC')).toBe('9999-12-31');
  });
});

describe('dates written year first another way', () => {
  it('are read as the day they name; day-first or month-first ones are not', async () => {
    const { dayOf } = await import('./trend.js');
    expect(dayOf('2024-1-5')).toBe('2024-01-05');
    expect(dayOf('2024/01/08')).toBe('2024-01-08');
    expect(dayOf('2024.1.9 07:30')).toBe('2024-01-09');
    expect(dayOf('2024/1/10T08:00:00Z', 'Europe/Berlin')).toBe('2024-01-10');
    expect(dayOf('2024/02/30')).toBeNull();
    expect(dayOf('08/01/2024')).toBeNull();
    expect(dayOf('2024-01/08')).toBeNull();
    expect(dayOf('2024-01-05')).toBe('2024-01-05');
  });
});

describe('isoDateSpelling', () => {
  it('reads dates written by hand year first another way, and day first with dots', () => {
    for (const [s, want] of [
      ['2026-4-6', '2026-04-06'],
      ['2026/04/06 08:30', '2026-04-06 08:30'],
      ['2026.4.6', '2026-04-06'],
      ['6.4.2026', '2026-04-06'],
      ['06.04.2026T08:30', '2026-04-06T08:30'],
    ])
      expect(isoDateSpelling(s), s).toBe(want);
  });

  it('leaves what has two readings or none as it is', () => {
    for (const s of ['06/04/2026', '04-06-2026', '2026-04-06', '6.4.26', '6.4.2026abc'])
      expect(isoDateSpelling(s), s).toBe(s);
  });
});
