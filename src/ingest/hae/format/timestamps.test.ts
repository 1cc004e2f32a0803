import { afterEach, describe, expect, it } from 'vitest';
import { canonicalTimestamp, parseHaeTimestamp } from './timestamps.js';

describe('parseHaeTimestamp', () => {
  it('reads the HAE form and keeps the local date written in it (+1100 midnight is the previous UTC day)', () => {
    const t = parseHaeTimestamp('2023-03-25 00:00:00 +1100');
    expect(t).toMatchObject({ date: '2023-03-25', time: '00:00:00', offsetMinutes: 660, dateOnly: false });
    expect(new Date(t?.epochMs as number).toISOString()).toBe('2023-03-24T13:00:00.000Z');
  });

  it('reads offsets that change mid-payload at DST each on their own (hevy-metal: -0400 and -0500)', () => {
    const before = parseHaeTimestamp('2024-11-02 23:48:54 -0400');
    const after = parseHaeTimestamp('2024-11-03 07:59:24 -0500');
    expect(before?.date).toBe('2024-11-02');
    expect(after?.date).toBe('2024-11-03');
    // 23:48:54 EDT → 07:59:24 EST is 9 h 10 min 30 s of real time (8 h 10 min 30 s of wall clock).
    expect(((after?.epochMs as number) - (before?.epochMs as number)) / 1000).toBe(9 * 3600 + 10 * 60 + 30);
  });

  it.each([
    ['2024-09-21 7:57:00 am +1000', '2024-09-21', '07:57:00'], // pitfall: U+202F before am
    ['2024-09-21 7:57:00\u202fpm +1000', '2024-09-21', '19:57:00'],
    ['2024-09-21 7:57:00\u00a0PM +1000', '2024-09-21', '19:57:00'],
    ['2024-09-21 12:05:00 am +1000', '2024-09-21', '00:05:00'],
    ['2024-09-21 12:05:00 pm +1000', '2024-09-21', '12:05:00'],
    ['2024-09-21 7:57 a.m. +1000', '2024-09-21', '07:57:00'],
    // the region's own words: Spanish (U+00A0 inside), German, Japanese, Chinese, Korean
    ['2024-09-21 7:57:00 p.\u00a0m. +1000', '2024-09-21', '19:57:00'],
    ['2024-09-21 12:05:00 a. m. +1000', '2024-09-21', '00:05:00'],
    ['2024-09-21 7:57:00 nachm. +1000', '2024-09-21', '19:57:00'],
    ['2024-09-21 午後7:57:00 +1000', '2024-09-21', '19:57:00'],
    ['2024-09-21 上午7:57:00 +1000', '2024-09-21', '07:57:00'],
    ['2024-09-21 오후 7:57:00 +1000', '2024-09-21', '19:57:00'],
  ])('reads the 12-hour form %j', (input, date, time) => {
    expect(parseHaeTimestamp(input)).toMatchObject({ date, time, offsetMinutes: 600 });
  });

  it('gives the 12-hour and 24-hour spellings of one instant the same canonical text', () => {
    const a = parseHaeTimestamp('2024-09-21 7:57:00\u202fpm +1000');
    const b = parseHaeTimestamp('2024-09-21 19:57:00 +1000');
    expect(canonicalTimestamp(a as NonNullable<typeof a>)).toBe('2024-09-21T19:57:00+10:00');
    expect(canonicalTimestamp(b as NonNullable<typeof b>)).toBe('2024-09-21T19:57:00+10:00');
  });

  it.each([
    ['2025-08-12T08:17:51+01:00', '2025-08-12', '08:17:51', 60],
    ['2025-08-12T08:17:51.250Z', '2025-08-12', '08:17:51', 0],
    ['2025-08-12T23:30:00-0700', '2025-08-12', '23:30:00', -420],
    ['2025-08-12 23:30 +05:30', '2025-08-12', '23:30:00', 330],
    ['  2025-08-12 23:30:00 +0530  ', '2025-08-12', '23:30:00', 330],
  ])('reads ISO and offset variants %j', (input, date, time, offset) => {
    expect(parseHaeTimestamp(input)).toMatchObject({ date, time, offsetMinutes: offset });
  });

  it('reads the compact spelling of the first Health app exports as the usual one', () => {
    const compact = parseHaeTimestamp('20150616071916-0700');
    expect(compact).toEqual(parseHaeTimestamp('2015-06-16 07:19:16 -0700'));
    expect(compact).toMatchObject({ date: '2015-06-16', time: '07:19:16', offsetMinutes: -420 });
    // impossible values stay refused in this spelling too
    expect(parseHaeTimestamp('20150230071916-0700')).toBeNull();
    expect(parseHaeTimestamp('20150616251916-0700')).toBeNull();
    expect(parseHaeTimestamp('201506160719160700')).toBeNull();
  });

  it('reads the documented date-only sleep `date` as a calendar date', () => {
    expect(parseHaeTimestamp('2024-02-06')).toMatchObject({
      date: '2024-02-06',
      time: '00:00:00',
      offsetMinutes: null,
      dateOnly: true,
    });
  });

  describe('zone-less times are never read in the process time zone (pitfall: FreeReps TZ-naive import)', () => {
    const saved = process.env.TZ;
    afterEach(() => {
      process.env.TZ = saved;
    });
    it.each(['Pacific/Auckland', 'America/Los_Angeles', 'UTC'])('same answer with TZ=%s', (tz) => {
      process.env.TZ = tz;
      const t = parseHaeTimestamp('2024-02-06 23:30:00');
      expect(t).toMatchObject({ date: '2024-02-06', time: '23:30:00', offsetMinutes: null });
      expect(t?.epochMs).toBe(Date.UTC(2024, 1, 6, 23, 30, 0));
    });
  });

  it.each([
    null,
    undefined,
    42,
    '',
    'yesterday',
    '2024-13-01 00:00:00 +0000',
    '2023-02-29 00:00:00 +0000',
    '2024-02-30 00:00:00 +0000',
    '2024-02-06 24:00:00 +0000',
    '2024-02-06 13:00:00 pm +0000',
    '2024-02-06 00:30:00 am +0000',
    '2024-02-06 10:61:00 +0000',
    '2024-02-06 10:00:00 +1500',
    '2024-02-06 10:00:00 +0175',
    '06/02/2024 10:00',
  ])('returns null (never throws) for %j', (input) => {
    expect(parseHaeTimestamp(input)).toBeNull();
  });

  it.each([
    [1779202800, '2026-05-19', '15:00:00', 0],
    [1779202800123, '2026-05-19', '15:00:00', 0],
    ['1779202800.5', '2026-05-19', '15:00:00', 0],
    ['2026/05/19 08:00:00 -0700', '2026-05-19', '08:00:00', -420],
    ['2026.5.9', '2026-05-09', '00:00:00', null],
    ['2026-05-19 08:00:00, -0700', '2026-05-19', '08:00:00', -420],
    ['2026-05-19t08:00:00z', '2026-05-19', '08:00:00', 0],
    ['2026-05-19 08:00:00 GMT+5:30', '2026-05-19', '08:00:00', 330],
    ['2026-05-19 08:00:00 UTC-7', '2026-05-19', '08:00:00', -420],
    ['19/05/2026, 08:00:00', '2026-05-19', '08:00:00', null],
    ['05-19-2026 8:00 PM', '2026-05-19', '20:00:00', null],
    ['06.02.2024 10:00', '2024-02-06', '10:00:00', null],
    ['05/05/2026', '2026-05-05', '00:00:00', null],
    ['2026-05-19 08:00:00 PDT', '2026-05-19', '08:00:00', -420],
    ['2026-05-19 08:00:00 CEST', '2026-05-19', '08:00:00', 120],
  ])('reads other spellings %j', (input, date, time, offset) => {
    expect(parseHaeTimestamp(input)).toMatchObject({ date, time, offsetMinutes: offset });
  });

  it.each([770000000, 1e11, '123', '20260519', '05/06/2026', '2026-05-19 08:00:00 IST', '32/01/2026'])(
    'does not guess %j',
    (input) => {
      expect(parseHaeTimestamp(input)).toBeNull();
    },
  );

  it('accepts 29 February of a leap year', () => {
    expect(parseHaeTimestamp('2024-02-29 00:00:00 -0500')?.date).toBe('2024-02-29');
  });
});
