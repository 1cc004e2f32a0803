import { describe, expect, it } from 'vitest';
import { formatPath } from './field-issues.js';
import { checkInputs, INPUT_TYPES } from './validate-inputs.js';

const AT = ['meta', 'writeable', 'inputs'];
const paths = (v: unknown) => checkInputs(v, AT).map((i) => formatPath(i.path));

describe('checkInputs', () => {
  it.each([...INPUT_TYPES])('accepts type %s', (type) => {
    expect(checkInputs([{ key: 'v', type }], AT)).toEqual([]);
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
});
