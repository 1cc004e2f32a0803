/**
 * Where a JSON text fails to parse, and why, in words a person editing the file by hand can act
 * on: the line and column (counted from 1; a CRLF ends one line), and the usual mistakes named (a
 * comment, a comma before `}` or `]`, single or curly quotes, a name without quotes, a missing
 * comma, a file that ends early). JSON.parse's messages give an offset, a line, or neither,
 * depending on the mistake and the Node version, so the place is found by reading the text.
 */

/** A syntax error located in the text. */
export interface JsonSyntaxProblem {
  /** 1-based line of the mistake. */
  line: number;
  /** 1-based column (UTF-16 units) of the mistake. */
  column: number;
  /** What is wrong there, in a person's words. */
  message: string;
}

/** Line and column (1-based) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: end - start + 1 };
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

function skipSpace(t: string, i: number): number {
  while (i < t.length && isSpace(t[i])) i++;
  return i;
}

/** End of the string starting at `i` (a `"`), or the negated offset of its fault. */
function stringEnd(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === 34) return j + 1;
    if (c < 0x20) return -j;
    if (c === 92) {
      if (
        t[j + 1] === 'u'
          ? !/^[0-9a-fA-F]{4}$/.test(t.slice(j + 2, j + 6))
          : !'"\\/bfnrt'.includes(t[j + 1] ?? 'x')
      )
        return -j;
      j += t[j + 1] === 'u' ? 5 : 1;
    }
  }
  return -t.length;
}

const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/** End of the number or literal at `i`, or -1. */
function scalarEnd(t: string, i: number): number {
  SCALAR.lastIndex = i;
  const m = SCALAR.exec(t);
  const end = m ? i + m[0].length : -1;
  // a number or word runs on ("12ab", "nulls"): the run is the fault
  return end >= 0 && /[\w.$]/.test(t[end] ?? '') ? -1 : end;
}

/**
 * Offset of the first place `t` stops being JSON (RFC 8259), by one pass with an explicit stack,
 * whatever depth; undefined when it is JSON. `root: true` when it is text after a whole value.
 */
export function firstJsonFault(t: string): { offset: number; root: boolean } | undefined {
  const stack: string[] = [];
  let want: 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'after' = 'value';
  let i = 0;
  for (;;) {
    i = skipSpace(t, i);
    if (i >= t.length) return want === 'after' && stack.length === 0 ? undefined : { offset: i, root: false };
    const c = t[i];
    if (want === 'after') {
      const top = stack[stack.length - 1];
      if (top === undefined) return { offset: i, root: true };
      if (c === ',') want = top === '{' ? 'key' : 'value';
      else if ((c === '}' && top === '{') || (c === ']' && top === '[')) stack.pop();
      else return { offset: i, root: false };
      i++;
    } else if (want === 'key' || want === 'key-or-close') {
      if (c === '}' && want === 'key-or-close') {
        stack.pop();
        want = 'after';
        i++;
        continue;
      }
      if (c !== '"') return { offset: i, root: false };
      const end = stringEnd(t, i);
      if (end < 0) return { offset: -end, root: false };
      i = skipSpace(t, end);
      if (t[i] !== ':') return { offset: i, root: false };
      want = 'value';
      i++;
    } else if (c === ']' && want === 'value-or-close') {
      stack.pop();
      want = 'after';
      i++;
    } else if (c === '{' || c === '[') {
      stack.push(c);
      want = c === '{' ? 'key-or-close' : 'value-or-close';
      i++;
    } else {
      const end = c === '"' ? stringEnd(t, i) : scalarEnd(t, i);
      if (end < 0) return { offset: c === '"' ? -end : i, root: false };
      want = 'after';
      i = end;
    }
  }
}

const skipSpaceBack = (text: string, i: number): number => {
  let j = i - 1;
  while (j >= 0 && /\s/.test(text[j])) j--;
  return j;
};

/** The mistake found at `at` (the offset JSON.parse stopped at), and where it starts. */
function mistakeAt(text: string, at: number): { offset: number; what: string } | undefined {
  let i = at;
  while (i < text.length && /\s/.test(text[i])) i++;
  const rest = text.slice(i, i + 2);
  if (i >= text.length)
    return {
      offset: text.length,
      what: 'the file ends early: a closing } or ] is missing (or it was saved half-way)',
    };
  if (rest === '//' || rest === '/*')
    return {
      offset: i,
      what: 'a comment: JSON has no comments, remove it (or keep the note in "description")',
    };
  const c = text[i];
  const before = skipSpaceBack(text, i);
  if ((c === '}' || c === ']') && text[before] === ',')
    return { offset: before, what: `a comma before the closing ${c}: remove it` };
  if (c === "'") return { offset: i, what: 'text in single quotes: JSON needs double quotes (")' };
  if ('\u201c\u201d\u2018\u2019'.includes(c))
    return {
      offset: i,
      what: 'a curly quote (as a word processor writes it): JSON needs straight double quotes (")',
    };
  if (/[A-Za-z_$]/.test(c)) {
    const word = /^[A-Za-z_$][\w$-]*/.exec(text.slice(i))?.[0] ?? c;
    if (['NaN', 'Infinity', 'undefined'].includes(word))
      return { offset: i, what: `${word} is not a JSON value: write a number or null` };
    if (text[before] === '{' || text[before] === ',')
      return { offset: i, what: `the name ${word} needs double quotes ("${word}")` };
    return {
      offset: i,
      what: `unexpected ${word}: text needs double quotes, and true, false and null are written in lower case`,
    };
  }
  if ((c === '"' || c === '{' || c === '[' || /[\d-]/.test(c)) && /["\d}\]el]/.test(text[before] ?? ''))
    return { offset: i, what: 'a comma is missing before this' };
  return undefined;
}

/**
 * Locates the mistake that made `JSON.parse(text)` throw `err` and says what it is. The place is
 * found by reading the text itself (the parser's message may not give it); when that finds none,
 * the parser's message is given at the text's end.
 */
export function jsonSyntaxProblem(text: string, err: Error): JsonSyntaxProblem {
  const fault = firstJsonFault(text);
  if (fault?.root) {
    return {
      ...lineColumn(text, fault.offset),
      message:
        'more text after the end: the manifest is one object, from its first { to the } that closes it',
    };
  }
  const found = fault === undefined ? undefined : mistakeAt(text, fault.offset);
  const offset = found?.offset ?? fault?.offset ?? text.length;
  const detail = err.message
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/ in JSON at position \d+/, '');
  return { ...lineColumn(text, offset), message: found?.what ?? (detail || 'not valid JSON') };
}
