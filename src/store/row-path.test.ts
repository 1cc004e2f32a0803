import { describe, expect, it } from 'vitest';
import { RowError } from '../errors.js';
import {
  formatRowPath,
  MAX_ROW_PATH_CHARS,
  MAX_ROW_PATH_SEGMENTS,
  parseRowPath,
  type Segment,
} from './row-path.js';

/** Parses `path` expecting BAD_PATH; returns the error for further checks. */
function badPath(path: string): RowError {
  try {
    parseRowPath(path);
  } catch (e) {
    expect(e).toBeInstanceOf(RowError);
    const err = e as RowError;
    expect(err.rowCode).toBe('BAD_PATH');
    expect(err.status).toBe(400);
    expect(err.rowPath).toBe(path);
    return err;
  }
  throw new Error(`expected BAD_PATH for ${JSON.stringify(path)}`);
}

/** The error of a path expected to be refused, whatever its code. */
function parseError(path: string): RowError {
  try {
    parseRowPath(path);
  } catch (e) {
    return e as RowError;
  }
  throw new Error(`expected an error for ${JSON.stringify(path)}`);
}

const wellFormed = (s: string) => !/\p{Cs}/u.test(s);

describe('parseRowPath: errors never name half a character', () => {
  it.each([
    ['an emoji where a key should start', 'items.🏃', "'🏃'"],
    ['an emoji after a segment', 'items🏃', "'🏃'"],
    ['a flag after a key', 'a🇳🇿', "'🇳🇿'"],
    ['a family where a key should start', '[👨‍👩‍👧=1]', "'👨‍👩‍👧'"],
    ['an emoji after a backslash in a string', '[name="a\\🏃"]', '\\🏃 in a string'],
    ['an emoji where = should be', '[name🏃="x"]', "'🏃'"],
  ])('%s', (_what, path, named) => {
    const e = badPath(path);
    expect(wellFormed(e.message)).toBe(true);
    expect(e.message).toContain(named);
  });

  it('a sign under hundreds of marks is named by the sign alone', () => {
    const e = badPath(`a+${'\u0301'.repeat(400)}`);
    expect(e.message).toContain("unexpected '+':");
  });
});

describe('parseRowPath: segments', () => {
  it('an empty or whitespace-only path is the whole data block', () => {
    expect(parseRowPath('')).toEqual([]);
    expect(parseRowPath('   \t\n')).toEqual([]);
  });

  it('parses dotted keys with letters, digits, _ and -', () => {
    expect(parseRowPath('a.b_2.c-d.42')).toEqual([
      { kind: 'key', key: 'a' },
      { kind: 'key', key: 'b_2' },
      { kind: 'key', key: 'c-d' },
      { kind: 'key', key: '42' },
    ]);
  });

  it('accepts non-ASCII letters in keys', () => {
    expect(parseRowPath('größe.été')).toEqual([
      { kind: 'key', key: 'größe' },
      { kind: 'key', key: 'été' },
    ]);
  });

  it('parses a nested path through a filter', () => {
    expect(parseRowPath('items[name="Vitamin D"].doses')).toEqual([
      { kind: 'key', key: 'items' },
      { kind: 'filter', key: 'name', value: 'Vitamin D' },
      { kind: 'key', key: 'doses' },
    ]);
  });

  it('a leading filter selects from an array-rooted block', () => {
    expect(parseRowPath('[date="2026-04-20"].mood')).toEqual([
      { kind: 'filter', key: 'date', value: '2026-04-20' },
      { kind: 'key', key: 'mood' },
    ]);
  });

  it('successive brackets parse (resolution decides whether they make sense)', () => {
    expect(parseRowPath('a[k=1][j=2]')).toEqual([
      { kind: 'key', key: 'a' },
      { kind: 'filter', key: 'k', value: 1 },
      { kind: 'filter', key: 'j', value: 2 },
    ]);
  });

  it('trims surrounding whitespace and allows spaces inside brackets', () => {
    expect(parseRowPath('  items[ name = "x" ] ')).toEqual([
      { kind: 'key', key: 'items' },
      { kind: 'filter', key: 'name', value: 'x' },
    ]);
  });
});

