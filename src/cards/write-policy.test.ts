import { describe, expect, it } from 'vitest';
import { templateMeta } from '../../test/helpers/templates.js';
import { writePolicyOf } from '../common/write-policy.js';
import { KlebbError } from '../errors.js';
import {
  applyInsert,
  assertDateAllowed,
  checkEntry,
  cleanEntry,
  datePosition,
  entryDay,
  planAdd,
  replacementPatch,
  valueProblem,
} from './write-policy.js';

const meta = (id: string) => templateMeta(id);

/** The error `fn` throws, as {status, code, message, details}. */
function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof KlebbError)
      return { status: err.status, code: err.code, message: err.message, details: err.details };
    throw err;
  }
  return null;
}

describe('writePolicyOf', () => {
  it('applies the documented defaults', () => {
    expect(writePolicyOf({})).toMatchObject({
      fromWebapp: false,
      todayAllowed: true,
      pastAllowed: false,
      futureAllowed: false,
      maxReadingsPerDay: 1,
      requireAny: [],
      inputs: [],
      dateField: 'date',
    });
  });

  it('reads the body-temperature template and legacy view.inputs', () => {
    const p = writePolicyOf(meta('body-temperature'));
    expect(p).toMatchObject({
      fromWebapp: true,
      pastAllowed: true,
      futureAllowed: false,
      maxReadingsPerDay: 8,
    });
    expect(p.inputs.map((i) => i.key)).toEqual(['time', 'celsius', 'where']);
    const legacy = {
      writeable: { fromWebapp: true },
      view: {
        inputs: [
          { name: 'systolic', type: 'number' },
          { name: 'diastolic', type: 'number' },
        ],
      },
    };
    expect(writePolicyOf(legacy).inputs.map((i) => i.key)).toEqual(['systolic', 'diastolic']);
    expect(writePolicyOf(meta('caffeine')).requireAny).toEqual(['drink', 'mg']);
    expect(writePolicyOf({ view: { dateField: 'day' }, writeable: { maxReadingsPerDay: 0 } })).toMatchObject({
      dateField: 'day',
      maxReadingsPerDay: 1,
    });
  });
});

describe('cleanEntry', () => {
  it('drops empty values and refuses a non-object', () => {
    expect(cleanEntry({ a: 1, b: null, c: ' ', d: [], e: false, f: 0 })).toEqual({ a: 1, e: false, f: 0 });
    expect(refusal(() => cleanEntry([1]))).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(refusal(() => cleanEntry(undefined))?.details).toEqual([
      { path: 'entry', message: 'is required' },
    ]);
  });
});

describe('checkEntry', () => {
  const weight = writePolicyOf(meta('weight'));

  it('accepts a good entry', () => {
    expect(refusal(() => checkEntry(weight, { date: '2026-04-20', kg: 85.5, note: 'ok' }))).toBeNull();
  });

  it('refuses an out-of-range number naming the field with its label', () => {
    expect(refusal(() => checkEntry(weight, { kg: 301 }))).toEqual({
      status: 422,
      code: 'INVALID_ENTRY',
      message: 'Weight (kg) must be at most 300.',
      details: [{ path: 'entry.kg', message: 'Weight (kg) must be at most 300' }],
    });
  });

  it('refuses a missing required value, and counts further problems', () => {
    const r = refusal(() => checkEntry(weight, { note: 5 }));
    expect(r?.message).toBe('Weight (kg) is required (and 1 more).');
    expect(r?.details?.map((d) => d.path)).toEqual(['entry.kg', 'entry.note']);
  });

  it('requireAny: none of the keys → REQUIRE_ANY with the labels', () => {
    const p = writePolicyOf({
      writeable: {
        requireAny: ['systolic', 'pulse'],
        inputs: [
          { key: 'systolic', type: 'number', label: 'Systolic', required: true },
          { key: 'pulse', type: 'number' },
        ],
      },
    });
    expect(refusal(() => checkEntry(p, { note: 'x' }))).toMatchObject({
      status: 422,
      code: 'REQUIRE_ANY',
      message: 'Fill in at least one of: Systolic, Pulse.',
    });
    // a required key that is part of requireAny is satisfied by any of them
    expect(refusal(() => checkEntry(p, { pulse: 60 }))).toBeNull();
  });
});

