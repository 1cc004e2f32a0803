import { describe, expect, it } from 'vitest';
import { templateMeta } from '../../test/helpers/templates.js';
import {
  DEFAULT_MOOD_EMOJIS,
  formInputs,
  hasValue,
  labelFromKey,
  normaliseInput,
  optionsOf,
  requireAnyOf,
} from './inputs.js';

const meta = (id: string) => templateMeta(id);

describe('formInputs', () => {
  it('reads writeable.inputs of the mood and sleep templates with their options', () => {
    const inputs = formInputs(meta('mood'));
    expect(inputs.map((i) => [i.key, i.type])).toEqual([
      ['mood', 'emoji-picker'],
      ['note', 'text'],
    ]);
    expect(inputs[0]).toMatchObject({
      emitIndex: true,
      required: true,
      emojis: ['😞', '😕', '😐', '🙂', '😁'],
    });
    expect(inputs[1]).toMatchObject({ maxLength: 200, placeholder: 'One line about why', required: false });
    const sleep = formInputs(meta('sleep-hours'));
    expect(sleep[2]).toMatchObject({
      key: 'wakeUps',
      type: 'stepper',
      min: 0,
      max: 20,
      default: 0,
      label: 'Wake ups',
    });
  });

  it('reads the legacy shape: view.inputs keyed by name', () => {
    const inputs = formInputs({
      view: {
        inputs: [
          { name: 'systolic', type: 'number', min: 50, max: 250, required: true },
          { name: 'diastolic', type: 'number', min: 30, max: 150, required: true },
        ],
      },
    });
    expect(inputs.map((i) => [i.key, i.type, i.min, i.max, i.required])).toEqual([
      ['systolic', 'number', 50, 250, true],
      ['diastolic', 'number', 30, 150, true],
    ]);
  });

  it('prefers writeable.inputs over view.inputs, key over name, and drops unusable inputs', () => {
    const m = {
      writeable: {
        inputs: [
          { key: 'a', name: 'ignored', type: 'text' },
          { key: 'b', type: 'sparkles' },
          { type: 'number' },
          'junk',
          { key: 'a', type: 'number' },
          { key: 'c', type: 'color' },
        ],
      },
      view: { inputs: [{ name: 'z', type: 'text' }] },
    };
    expect(formInputs(m).map((i) => [i.key, i.type])).toEqual([
      ['a', 'text'],
      ['c', 'colour'],
    ]);
    expect(formInputs(null)).toEqual([]);
    expect(formInputs({ writeable: { inputs: 'x' } })).toEqual([]);
  });

  it('select options as strings or {value, label}; the glucose context keeps its values', () => {
    const context = formInputs(meta('glucose')).find((i) => i.key === 'context');
    expect(context?.options?.[2]).toEqual({ value: 'after-meal', label: '2 h after a meal' });
    const where = formInputs(meta('body-temperature')).find((i) => i.key === 'where');
    expect(where?.options?.[0]).toEqual({ value: 'mouth', label: 'mouth' });
    expect(optionsOf(['a', 2, { value: true }, { label: 'no value' }, null])).toEqual([
      { value: 'a', label: 'a' },
      { value: 2, label: '2' },
      { value: true, label: 'true' },
    ]);
  });

  it('ratings default to 1..5 and never offer more than 10 steps; emoji pickers default to a mood set', () => {
    expect(normaliseInput({ key: 'r', type: 'rating' })).toMatchObject({ min: 1, max: 5 });
    expect(normaliseInput({ key: 'r', type: 'rating', min: 0, max: 1000 })).toMatchObject({ min: 0, max: 9 });
    expect(normaliseInput({ key: 'e', type: 'emoji-picker' })?.emojis).toEqual(DEFAULT_MOOD_EMOJIS);
  });

  it('ignores options of the wrong type and labels inputs without a label', () => {
    const d = normaliseInput({ key: 'blood_sugar', type: 'number', min: 'ten', step: -1, maxLength: 2.5 });
    expect(d).toEqual({ key: 'blood_sugar', type: 'number', label: 'Blood sugar', required: false });
    expect(labelFromKey('wakeUps')).toBe('Wake ups');
  });
});

describe('values', () => {
  it('hasValue: 0 and false are values; blanks, null, NaN and [] are not', () => {
    expect([0, false, 'x', ['a']].map(hasValue)).toEqual([true, true, true, true]);
    expect([undefined, null, '  ', Number.NaN, []].map(hasValue)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('requireAnyOf reads a list of keys', () => {
    expect(requireAnyOf({ writeable: { requireAny: ['a', 3, 'b'] } })).toEqual(['a', 'b']);
    expect(requireAnyOf({})).toEqual([]);
  });
});
