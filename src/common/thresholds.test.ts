import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateThresholds, isCatchAll, primaryFieldOf, ruleField, ruleMatches } from './thresholds.js';

/** The shared example manifests, read at test time (never copied). */
const EXAMPLES = new URL('../../../shared/cases/manifests/examples/', import.meta.url);

type Json = Record<string, unknown>;

function display(id: string): Json {
  const file = JSON.parse(readFileSync(new URL(`${id}.example.json`, EXAMPLES), 'utf8'));
  return (file.meta.view as Json).display as Json;
}

/** The label the example card `id` gives to a row `{[field]: value}` (null: no band). */
function labelOf(id: string, field: string, value: unknown): string | null {
  const d = display(id);
  return (
    evaluateThresholds(
      d.thresholds,
      { date: '2026-04-20', [field]: value },
      { primaryField: primaryFieldOf(d) },
    )?.label ?? null
  );
}

describe('thresholds of the example manifests', () => {
  it('bristol-stool: string eq "4" matches the number 4 and the string "4"', () => {
    expect(labelOf('bristol-stool', 'type', '4')).toBe('Ideal');
    expect(labelOf('bristol-stool', 'type', 4)).toBe('Ideal');
    expect(labelOf('bristol-stool', 'type', 1)).toBe('Constipated');
    expect(labelOf('bristol-stool', 'type', '7')).toBe('Liquid');
    expect(labelOf('bristol-stool', 'type', 8)).toBeNull();
    expect(labelOf('bristol-stool', 'type', '')).toBeNull();
  });

  it('energy / sleep-quality / stress: numeric eq 1 matches "1" and 1', () => {
    expect(labelOf('energy', 'rating', 1)).toBe('Drained');
    expect(labelOf('energy', 'rating', '1')).toBe('Drained');
    expect(labelOf('energy', 'rating', '5.0')).toBe('Wired');
    expect(labelOf('sleep-quality', 'rating', 3)).toBe('OK');
    expect(labelOf('stress', 'rating', 5)).toBe('Frazzled');
    expect(labelOf('stress', 'rating', 0)).toBeNull();
  });

  it('energy: colour and label of the matching rule', () => {
    const d = display('energy');
    expect(evaluateThresholds(d.thresholds, { rating: 4 })).toEqual({
      colour: '#66cc55',
      label: 'Good',
      index: 3,
    });
  });

  it('active-minutes: inclusive bands open at both ends', () => {
    expect(labelOf('active-minutes', 'minutes', 0)).toBe('Sedentary');
    expect(labelOf('active-minutes', 'minutes', -5)).toBe('Sedentary');
    expect(labelOf('active-minutes', 'minutes', 14)).toBe('Sedentary');
    expect(labelOf('active-minutes', 'minutes', 15)).toBe('Low');
    expect(labelOf('active-minutes', 'minutes', 29)).toBe('Low');
    expect(labelOf('active-minutes', 'minutes', 30)).toBe('Active');
    expect(labelOf('active-minutes', 'minutes', 59)).toBe('Active');
    expect(labelOf('active-minutes', 'minutes', 60)).toBe('High');
    expect(labelOf('active-minutes', 'minutes', 100000)).toBe('High');
    // Between two integer bands: no band (the rules say inclusive numeric ranges, nothing more).
    expect(labelOf('active-minutes', 'minutes', 14.5)).toBeNull();
    expect(labelOf('active-minutes', 'minutes', '45')).toBe('Active');
  });

  it('steps, caffeine, hydration: banded counts', () => {
    expect(labelOf('steps', 'count', 3999)).toBe('Sedentary');
    expect(labelOf('steps', 'count', 12000)).toBe('Very active');
    expect(labelOf('caffeine', 'mg', 400)).toBe('High');
    expect(labelOf('caffeine', 'mg', 600)).toBe('Too much');
    expect(labelOf('hydration', 'glasses', 0)).toBe('Dry');
    expect(labelOf('hydration', 'glasses', 10)).toBe('Well-watered');
  });

  it('heart-rate-resting: max-only rules in ascending order, first match wins', () => {
    expect(labelOf('heart-rate-resting', 'bpm', 52)).toBe('Athletic');
    expect(labelOf('heart-rate-resting', 'bpm', 59)).toBe('Athletic');
    expect(labelOf('heart-rate-resting', 'bpm', 60)).toBe('Good');
    expect(labelOf('heart-rate-resting', 'bpm', 75)).toBe('Average');
    expect(labelOf('heart-rate-resting', 'bpm', 120)).toBe('Elevated');
    expect(labelOf('heart-rate-resting', 'bpm', 1000)).toBeNull();
  });

  it('spo2: min-only rule first, max-only last', () => {
    expect(labelOf('spo2', 'percent', 100)).toBe('Normal');
    expect(labelOf('spo2', 'percent', 96)).toBe('Normal');
    expect(labelOf('spo2', 'percent', 93)).toBe('Mild');
    expect(labelOf('spo2', 'percent', 90)).toBe('Low');
  });

  it('sleep-hours and body-temperature: decimal bounds, float artefacts do not fall short', () => {
    expect(labelOf('sleep-hours', 'hours', 5.9)).toBe('Too little');
    expect(labelOf('sleep-hours', 'hours', 6.0)).toBe('Short');
    expect(6.1 + 0.8).toBe(6.8999999999999995);
    expect(labelOf('sleep-hours', 'hours', 6.1 + 0.8)).toBe('Short');
    expect(labelOf('sleep-hours', 'hours', 9)).toBe('Good');
    expect(labelOf('sleep-hours', 'hours', 9.1)).toBe('Long');
    expect(labelOf('body-temperature', 'celsius', 35.9)).toBe('Low');
    expect(labelOf('body-temperature', 'celsius', 37.4)).toBe('Normal');
    expect(labelOf('body-temperature', 'celsius', 37.5)).toBe('Mild fever');
    expect(labelOf('body-temperature', 'celsius', 38.5)).toBe('Fever');
    expect(labelOf('body-temperature', 'celsius', 42)).toBe('Fever');
  });

  it('a non-finite value matches no band', () => {
    expect(labelOf('sleep-hours', 'hours', Number.NaN)).toBeNull();
    expect(labelOf('sleep-hours', 'hours', JSON.parse('1e999'))).toBeNull();
    expect(labelOf('sleep-hours', 'hours', '1e999')).toBeNull();
  });

  it('bp (legacy, no ifField): rules read the primary field, systolic', () => {
    const d = display('bp');
    expect(primaryFieldOf(d)).toBe('systolic');
    const band = (systolic: number, diastolic = 80) =>
      evaluateThresholds(d.thresholds, { systolic, diastolic }, { primaryField: primaryFieldOf(d) })?.label ??
      null;
    expect(band(110)).toBe('Optimal');
    expect(band(120)).toBe('Optimal');
    expect(band(125)).toBe('Elevated');
    expect(band(150, 95)).toBe('High');
    expect(band(190)).toBeNull();
    // Without a primary field a legacy rule reads nothing, so nothing matches.
    expect(evaluateThresholds(d.thresholds, { systolic: 110 })).toBeNull();
  });
});