describe('parseRowPath: literals', () => {
  const value = (lit: string) => {
    const [seg] = parseRowPath(`[k=${lit}]`);
    if (seg.kind !== 'filter') throw new Error('not a filter');
    return seg.value;
  };

  it('bare numbers, including negative, fractional and exponent forms', () => {
    expect(value('5')).toBe(5);
    expect(value('-2.5')).toBe(-2.5);
    expect(value('0')).toBe(0);
    expect(value('1e3')).toBe(1000);
    expect(value('1.5E-2')).toBe(0.015);
    expect(Object.is(value('-0'), 0)).toBe(true);
  });

  it('bare true and false are booleans', () => {
    expect(value('true')).toBe(true);
    expect(value('false')).toBe(false);
  });

  it('double- and single-quoted strings', () => {
    expect(value('"Vitamin D"')).toBe('Vitamin D');
    expect(value("'Vitamin D'")).toBe('Vitamin D');
    expect(value('"85"')).toBe('85');
    expect(value('"true"')).toBe('true');
    expect(value('""')).toBe('');
  });

  it('strings keep brackets, dots, = and the other quote literally', () => {
    expect(value('"a].b[c=d"')).toBe('a].b[c=d');
    expect(value(`"it's"`)).toBe("it's");
    expect(value(`'say "hi"'`)).toBe('say "hi"');
  });

  it('backslash escapes the quotes and itself', () => {
    expect(value('"say \\"hi\\""')).toBe('say "hi"');
    expect(value("'it\\'s'")).toBe("it's");
    expect(value('"a\\\\b"')).toBe('a\\b');
    expect(value('"\\\'"')).toBe("'");
  });

  it('[index=N] is positional, negative counts from the end', () => {
    expect(parseRowPath('[index=0]')).toEqual([{ kind: 'index', index: 0 }]);
    expect(parseRowPath('rows[index=-1]')).toEqual([
      { kind: 'key', key: 'rows' },
      { kind: 'index', index: -1 },
    ]);
    expect(parseRowPath('[index=3]')).toEqual([{ kind: 'index', index: 3 }]);
  });
});

