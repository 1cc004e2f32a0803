import { describe, expect, it } from 'vitest';
import { templateMeta } from '../../test/helpers/templates.js';
import { evaluateThresholds, isCatchAll, primaryFieldOf, ruleField, ruleMatches } from './thresholds.js';

type Json = Record<string, unknown>;

/** The `meta.view.display` of the card template `id`. */
function display(id: string): Json {
  return (templateMeta(id).view as Json).display as Json;
}

/** The label the card template `id` gives to a row `{[field]: value}` (null: no band). */
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

describe('thresholds of the card templates', () => {
  it('energy: numeric eq 4 matches "4", 4 and "4.0"; nothing outside the scale', () => {
    expect(labelOf('energy', 'level', 4)).toBe('Good');
    expect(labelOf('energy', 'level', '4')).toBe('Good');
    expect(labelOf('energy', 'level', '1')).toBe('Exhausted');
    expect(labelOf('energy', 'level', 5)).toBe('Full of beans');
    expect(labelOf('energy', 'level', 0)).toBeNull();
    expect(labelOf('energy', 'level', '')).toBeNull();
  });

  it('a string eq matches the number and the string', () => {
    const rules = [{ ifField: 'type', eq: '4', label: 'Ideal' }];
    expect(evaluateThresholds(rules, { type: 4 })?.label).toBe('Ideal');
    expect(evaluateThresholds(rules, { type: '4' })?.label).toBe('Ideal');
    expect(evaluateThresholds(rules, { type: 5 })).toBeNull();
  });

  it('energy: colour and label of the matching rule', () => {
    const d = display('energy');
    expect(evaluateThresholds(d.thresholds, { level: 4 })).toEqual({
      colour: '#65a30d',
      label: 'Good',
      index: 3,
    });
  });

  it('active-minutes: inclusive bands open at both ends', () => {
    expect(labelOf('active-minutes', 'minutes', 0)).toBe('Barely moved');
    expect(labelOf('active-minutes', 'minutes', -5)).toBe('Barely moved');
    expect(labelOf('active-minutes', 'minutes', 9)).toBe('Barely moved');
    expect(labelOf('active-minutes', 'minutes', 10)).toBe('Some movement');
    expect(labelOf('active-minutes', 'minutes', 29)).toBe('Some movement');
    expect(labelOf('active-minutes', 'minutes', 30)).toBe('Goal met');
    expect(labelOf('active-minutes', 'minutes', 59)).toBe('Goal met');
    expect(labelOf('active-minutes', 'minutes', 60)).toBe('Big day');
    expect(labelOf('active-minutes', 'minutes', 100000)).toBe('Big day');
    // Between two integer bands: no band (the rules say inclusive numeric ranges, nothing more).
    expect(labelOf('active-minutes', 'minutes', 9.5)).toBeNull();
    expect(labelOf('active-minutes', 'minutes', '45')).toBe('Goal met');
  });

  it('steps, caffeine, glucose: banded counts with a catch-all last', () => {
    expect(labelOf('steps', 'count', 3999)).toBe('Quiet day');
    expect(labelOf('steps', 'count', 4000)).toBe('On the way');
    expect(labelOf('steps', 'count', 12000)).toBe('Goal reached');
    expect(labelOf('caffeine', 'mg', 199)).toBe('Light');
    expect(labelOf('caffeine', 'mg', 399)).toBe('Moderate');
    expect(labelOf('caffeine', 'mg', 400)).toBe('Over 400 mg');
    expect(labelOf('glucose', 'mmol', 3.9)).toBe('Low: eat something sugary');
    expect(labelOf('glucose', 'mmol', 5.4)).toBe('In target');
    expect(labelOf('glucose', 'mmol', 11)).toBe('High');
  });

  it('heart-rate-resting: min-only then max-only rules, first match wins', () => {
    expect(labelOf('heart-rate-resting', 'bpm', 95)).toBe('Higher than usual');
    expect(labelOf('heart-rate-resting', 'bpm', 90)).toBe('Higher than usual');
    expect(labelOf('heart-rate-resting', 'bpm', 60)).toBeNull();
    expect(labelOf('heart-rate-resting', 'bpm', 39)).toBe('Very low');
  });

  it('spo2: max-only rules in ascending order, then a catch-all', () => {
    expect(labelOf('spo2', 'pct', 100)).toBe('Normal');
    expect(labelOf('spo2', 'pct', 95)).toBe('Normal');
    expect(labelOf('spo2', 'pct', 93)).toBe('A little low');
    expect(labelOf('spo2', 'pct', 90)).toBe('Low, check again');
  });

  it('sleep-hours and body-temperature: decimal bounds, float artefacts do not fall short', () => {
    expect(labelOf('sleep-hours', 'hours', 5.5)).toBe('Short night');
    expect(labelOf('sleep-hours', 'hours', 5.6)).toBe('A bit short');
    expect(6.1 + 0.8).toBe(6.8999999999999995);
    expect(labelOf('sleep-hours', 'hours', 6.1 + 0.8)).toBe('A bit short');
    expect(labelOf('sleep-hours', 'hours', 7)).toBe('Rested');
    expect(labelOf('body-temperature', 'celsius', 35.4)).toBe('Low');
    expect(labelOf('body-temperature', 'celsius', 37.4)).toBe('Normal');
    expect(labelOf('body-temperature', 'celsius', 38)).toBe('Fever');
    expect(labelOf('body-temperature', 'celsius', 38.9)).toBe('Fever');
    expect(labelOf('body-temperature', 'celsius', 39.2)).toBe('High fever');
  });

  it('a non-finite value matches no band', () => {
    expect(labelOf('active-minutes', 'minutes', Number.NaN)).toBeNull();
    expect(labelOf('active-minutes', 'minutes', JSON.parse('1e999'))).toBeNull();
    expect(labelOf('active-minutes', 'minutes', '1e999')).toBeNull();
  });

  it('bp: rules on systolic, most severe first, then a catch-all', () => {
    expect(labelOf('bp', 'systolic', 165)).toBe('Very high, measure again');
    expect(labelOf('bp', 'systolic', 140)).toBe('High');
    expect(labelOf('bp', 'systolic', 126)).toBe('Raised');
    expect(labelOf('bp', 'systolic', 118)).toBe('In range');
    expect(labelOf('bp', 'systolic', 85)).toBe('Low');
  });

  it('legacy rules without ifField read the primary field', () => {
    const d = {
      primary: 'latest.systolic',
      thresholds: [
        { max: 120, colour: '#16a34a', label: 'Optimal' },
        { max: 139, colour: '#ca8a04', label: 'Raised' },
        { max: 180, colour: '#dc2626', label: 'High' },
      ],
    };
    expect(primaryFieldOf(d)).toBe('systolic');
    const band = (systolic: number, diastolic = 80) =>
      evaluateThresholds(d.thresholds, { systolic, diastolic }, { primaryField: primaryFieldOf(d) })?.label ??
      null;
    expect(band(110)).toBe('Optimal');
    expect(band(120)).toBe('Optimal');
    expect(band(125)).toBe('Raised');
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
