/**
 * Numbers written as text in a region's own way: read when the writing says which mark is the
 * decimal one, reported as ambiguous when it cannot tell (`12,345`), never guessed.
 */
import { describe, expect, it } from 'vitest';
import { readNumber } from './numbers.js';

describe('readNumber on numbers written in a region', () => {
  it.each([
    ['72,5', 72.5],
    ['62,45454545454545', 62.45454545454545],
    ['-0,25', -0.25],
    [' 7,5 ', 7.5],
    ['1.234,5', 1234.5],
    ['1,234.5', 1234.5],
    ['1 234,5', 1234.5],
    ['1\u202f234,56', 1234.56],
    ['1\u00a0234', 1234],
    ["1'234.5", 1234.5],
    ['1.234.567', 1234567],
    ['1,234,567.8', 1234567.8],
    ['1.234.567,89', 1234567.89],
    ['72.5', 72.5],
    // a lone point is the decimal mark, as in JSON
    ['1.000', 1],
  ])('%j → %d', (text, value) => {
    expect(readNumber(text)).toEqual({ value });
  });

  it.each(['12,345', '-3,500', '1,000'])('%j is ambiguous', (text) => {
    expect(readNumber(text)).toEqual({ ambiguous: true });
  });

  it.each(['1,2,3', '1.234.5', '1.234,567.8', '12 34', 'abc', '', '1,5e3', '1,234,56'])(
    '%j is not a number',
    (text) => {
      expect(readNumber(text)).toEqual({});
    },
  );
});