describe('evaluateThresholds', () => {
  const rules = [
    { ifField: 'systolic', min: 140, colour: 'red', label: 'High' },
    { colour: 'green', label: 'In range' },
  ];

  it('a rule with no min/max/eq is a catch-all (the agent prompt example)', () => {
    expect(evaluateThresholds(rules, { systolic: 150 })?.label).toBe('High');
    expect(evaluateThresholds(rules, { systolic: 120 })?.label).toBe('In range');
    expect(evaluateThresholds(rules, { diastolic: 80 })?.label).toBe('In range');
    expect(evaluateThresholds([{ label: 'Any', colour: '#fff' }], {})).toEqual({
      colour: '#fff',
      label: 'Any',
      index: 0,
    });
  });

  it('first match wins over later, narrower rules', () => {
    const r = [
      { field: 'v', min: 0, label: 'first' },
      { field: 'v', eq: 5, label: 'second' },
    ];
    expect(evaluateThresholds(r, { v: 5 })?.label).toBe('first');
  });

  it('needs the field present for range and eq rules', () => {
    const r = [{ ifField: 'v', max: 10, label: 'low' }];
    expect(evaluateThresholds(r, {})).toBeNull();
    expect(evaluateThresholds(r, { v: null })).toBeNull();
    expect(evaluateThresholds(r, { v: '' })).toBeNull();
    expect(evaluateThresholds(r, { v: 'abc' })).toBeNull();
    expect(evaluateThresholds(r, { v: ' 3 ' })?.label).toBe('low');
    expect(evaluateThresholds([{ ifField: 'v', eq: 'null', label: 'x' }], { v: null })).toBeNull();
  });

  it('reads dotted fields, the field alias and the color spelling', () => {
    expect(
      evaluateThresholds([{ field: 'bp.sys', max: 120, color: 'teal', label: 'ok' }], { bp: { sys: 118 } }),
    ).toEqual({
      colour: 'teal',
      label: 'ok',
      index: 0,
    });
    expect(evaluateThresholds([{ ifField: 'v', min: 1 }], { v: 2 })).toEqual({
      colour: '',
      label: '',
      index: 0,
    });
  });

  it('eq works on booleans and text', () => {
    expect(evaluateThresholds([{ ifField: 'done', eq: true, label: 'yes' }], { done: true })?.label).toBe(
      'yes',
    );
    expect(evaluateThresholds([{ ifField: 'done', eq: 'true', label: 'yes' }], { done: true })?.label).toBe(
      'yes',
    );
    expect(evaluateThresholds([{ ifField: 'kind', eq: 'run', label: 'run' }], { kind: 'swim' })).toBeNull();
  });

  it('a bound that is not a number never matches (no accidental catch-all)', () => {
    expect(evaluateThresholds([{ ifField: 'v', min: 'lots', label: 'x' }], { v: 5 })).toBeNull();
    expect(evaluateThresholds([{ ifField: 'v', min: '3', max: '7', label: 'x' }], { v: 5 })?.label).toBe('x');
    expect(evaluateThresholds([{ ifField: 'v', min: null, label: 'x' }], { v: 5 })).toBeNull();
  });

  it('skips junk and returns null without rules or row', () => {
    expect(evaluateThresholds([null, 'x', [1], { ifField: 'v', max: 9, label: 'ok' }], { v: 1 })).toEqual({
      colour: '',
      label: 'ok',
      index: 3,
    });
    expect(evaluateThresholds(undefined, { v: 1 })).toBeNull();
    expect(evaluateThresholds({ ifField: 'v' }, { v: 1 })).toBeNull();
    expect(evaluateThresholds(rules, undefined)).toBeNull();
    expect(evaluateThresholds(rules, null)).toBeNull();
  });
});

