import { describe, expect, it } from 'vitest';
import { checkNumericFidelity, describeUnbacked, findDates, numberValues } from './numeric-fidelity.js';

const SOURCE = [
  'Sample collected: 02.03.2026',
  'Haemoglobin        13.2      g/dL      12.0 - 16.0',
  'LDL cholesterol    3.4       mmol/L    < 3.0',
  'Creatinine         78        µmol/L    45 - 90',
  'Leukocytes         6,8       G/l       4,0 - 10,0',
  'Platelets          1,234     /nl',
  'Blutdruck 142/88 mmHg, Kontrolle am 12. März 2026',
].join('\n');

describe('numberValues', () => {
  it('reads plain, decimal, German decimal and thousands forms', () => {
    expect(numberValues('7')).toEqual([7]);
    expect(numberValues('7.0')).toEqual([7]);
    expect(numberValues('5,4')).toEqual([5.4]);
    expect(numberValues('1,234')).toEqual([1.234, 1234]);
    expect(numberValues('1.234.567')).toEqual([1234567]);
    expect(numberValues('1.234,5')).toEqual([1234.5]);
  });
});

describe('findDates', () => {
  it('reads ISO, German, slashed and month-name dates in English and German', () => {
    const { dates } = findDates(
      '2026-03-02, 02.03.2026, 2 March 2026, March 2, 2026, 2. März 2026, 12/03/2026',
    );
    expect([...dates]).toEqual(expect.arrayContaining(['2026-03-02', '2026-03-12', '2026-12-03']));
  });
});

describe('checkNumericFidelity', () => {
  it('accepts numbers copied in any format, with the same units', () => {
    const r = checkNumericFidelity(
      '# Panel of 2026-03-02\n- Hb 13.2 g/dL (12.0–16.0)\n- LDL 3.4 mmol/L, above < 3.0\n- creatinine 78 umol/L\n- leukocytes 6.8 G/l\n- BP 142/88 mmHg; check on 12 March 2026\n1. platelets 1234',
      SOURCE,
    );
    expect(r).toEqual({ ok: true, unbacked: [] });
  });

  it('refuses a changed value', () => {
    const r = checkNumericFidelity('LDL 3.8 mmol/L', SOURCE);
    expect(r.ok).toBe(false);
    expect(r.unbacked).toEqual([{ text: '3.8 mmol/L', problem: 'missing' }]);
  });

  it('refuses a value given another unit', () => {
    expect(checkNumericFidelity('Hb 13.2 mmol/L', SOURCE).unbacked).toEqual([
      { text: '13.2 mmol/L', problem: 'unit' },
    ]);
  });

  it('refuses a computed number and a date the document does not have', () => {
    const r = checkNumericFidelity('2 of 5 values are high; seen on 2026-03-03', SOURCE);
    expect(r.unbacked.map((u) => u.text)).toEqual(['2026-03-03', '2', '5']);
    expect(describeUnbacked(r.unbacked)).toBe(
      'the summary gave 2026-03-03, 2, 5, which the document does not say',
    );
  });

  it('does not read parts of names (HbA1c, B12) as numbers', () => {
    expect(checkNumericFidelity('HbA1c and vitamin B12 were measured', SOURCE).ok).toBe(true);
  });
});
