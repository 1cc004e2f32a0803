import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after-value.js';

const now = Date.parse('2026-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it('reads seconds, with a decimal fraction', () => {
    expect(parseRetryAfter('6', now)).toBe(6000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('0.25', now)).toBe(250);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('9'.repeat(400), now)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('reads the three HTTP-date forms as GMT; a past date is 0', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Thursday, 01-Jan-26 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Thu Jan  1 00:00:05 2026', now)).toBe(5000);
    expect(parseRetryAfter('thu, 01 jan 2026 00:00:30 gmt', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('Thu, 31 Dec 2026 23:59:60 GMT', now)).toBe(
      Date.parse('2027-01-01T00:00:00Z') - now,
    );
  });

  it('leaves junk unread (undefined), never taking a number for a year', () => {
    for (const junk of [
      '-1',
      '+3',
      '1.5.2',
      '1e3',
      '.5',
      '5.',
      'NaN',
      'Infinity',
      'soon',
      '',
      '   ',
      '2026-01-01T00:00:30Z',
      'Thu, 31 Feb 2026 00:00:00 GMT',
      'Thu, 01 Jan 2026 25:00:00 GMT',
      'Thu, 01 Jan 2026 00:00:30 PST',
      'Jan 1 2026',
    ]) {
      expect(parseRetryAfter(junk, now), JSON.stringify(junk)).toBeUndefined();
    }
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