describe('rule helpers', () => {
  it('ruleMatches, isCatchAll, ruleField', () => {
    expect(isCatchAll({ label: 'x' })).toBe(true);
    expect(isCatchAll({ min: undefined, label: 'x' })).toBe(true);
    expect(isCatchAll({ eq: 0 })).toBe(false);
    expect(ruleMatches({ min: 0.8 }, 0.7 + 0.1)).toBe(true);
    expect(ruleMatches({ max: 0.3 }, 0.1 + 0.2)).toBe(true);
    expect(ruleMatches({ eq: 0.3 }, 0.1 + 0.2)).toBe(true);
    expect(ruleMatches({ min: 1, eq: 'x' }, 'x')).toBe(true);
    expect(ruleMatches({}, undefined)).toBe(true);
    expect(ruleField({ ifField: 'a', field: 'b' }, 'c')).toBe('a');
    expect(ruleField({ field: 'b' }, 'c')).toBe('b');
    expect(ruleField({ ifField: ' ' }, 'c')).toBe('c');
    expect(ruleField({})).toBeUndefined();
  });

  it('primaryFieldOf', () => {
    expect(primaryFieldOf({ primary: 'latest.kg', template: '{weight}' })).toBe('kg');
    expect(primaryFieldOf({ primary: 'kg' })).toBe('kg');
    expect(primaryFieldOf({ template: 'Type {type}' })).toBe('type');
    expect(primaryFieldOf({ format: '{systolic}/{diastolic}' })).toBe('systolic');
    expect(primaryFieldOf({ template: 'static', trendArrow: { field: 'ms' } })).toBe('ms');
    expect(primaryFieldOf({})).toBeUndefined();
    expect(primaryFieldOf('{x}')).toBeUndefined();
  });
});
