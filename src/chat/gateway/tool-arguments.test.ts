import { describe, expect, it } from 'vitest';
import { readFirstJsonValue, readToolArguments } from './tool-arguments.js';

describe('readToolArguments', () => {
  it('takes an object as is and stringifies it once', () => {
    expect(readToolArguments({ city: 'Paris' })).toEqual({
      canonical: '{"city":"Paris"}',
      parsed: { city: 'Paris' },
    });
  });
  it('parses a string and canonicalises whitespace', () => {
    expect(readToolArguments('{ "a" : 1 }')).toEqual({ canonical: '{"a":1}', parsed: { a: 1 } });
  });
  it('treats missing or blank arguments as {}', () => {
    expect(readToolArguments(undefined).parsed).toEqual({});
    expect(readToolArguments('  ').canonical).toBe('{}');
  });
  it('decodes a double-encoded object once, never double-encodes', () => {
    const r = readToolArguments(JSON.stringify('{"a":1}'));
    expect(r).toEqual({ canonical: '{"a":1}', parsed: { a: 1 } });
  });
  it('drops prose after the first complete object', () => {
    const r = readToolArguments('{"query": "TO-DO", "limit": 10}\n\nI\'ll now search the memory.');
    expect(r.canonical).toBe('{"query":"TO-DO","limit":10}');
    expect(r.droppedTrailing).toBe("I'll now search the memory.");
  });
  it('handles braces and quotes inside strings while scanning', () => {
    const r = readToolArguments('{"s":"a } \\" {"} trailing');
    expect(r.parsed).toEqual({ s: 'a } " {' });
  });
  it('refuses incomplete JSON, prose and non-objects, keeping the raw text', () => {
    expect(readToolArguments('{"a": ')).toMatchObject({ parsed: undefined, canonical: '{"a": ' });
    expect(readToolArguments('{"a": ').error).toMatch(/^arguments were not valid JSON: /);
    expect(readToolArguments('just words').error).toMatch(/not valid JSON/);
    expect(readToolArguments('[1,2]').error).toMatch(/must be a JSON object/);
    expect(readToolArguments('42').error).toMatch(/must be a JSON object/);
  });
  it('takes off one code fence around the whole arguments, and nothing else', () => {
    expect(readToolArguments('```json\n{"a": 1}\n```')).toEqual({ canonical: '{"a":1}', parsed: { a: 1 } });
    expect(readToolArguments('so: ```json\n{"a": 1}\n```').parsed).toBeUndefined();
    expect(readToolArguments('```\n{"a": 1}\n```\n```\n{"b": 2}\n```').parsed).toBeUndefined();
    expect(readToolArguments('```json\n{"a": \n```')).toMatchObject({
      parsed: undefined,
      canonical: '```json\n{"a": \n```',
    });
  });
  it('readFirstJsonValue returns the rest after the value', () => {
    expect(readFirstJsonValue('  [1,{"a":[2]}] tail')).toEqual({ value: [1, { a: [2] }], rest: ' tail' });
    expect(readFirstJsonValue('{"a":1')).toBeUndefined();
  });
});