describe('valueProblem: every input type', () => {
  const check = (input: Record<string, unknown>, v: unknown) =>
    valueProblem(writePolicyOf({ writeable: { inputs: [{ key: 'x', ...input }] } }).inputs[0], v);

  it('number, stepper, rating', () => {
    expect(check({ type: 'number', min: 0, max: 10 }, 5)).toBeNull();
    expect(check({ type: 'number', min: 0 }, -1)).toBe('must be at least 0');
    expect(check({ type: 'number' }, '5')).toBe('must be a number');
    expect(check({ type: 'stepper', max: 20 }, 21)).toBe('must be at most 20');
    expect(check({ type: 'rating' }, 5)).toBeNull();
    expect(check({ type: 'rating' }, 6)).toBe('must be at most 5');
    expect(check({ type: 'rating' }, 2.5)).toBe('must be a whole number');
  });

  it('text and textarea count user-perceived characters', () => {
    expect(check({ type: 'text', maxLength: 3 }, '👨‍👩‍👧ab')).toBeNull();
    expect(check({ type: 'textarea', maxLength: 3 }, 'abcd')).toBe('must be at most 3 characters long');
    expect(check({ type: 'text' }, 4)).toBe('must be text');
  });

  it('select, chips, chips-multi', () => {
    const options = [{ value: '1', label: 'one' }, 'two'];
    expect(check({ type: 'select', options }, '1')).toBeNull();
    expect(check({ type: 'select', options }, 'three')).toBe('must be one of its choices');
    expect(check({ type: 'chips', options }, 'two')).toBeNull();
    expect(check({ type: 'chips-multi', options }, ['1', 'two'])).toBeNull();
    expect(check({ type: 'chips-multi', options }, ['1', '1'])).toBe('must not list a choice twice');
    expect(check({ type: 'chips-multi', options }, 'two')).toBe('must be a list of its choices');
    expect(check({ type: 'select' }, 'anything')).toBeNull();
  });

  it('emoji-picker with and without emitIndex', () => {
    expect(check({ type: 'emoji-picker', emojis: ['😩', '😄'], emitIndex: true }, 2)).toBeNull();
    expect(check({ type: 'emoji-picker', emojis: ['😩', '😄'], emitIndex: true }, 3)).toBe(
      'must be a whole number from 1 to 2',
    );
    expect(check({ type: 'emoji-picker', emojis: ['😩', '😄'] }, '😄')).toBeNull();
    expect(check({ type: 'emoji-picker', emojis: ['😩', '😄'] }, '🙂')).toBe('must be one of its emoji');
  });

  it('colour, checkbox, date, time', () => {
    expect(check({ type: 'colour' }, '#3399ff')).toBeNull();
    expect(check({ type: 'color' }, 'red')).toBe('must be a colour like #3399ff');
    expect(check({ type: 'checkbox' }, true)).toBeNull();
    expect(check({ type: 'checkbox' }, 'yes')).toBe('must be true or false');
    expect(check({ type: 'date' }, '2026-02-29')).toBe('must be a date written YYYY-MM-DD');
    expect(check({ type: 'date' }, '2028-02-29')).toBeNull();
    expect(check({ type: 'time' }, '07:30')).toBeNull();
    expect(check({ type: 'time' }, '24:00')).toBe('must be a time written HH:MM');
  });
});

