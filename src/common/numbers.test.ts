import { describe, expect, it } from 'vitest';
import {
  cleanNumber,
  decimalPlaces,
  formatFixed,
  isFiniteNumber,
  numberText,
  toFiniteNumber,
} from './numbers.js';

describe('isFiniteNumber / toFiniteNumber', () => {
  it('accepts finite numbers only', () => {
    expect(isFiniteNumber(0)).toBe(true);
    expect(isFiniteNumber(-1.5)).toBe(true);
    for (const x of [Number.NaN, Infinity, -Infinity, '1', null, undefined, true]) {
      expect(isFiniteNumber(x)).toBe(false);
    }
  });

  it('reads numeric strings and refuses everything non-finite', () => {
    expect(toFiniteNumber(' 85.30 ')).toBe(85.3);
    expect(toFiniteNumber('.5')).toBe(0.5);
    expect(toFiniteNumber('1e3')).toBe(1000);
    expect(toFiniteNumber(7)).toBe(7);
    expect(toFiniteNumber(JSON.parse('1e999'))).toBeNull();
    expect(toFiniteNumber(JSON.parse('-1e999'))).toBeNull();
    expect(toFiniteNumber('1e999')).toBeNull();
    expect(toFiniteNumber(Number.NaN)).toBeNull();
    for (const x of ['', ' ', 'abc', '0x10', '1 2', 'Infinity', 'NaN', true, null, undefined, {}, []]) {
      expect(toFiniteNumber(x)).toBeNull();
    }
  });
});

describe('cleanNumber', () => {
  it('removes the tails of sums', () => {
    expect(cleanNumber(0.1 + 0.2)).toBe(0.3);
    expect(cleanNumber(0.7 + 0.1)).toBe(0.8);
    expect(cleanNumber(101.1 + 50.2 + 51.3)).toBe(202.6);
    expect(cleanNumber(1 + 1 + 0.2 + 0.1)).toBe(2.3);
    expect(cleanNumber(1.1 * 2)).toBe(2.2);
  });

  it('leaves typed numbers, large integers and timestamps exactly as they are', () => {
    for (const x of [85.3, 0.1, 123456789012345, 1713571200123, -42.125, 1e-7, 5e300]) {
      expect(cleanNumber(x)).toBe(x);
    }
  });

  it('rounds differences to the given decimals', () => {
    expect(cleanNumber(85.5 - 85.3, 1)).toBe(0.2);
    expect(cleanNumber(80.2 - 80, 1)).toBe(0.2);
    expect(cleanNumber(1000000.3 - 1000000.1, 1)).toBe(0.2);
    expect(cleanNumber(-0.04, 1)).toBe(0);
    expect(Object.is(cleanNumber(-0), 0)).toBe(true);
  });

  it('passes non-finite values through unchanged', () => {
    expect(cleanNumber(Number.NaN)).toBeNaN();
    expect(cleanNumber(Infinity)).toBe(Infinity);
  });
});

describe('decimalPlaces', () => {
  it('counts the decimals a person wrote', () => {
    expect(decimalPlaces(85.3)).toBe(1);
    expect(decimalPlaces(80)).toBe(0);
    expect(decimalPlaces(0.25)).toBe(2);
    expect(decimalPlaces(0.1 + 0.2)).toBe(1);
    expect(decimalPlaces(1e-7)).toBe(7);
    expect(decimalPlaces(1.5e-7)).toBe(8);
    expect(decimalPlaces(1e21)).toBe(0);
    expect(decimalPlaces(Number.NaN)).toBe(0);
  });
});

describe('formatFixed', () => {
  it('works like toFixed for ordinary values', () => {
    expect(formatFixed(85.5, 1)).toBe('85.5');
    expect(formatFixed(7, 1)).toBe('7.0');
    expect(formatFixed(7.25, 1)).toBe('7.3');
    expect(formatFixed(0.004, 2)).toBe('0.00');
    expect(formatFixed(9.995, 2)).toBe('10.00');
    expect(formatFixed(12.5, 0)).toBe('13');
    expect(formatFixed(123.456, 2)).toBe('123.46');
  });

  it('rounds halves on the decimal digits, where toFixed does not', () => {
    expect((1.005).toFixed(2)).toBe('1.00');
    expect(formatFixed(1.005, 2)).toBe('1.01');
    expect((36.65).toFixed(1)).toBe('36.6');
    expect(formatFixed(36.65, 1)).toBe('36.7');
    expect(formatFixed(2.675, 2)).toBe('2.68');
  });

  it('never shows a float artefact or a negative zero', () => {
    expect(formatFixed(0.1 + 0.2, 20)).toBe('0.30000000000000000000');
    expect(formatFixed(0.7 + 0.1, 1)).toBe('0.8');
    expect(formatFixed(-0.04, 1)).toBe('0.0');
    expect(formatFixed(-0, 0)).toBe('0');
    expect(formatFixed(-2.5, 0)).toBe('-3');
    expect(formatFixed(-1.25, 1)).toBe('-1.3');
  });

  it('handles extremes and bad arguments', () => {
    expect(formatFixed(1e-7, 2)).toBe('0.00');
    expect(formatFixed(-1e-7, 2)).toBe('0.00');
    expect(formatFixed(1e21, 1)).toBe('1e+21');
    expect(formatFixed(Number.NaN, 1)).toBe('');
    expect(formatFixed(Infinity, 1)).toBe('');
    expect(formatFixed(1.26, -3)).toBe('1');
    expect(formatFixed(1.26, 1.9)).toBe('1.3');
    expect(formatFixed(1.5, 99)).toBe('1.50000000000000000000');
  });
});

describe('numberText', () => {
  it('shows numbers cleanly and non-finite ones as nothing', () => {
    expect(numberText(0.1 + 0.2)).toBe('0.3');
    expect(numberText(12000)).toBe('12000');
    expect(numberText(Number.NaN)).toBe('');
    expect(numberText(-Infinity)).toBe('');
  });
});
