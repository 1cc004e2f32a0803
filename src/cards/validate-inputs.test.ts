import { describe, expect, it } from 'vitest';
import { formatPath } from './field-issues.js';
import { checkInputs, INPUT_TYPES } from './validate-inputs.js';

const AT = ['meta', 'writeable', 'inputs'];
const paths = (v: unknown) => checkInputs(v, AT).map((i) => formatPath(i.path));

describe('checkInputs', () => {
  it.each([...INPUT_TYPES])('accepts type %s', (type) => {
    // a choice input needs its choices (see the options rules below)
    const options = ['select', 'chips', 'chips-multi'].includes(type) ? { options: ['a'] } : {};
    expect(checkInputs([{ key: 'v', type, ...options }], AT)).toEqual([]);
  });

  it('accepts the legacy name key and passes unknown options through', () => {
    expect(checkInputs([{ name: 'systolic', type: 'number', min: 50, whatever: [1] }], AT)).toEqual([]);
  });

  it('rejects a non-array list', () => {
    const [issue] = checkInputs({ key: 'v', type: 'text' }, AT);
    expect(issue.message).toBe('meta.writeable.inputs must be an array, got {"key":"v","type":"text"}');
    expect(issue.drops).toEqual([AT]);
  });

  it('rejects non-object inputs, missing keys and unknown types, dropping the input', () => {
    expect(paths(['text'])).toEqual(['meta.writeable.inputs[0]']);
    expect(paths([{ type: 'text' }])).toEqual(['meta.writeable.inputs[0].key']);
    expect(paths([{ key: '', type: 'text' }])).toEqual(['meta.writeable.inputs[0].key']);
    expect(paths([{ key: 3, name: 'n', type: 'text' }])).toEqual(['meta.writeable.inputs[0].key']);
    expect(paths([{ name: 5, type: 'text' }])).toEqual(['meta.writeable.inputs[0].name']);
    expect(
      paths([
        { key: 'a', type: 'text' },
        { key: 'b', type: 'slider' },
      ]),
    ).toEqual(['meta.writeable.inputs[1].type']);
    expect(paths([{ key: 'a' }])).toEqual(['meta.writeable.inputs[0].type']);
    const [issue] = checkInputs([{ key: 'a', type: 'slider' }], AT);
    expect(issue.message).toMatch(
      /^meta\.writeable\.inputs\[0\]\.type must be a known input type \(number, /,
    );
    expect(issue.drops).toEqual([[...AT, 0]]);
  });

  it.each(['__proto__', 'constructor', 'prototype', ' __proto__ '])(
    'refuses the key %j, which names an object prototype, dropping the input',
    (key) => {
      const [byKey] = checkInputs([{ key, type: 'text' }], AT);
      expect(formatPath(byKey.path)).toBe('meta.writeable.inputs[0].key');
      expect(byKey.drops).toEqual([[...AT, 0]]);
      expect(paths([{ name: key, type: 'text' }])).toEqual(['meta.writeable.inputs[0].name']);
    },
  );

  it('refuses options no value could satisfy, reporting without dropping the input', () => {
    const one = (input: Record<string, unknown>) => checkInputs([{ key: 'v', ...input }], AT);
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'number', min: 10, max: 1 }, 'meta.writeable.inputs[0].max'],
      [{ type: 'stepper', min: 0.5, max: 0.1 }, 'meta.writeable.inputs[0].max'],
      [{ type: 'rating', max: 1000000 }, 'meta.writeable.inputs[0].max'],
      [{ type: 'rating', min: -20 }, 'meta.writeable.inputs[0].min'],
      [{ type: 'rating', min: 1, max: 4.5 }, 'meta.writeable.inputs[0].max'],
      [{ type: 'select', options: [] }, 'meta.writeable.inputs[0].options'],
      [{ type: 'select' }, 'meta.writeable.inputs[0].options'],
      [{ type: 'chips', options: ['a', null] }, 'meta.writeable.inputs[0].options[1]'],
      [
        { type: 'chips-multi', options: ['a', { value: 'a', label: 'A' }] },
        'meta.writeable.inputs[0].options[1]',
      ],
      [{ type: 'text', maxLength: -1 }, 'meta.writeable.inputs[0].maxLength'],
      [{ type: 'textarea', maxLength: 0 }, 'meta.writeable.inputs[0].maxLength'],
      [{ type: 'textarea', rows: 2.5 }, 'meta.writeable.inputs[0].rows'],
      [{ type: 'number', min: 'ten' }, 'meta.writeable.inputs[0].min'],
      [{ type: 'number', max: '100' }, 'meta.writeable.inputs[0].max'],
      [{ type: 'stepper', step: '1' }, 'meta.writeable.inputs[0].step'],
      [{ type: 'stepper', step: 0 }, 'meta.writeable.inputs[0].step'],
      [{ type: 'rating', max: null }, 'meta.writeable.inputs[0].max'],
      [{ type: 'date', default: 5 }, 'meta.writeable.inputs[0].default'],
      [{ type: 'date', default: '0000-01-01' }, 'meta.writeable.inputs[0].default'],
      [{ type: 'time', default: 730 }, 'meta.writeable.inputs[0].default'],
      [{ type: 'checkbox', default: 'yes' }, 'meta.writeable.inputs[0].default'],
      [{ type: 'number', min: 0, max: 10, default: 11 }, 'meta.writeable.inputs[0].default'],
      [{ type: 'select', options: ['a'], default: 'b' }, 'meta.writeable.inputs[0].default'],
    ];
    for (const [input, path] of cases) {
      const issues = one(input);
      expect(
        issues.map((i) => formatPath(i.path)),
        JSON.stringify(input),
      ).toEqual([path]);
      expect(issues[0].drops).toEqual([]);
      expect(issues[0].message.startsWith(path)).toBe(true);
    }
    for (const fine of [
      { type: 'number', min: 1, max: 1 },
      { type: 'rating', min: 0, max: 9 },
      { type: 'rating', min: 6 },
      { type: 'select', options: [{ value: 1, label: 'One' }, 2, 'three'] },
      { type: 'text', maxLength: 1 },
      { type: 'date', default: '2026-04-20' },
      { type: 'stepper', min: 0, max: 10, default: 3 },
      { type: 'checkbox', default: false },
    ])
      expect(one(fine), JSON.stringify(fine)).toEqual([]);
  });

  it('refuses a key two inputs fill, naming the second', () => {
    const issues = checkInputs(
      [
        { key: 'kg', type: 'number' },
        { key: 'note', type: 'text' },
        { name: 'kg', type: 'number' },
      ],
      AT,
    );
    expect(issues.map((i) => formatPath(i.path))).toEqual(['meta.writeable.inputs[2].name']);
    expect(issues[0].message).toContain('inputs[0]');
    expect(issues[0].drops).toEqual([]);
  });
});
