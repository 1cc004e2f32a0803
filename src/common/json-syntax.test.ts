import { describe, expect, it } from 'vitest';
import { firstJsonFault, jsonSyntaxProblem, lineColumn } from './json-syntax.js';

/** The problem JSON.parse's own error gives for `text`. */
function problem(text: string) {
  try {
    JSON.parse(text);
  } catch (err) {
    return jsonSyntaxProblem(text, err as Error);
  }
  throw new Error('parsed');
}

describe('jsonSyntaxProblem', () => {
  it('names the usual hand-editing mistakes with their line and column', () => {
    expect(problem('{\n  // weight\n  "a": 1\n}')).toEqual({
      line: 2,
      column: 3,
      message: 'a comment: JSON has no comments, remove it (or keep the note in "description")',
    });
    expect(problem('{\r\n  "a": 1,\r\n}\r\n')).toMatchObject({
      line: 2,
      column: 9,
      message: 'a comma before the closing }: remove it',
    });
    expect(problem('{"a": [1, 2,\n]}')).toMatchObject({
      line: 1,
      column: 12,
      message: 'a comma before the closing ]: remove it',
    });
    expect(problem("{'a': 1}")).toMatchObject({
      line: 1,
      column: 2,
      message: 'text in single quotes: JSON needs double quotes (")',
    });
    expect(problem('{"a": \u201cx\u201d}').message).toMatch(/^a curly quote/);
    expect(problem('{\n  label: "x"\n}')).toMatchObject({
      line: 2,
      column: 3,
      message: 'the name label needs double quotes ("label")',
    });
    expect(problem('{"a": 1\n "b": 2}')).toMatchObject({
      line: 2,
      column: 2,
      message: 'a comma is missing before this',
    });
    expect(problem('{"a": NaN}').message).toBe('NaN is not a JSON value: write a number or null');
    expect(problem('{"a": True}').message).toMatch(/true, false and null are written in lower case/);
    expect(problem('{\n  "a": [1,\n')).toMatchObject({
      line: 3,
      message: expect.stringMatching(/^the file ends early/),
    });
  });

  it('gives the parser message where no usual mistake is found', () => {
    const p = problem('{"a": 1 : 2}');
    expect(p).toMatchObject({ line: 1, column: 9 });
    expect(p.message).not.toBe('');
  });

  it('finds the place itself, whatever the parser message says', () => {
    const text = '{\n  "a": 1,\n}';
    expect(jsonSyntaxProblem(text, new SyntaxError('Unexpected token'))).toMatchObject({
      line: 2,
      column: 9,
    });
    expect(jsonSyntaxProblem('{"a": 1}}', new SyntaxError('x'))).toMatchObject({
      line: 1,
      column: 9,
      message: expect.stringMatching(/^more text after the end/),
    });
    expect(jsonSyntaxProblem('{"a": "b\\q"}', new SyntaxError('x'))).toMatchObject({ column: 9 });
    expect(jsonSyntaxProblem(`${'['.repeat(50000)}1,]`, new SyntaxError('x'))).toMatchObject({ line: 1 });
  });

  it('counts lines from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('firstJsonFault', () => {
  it('agrees with JSON.parse on what is JSON: the card templates and every one-character change of one', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dir = path.resolve(import.meta.dirname, '../../templates');
    const texts = fs.readdirSync(dir).map((n) => fs.readFileSync(path.join(dir, n), 'utf8'));
    for (const t of texts) expect(firstJsonFault(t)).toBeUndefined();
    const base = [...texts].sort((a, b) => a.length - b.length)[0];
    const swaps = ['', ',', '}', ']', '"', ':', '\\', '1', 'x', '\n', "'", '{', '['];
    for (let i = 0; i < base.length; i++) {
      for (const c of swaps) {
        const t = base.slice(0, i) + c + base.slice(i + 1);
        let parses = true;
        try {
          JSON.parse(t);
        } catch {
          parses = false;
        }
        expect(firstJsonFault(t) === undefined, JSON.stringify(t.slice(Math.max(0, i - 10), i + 10))).toBe(
          parses,
        );
      }
    }
  });
});
