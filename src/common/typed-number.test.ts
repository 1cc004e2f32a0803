import { describe, expect, it } from 'vitest';
import { readTypedNumber } from './typed-number.js';

describe('readTypedNumber', () => {
  it.each([
    ['72.4', 72.4],
    ['72,4', 72.4],
    [' 72,4 ', 72.4],
    ['-0,25', -0.25],
    [',5', 0.5],
    ['0,0001', 0.0001],
    ['1.234,5', 1234.5],
    ['1,234.5', 1234.5],
    ['1 234,5', 1234.5],
    ['1\u202f234,5', 1234.5],
    ["1'234.5", 1234.5],
    ['12.345', 12.345],
    ['1e3', 1000],
    ['７２．４', 72.4],
    ['٧٢٫٤', 72.4],
    ['۷۲٫۴', 72.4],
    ['७२.४', 72.4],
    ['\u22123,5', -3.5],
  ])('%j → %d', (text, want) => {
    expect(readTypedNumber(text)).toEqual({ kind: 'number', value: want });
  });

  it('a comma before exactly three digits is never guessed, except in a whole-number field', () => {
    expect(readTypedNumber('1,500')).toEqual({ kind: 'ambiguous', readings: [1500, 1.5] });
    expect(readTypedNumber('1,500', { integer: true })).toEqual({ kind: 'number', value: 1500 });
    expect(readTypedNumber('8.432', { integer: true })).toEqual({ kind: 'number', value: 8432 });
    expect(readTypedNumber('8432', { integer: true })).toEqual({ kind: 'number', value: 8432 });
  });

  it.each(['', '   '])('%j is empty', (text) => {
    expect(readTypedNumber(text)).toEqual({ kind: 'empty' });
  });

  it.each([
    'abc',
    '0x10',
    'Infinity',
    'NaN',
    '1e999',
    '1_000',
    '72,4,5',
    '1.234.5',
    '1,23,456',
    '72 kg',
    '--5',
    '1.234,567.8',
  ])('%j is not a number', (text) => {
    expect(readTypedNumber(text)).toEqual({ kind: 'invalid' });
  });
});