describe('parseRowPath: BAD_PATH', () => {
  it('an unquoted non-number value, naming the value and its position', () => {
    const err = badPath('[date=2026-04-20]');
    expect(err.message).toContain('2026-04-20');
    expect(err.message).toContain('character 7');
    expect(err.message).toContain('"2026-04-20"');
  });

  it.each([
    ['bare word', '[name=Vitamin]'],
    ['null', '[k=null]'],
    ['leading zeros', '[k=007]'],
    ['leading plus', '[k=+5]'],
    ['leading dot', '[k=.5]'],
    ['trailing dot', '[k=5.]'],
    ['capitalised boolean', '[k=True]'],
    ['number then junk', '[k=5abc]'],
  ])('rejects an unquoted value: %s', (_name, path) => {
    expect(badPath(path).message).toContain('unquoted value');
  });

  it.each([
    ['a leading dot', '.a', 1],
    ['a trailing dot', 'a.', 3],
    ['a double dot', 'a..b', 3],
    ['a space inside a key', 'a b', 2],
    ['a disallowed character', 'a/b', 2],
    ['a key straight after a bracket', 'a[k=1]b', 7],
    ['an empty filter', 'a[]', 3],
    ['a filter without =', 'a[k]', 4],
    ['a filter without a key', 'a[=1]', 3],
    ['a filter without a value', 'a[k=]', 5],
    ['a doubled =', 'a[k==1]', 5],
    ['a second value', 'a[k=1 2]', 7],
  ])('rejects %s, at the right character', (_name, path, at) => {
    expect(badPath(path).message).toContain(`at character ${at})`);
  });

  it('a number out of range', () => {
    expect(badPath('[k=1e400]').message).toMatch(/number 1e400 is out of range.*character 4\)/);
  });

  it('an unclosed bracket', () => {
    expect(badPath('items[name="x"').message).toMatch(/unclosed '\['.*character 6\)/);
    expect(badPath('items[k=1').message).toContain("unclosed '['");
  });

  it('an unterminated string', () => {
    expect(badPath('items[name="x]').message).toMatch(/unterminated string.*character 12\)/);
    expect(badPath("items[name='x\\']").message).toContain('unterminated string');
  });

  it('an unknown escape', () => {
    expect(badPath('[k="a\\nb"]').message).toMatch(/unknown escape \\n.*character 6\)/);
  });

  it('[index=N] needs a bare integer', () => {
    for (const p of ['[index=1.5]', '[index="2"]', '[index=true]', '[index=last]']) badPath(p);
    expect(badPath('[index="2"]').message).toContain('positional');
  });

  it('more than 512 characters: the error names only the start of the path', () => {
    const ok = 'a'.repeat(MAX_ROW_PATH_CHARS);
    expect(parseRowPath(ok)).toHaveLength(1);
    const e = parseError(`${ok}b`);
    expect(e.message).toContain('513 characters');
    expect(e.rowPath).toBe(`${'a'.repeat(39)}…`);
    const emoji = parseError('🏃'.repeat(300));
    expect(emoji.rowPath).toBe(`${'🏃'.repeat(39)}…`);
  });

  it('more than 32 segments', () => {
    const ok = Array.from({ length: MAX_ROW_PATH_SEGMENTS }, () => 'a').join('.');
    expect(parseRowPath(ok)).toHaveLength(32);
    expect(badPath(`${ok}.a`).message).toContain('too many segments');
    expect(badPath(`${'[index=0]'.repeat(33)}`).message).toContain('too many segments');
  });

  it('a non-string path', () => {
    expect(() => parseRowPath(42 as unknown as string)).toThrow(RowError);
  });
});

describe('formatRowPath', () => {
  it.each([
    '',
    'a',
    'a.b.c',
    'items[name="Vitamin D"].doses',
    '[date="2026-04-20"].mood',
    '[index=-1]',
    'a[index=0].b[k=-2.5][j=true][l=false]',
    '[k="say \\"hi\\" \\\\ it\'s"]',
    '[k=1e+21]',
    '[k=1e-7]',
  ])('round-trips %s', (path) => {
    const segs = parseRowPath(path);
    expect(formatRowPath(segs)).toBe(path);
    expect(parseRowPath(formatRowPath(segs))).toEqual(segs);
  });

  it('canonicalises: single quotes become double, spaces go', () => {
    expect(formatRowPath(parseRowPath(" items[ name = 'it\\'s' ] "))).toBe('items[name="it\'s"]');
  });

  it('round-trips arbitrary strings and numbers', () => {
    const values = [
      '',
      ' ',
      '"',
      "'",
      '\\',
      '\\"',
      '] . [',
      'ünï',
      '🙂',
      1,
      -1,
      0.1,
      123456.789,
      1e-300,
      true,
    ];
    for (const value of values) {
      const segs: Segment[] = [
        { kind: 'key', key: 'k' },
        { kind: 'filter', key: 'f', value },
      ];
      expect(parseRowPath(formatRowPath(segs))).toEqual(segs);
    }
  });

  it('refuses segments no path can express', () => {
    const bad: Segment[][] = [
      [{ kind: 'key', key: 'has space' }],
      [{ kind: 'key', key: '' }],
      [{ kind: 'filter', key: 'index', value: 1 }],
      [{ kind: 'filter', key: 'k', value: Number.NaN }],
      [{ kind: 'index', index: 1.5 }],
    ];
    for (const segs of bad) expect(() => formatRowPath(segs)).toThrow(RowError);
  });
});