describe('dates', () => {
  const p = writePolicyOf(meta('body-temperature'));

  it('entryDay reads dates and timestamps, refuses anything else', () => {
    expect(entryDay(p, { date: '2026-04-20' })).toBe('2026-04-20');
    expect(entryDay(p, { date: '2026-04-20T08:00:00+10:00' }, 'Australia/Brisbane')).toBe('2026-04-20');
    // an instant is filed under the person's day: a Los Angeles evening sent in UTC
    expect(entryDay(p, { date: '2026-04-21T03:30:00Z' }, 'America/Los_Angeles')).toBe('2026-04-20');
    expect(entryDay(p, { date: '2026-04-21T03:30' }, 'America/Los_Angeles')).toBe('2026-04-21');
    expect(entryDay(p, {})).toBeNull();
    expect(refusal(() => entryDay(p, { date: '20/04/2026' }))).toMatchObject({
      status: 422,
      code: 'INVALID_ENTRY',
    });
  });

  it('past and today allowed, future refused, with the sentence the form shows', () => {
    expect(refusal(() => assertDateAllowed(p, '2026-04-19', '2026-04-20'))).toBeNull();
    expect(refusal(() => assertDateAllowed(p, '2026-04-20', '2026-04-20'))).toBeNull();
    expect(refusal(() => assertDateAllowed(p, '2026-04-21', '2026-04-20'))).toMatchObject({
      status: 422,
      code: 'DATE_NOT_ALLOWED',
      message: "This card doesn't take entries for future days.",
    });
    const noPast = writePolicyOf({ writeable: { fromWebapp: true } });
    expect(refusal(() => assertDateAllowed(noPast, '2026-04-19', '2026-04-20'))?.message).toBe(
      "This card doesn't take entries for past days.",
    );
    const noToday = writePolicyOf({ writeable: { fromWebapp: true, todayAllowed: false } });
    expect(refusal(() => assertDateAllowed(noToday, '2026-04-20', '2026-04-20'))?.message).toBe(
      "This card doesn't take entries for today.",
    );
  });
});

describe('placement', () => {
  const rows = [
    { date: '2026-04-18', v: 1 },
    { date: '2026-04-20', v: 2 },
    { date: '2026-04-20', v: 3 },
    { date: '2026-04-22', v: 4 },
  ];
  const one = writePolicyOf({ writeable: { maxReadingsPerDay: 1 } });
  const two = writePolicyOf({ writeable: { maxReadingsPerDay: 2 } });

  it('maxReadingsPerDay 1 replaces the day’s last row', () => {
    expect(planAdd(rows, '2026-04-20', one)).toEqual({ kind: 'replace', index: 2 });
  });

  it('a new day goes in date order', () => {
    expect(planAdd(rows, '2026-04-19', one)).toEqual({ kind: 'insert', at: 1, drop: [], finalIndex: 1 });
    expect(planAdd(rows, '2026-04-23', one)).toEqual({ kind: 'insert', at: 4, drop: [], finalIndex: 4 });
    expect(planAdd(rows, '2026-04-01', one)).toEqual({ kind: 'insert', at: 0, drop: [], finalIndex: 0 });
    expect(planAdd(rows, null, one)).toEqual({ kind: 'insert', at: 4, drop: [], finalIndex: 4 });
  });

  it('N > 1: added after the day’s rows, the oldest beyond N dropped', () => {
    const plan = planAdd(rows, '2026-04-20', two);
    expect(plan).toEqual({ kind: 'insert', at: 3, drop: [1], finalIndex: 2 });
    if (plan.kind !== 'insert') throw new Error('insert expected');
    expect(
      applyInsert(rows, { date: '2026-04-20', v: 9 }, plan.at, plan.drop).map((r) => (r as { v: number }).v),
    ).toEqual([1, 3, 9, 4]);
  });

  it('rows without a date are passed over', () => {
    expect(datePosition([{ x: 1 }, { date: '2026-04-22' }], '2026-04-20', 'date')).toBe(1);
    expect(datePosition([{ x: 1 }], '2026-04-20', 'date')).toBe(1);
  });

  it('replacementPatch turns one row into another through a merge patch', () => {
    expect(
      replacementPatch({ date: 'd', kg: 1, note: 'x', o: { a: 1, b: 2 } }, { date: 'd', kg: 2, o: { a: 1 } }),
    ).toEqual({
      date: 'd',
      kg: 2,
      note: null,
      o: { a: 1, b: null },
    });
  });
});
