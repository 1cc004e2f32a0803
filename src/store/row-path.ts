/**
 * Row paths: the small language the row tools use to point into a card's `data` block
 * (docs/API.md "Row path grammar"). Pure: parsing and formatting only; resolving a path
 * against a document lives in row-ops.ts.
 *
 *   path    := ''                          (whitespace only: the whole data block)
 *            | first ( '.' key | filter )*
 *   first   := key | filter                (a leading filter selects from an array-rooted block)
 *   key     := [letters digits _ -]+
 *   filter  := '[' key '=' literal ']'     (spaces allowed inside the brackets)
 *   literal := number | 'string' | "string" | true | false
 *
 * `[index=N]` is positional: N is an integer, negative counts from the end (-1 = last).
 */

import { clipGraphemes, graphemeAt } from '../common/graphemes.js';
import { isPrototypeName } from '../common/json-guard.js';
import { RowError } from '../errors.js';

/** A value a filter compares with, strictly (`===`). */
export type Literal = string | number | boolean;

/** One step of a row path: a key of an object, or one element of an array chosen by filter or position. */
export type Segment =
  | { kind: 'key'; key: string }
  | { kind: 'filter'; key: string; value: Literal }
  | { kind: 'index'; index: number };

/** Longest row path accepted, characters. */
export const MAX_ROW_PATH_CHARS = 512;
/** Most segments a row path may have. */
export const MAX_ROW_PATH_SEGMENTS = 32;

/** Key characters: letters, digits, `_` and `-` (Unicode letters and digits, so `größe` is a key). */
const KEY_RE = /[\p{L}\p{M}\p{N}_-]+/uy;
/** Bare numbers: JSON's number syntax (no leading zeros, so `007` and `2026-04-20` must be quoted). */
const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const WS_RE = /\s/;
/**
 * Parses a row path into segments. An empty or whitespace-only path is `[]` (the whole data block).
 * Throws RowError `BAD_PATH` (HTTP 400) naming what is wrong and the 1-based character position:
 * a non-string, longer than MAX_ROW_PATH_CHARS, more than MAX_ROW_PATH_SEGMENTS segments, an empty
 * or invalid key, an unclosed bracket or string, an unknown escape, an unquoted non-number value,
 * or a non-integer `[index=N]`. Grammar: docs/API.md "Row path grammar".
 */
export function parseRowPath(path: string): Segment[] {
  if (typeof path !== 'string') {
    throw new RowError('BAD_PATH', `row path must be a string, got ${typeof path}`, String(path));
  }
  if (path.length > MAX_ROW_PATH_CHARS) {
    throw new RowError(
      'BAD_PATH',
      `row path is ${path.length} characters long; the limit is ${MAX_ROW_PATH_CHARS}`,
      // the answer names the path: only its start, never cut inside a character
      clipGraphemes(path, 40),
    );
  }
  return new Parser(path).parse();
}

class Parser {
  private pos = 0;
  private readonly end: number;
  private readonly segs: Segment[] = [];

  constructor(private readonly src: string) {
    let end = src.length;
    while (end > 0 && WS_RE.test(src[end - 1])) end--;
    this.end = end;
    while (this.pos < end && WS_RE.test(src[this.pos])) this.pos++;
  }

  parse(): Segment[] {
    if (this.pos === this.end) return [];
    if (this.src[this.pos] === '[') this.filter();
    else this.push({ kind: 'key', key: this.key('at the start of the path') });
    while (this.pos < this.end) {
      const c = this.src[this.pos];
      if (c === '.') {
        this.pos++;
        this.push({ kind: 'key', key: this.key("after '.'") });
      } else if (c === '[') {
        this.filter();
      } else {
        throw this.fail(
          `unexpected ${quoteChar(this.charAt(this.pos))}: expected '.' or '[' after a segment`,
        );
      }
    }
    return this.segs;
  }

  private push(seg: Segment): void {
    if (this.segs.length >= MAX_ROW_PATH_SEGMENTS) {
      throw this.fail(`too many segments: the limit is ${MAX_ROW_PATH_SEGMENTS}`);
    }
    this.segs.push(seg);
  }

  private key(context: string): string {
    KEY_RE.lastIndex = this.pos;
    const m = this.pos < this.end ? KEY_RE.exec(this.src) : null;
    if (!m) {
      const found = this.pos < this.end ? quoteChar(this.charAt(this.pos)) : 'the end of the path';
      throw this.fail(`expected a key (letters, digits, '_' or '-') ${context}, found ${found}`);
    }
    if (isPrototypeName(m[0])) {
      throw this.fail(`the key '${m[0]}' is refused ${context}: it names an object's prototype, not a field`);
    }
    this.pos += m[0].length;
    return m[0];
  }

  private filter(): void {
    const open = this.pos;
    this.pos++; // '['
    this.skipWs();
    this.otherNotation(open);
    const key = this.key("after '['");
    this.skipWs();
    this.expect('=', `expected '=' after [${key}`);
    this.skipWs();
    const valueAt = this.pos;
    const value = this.literal();
    this.skipWs();
    if (this.pos >= this.end) {
      this.pos = open;
      throw this.fail("unclosed '[': expected ']'");
    }
    this.expect(']', `expected ']' to close the '[' at character ${open + 1}`);
    if (key !== 'index') {
      this.push({ kind: 'filter', key, value });
      return;
    }
    const raw = this.src.slice(valueAt, this.pos).replace(/\]$/, '').trim();
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || !/^-?\d+$/.test(raw)) {
      this.pos = valueAt;
      throw this.fail(
        '[index=N] is positional and needs a bare whole number N (no exponent, at most 2^53; negative counts from the end)',
      );
    }
    if (raw === '-0') {
      this.pos = valueAt;
      // counting from the end starts at -1: -0 would silently be the first row
      throw this.fail('[index=-0] is no position: 0 is the first element, -1 the last');
    }
    this.push({ kind: 'index', index: value });
  }

  /**
   * Brackets holding a bare position or a day (`[0]`, `[-1]`, `[2026-04-20]`, `["2026-04-20"]`), as
   * other path languages pick an element, are refused with the spelling this grammar reads, since
   * the plain parse would only say an '=' is missing.
   */
  private otherNotation(open: number): void {
    const close = this.src.indexOf(']', this.pos);
    if (close < 0 || close > this.end) return;
    const inner = this.src.slice(this.pos, close).trim();
    const bare = /^(["']?)(.*)\1$/.exec(inner)?.[2] ?? inner;
    let hint: string | null = null;
    if (/^-?\d+$/.test(inner))
      hint = `to pick an element by its position write [index=${inner}] (0 is the first, -1 the last)`;
    else if (/^\d{4}-\d{2}-\d{2}/.test(bare) && !bare.includes('='))
      hint = `to pick a row by its day write [date="${bare}"]`;
    if (hint === null) return;
    this.pos = open;
    throw this.fail(`a filter is [key=value]: ${hint}`);
  }

  private literal(): Literal {
    const c = this.src[this.pos];
    if (c === '"' || c === "'") return this.string(c);
    const start = this.pos;
    while (this.pos < this.end && this.src[this.pos] !== ']' && !WS_RE.test(this.src[this.pos])) this.pos++;
    const token = this.src.slice(start, this.pos);
    if (token === 'true') return true;
    if (token === 'false') return false;
    if (token === '') {
      throw this.fail("expected a value after '=' (a number, a quoted string, true or false)");
    }
    this.pos = start;
    if (NUMBER_RE.test(token)) {
      const n = Number(token);
      if (!Number.isFinite(n)) throw this.fail(`number ${token} is out of range`);
      this.pos += token.length;
      return n === 0 ? 0 : n; // no -0
    }
    throw this.fail(
      `unquoted value ${token}: bare values must be numbers, true or false; quote strings, e.g. "${token}"`,
    );
  }

  private string(quote: string): string {
    const start = this.pos;
    this.pos++;
    let out = '';
    while (this.pos < this.end) {
      const c = this.src[this.pos];
      if (c === quote) {
        this.pos++;
        return out;
      }
      if (c === '\\') {
        const next = this.src[this.pos + 1];
        if (next !== '"' && next !== "'" && next !== '\\') {
          throw this.fail(
            `unknown escape \\${this.charAt(this.pos + 1)} in a string: only \\", \\' and \\\\ are escapes (other characters are literal)`,
          );
        }
        out += next;
        this.pos += 2;
        continue;
      }
      out += c;
      this.pos++;
    }
    this.pos = start;
    throw this.fail(`unterminated string: no closing ${quote}`);
  }

  private expect(c: string, message: string): void {
    if (this.src[this.pos] !== c) {
      const found = this.pos < this.end ? quoteChar(this.charAt(this.pos)) : 'the end of the path';
      throw this.fail(`${message}, found ${found}`);
    }
    this.pos++;
  }

  /** The character at `i` as a person sees it (never half an emoji), for messages. */
  private charAt(i: number): string {
    return graphemeAt(this.src, i);
  }

  private skipWs(): void {
    while (this.pos < this.end && WS_RE.test(this.src[this.pos])) this.pos++;
  }

  private fail(what: string): RowError {
    return new RowError(
      'BAD_PATH',
      `bad row path ${JSON.stringify(this.src)}: ${what} (at character ${this.pos + 1})`,
      this.src,
    );
  }
}

const quoteChar = (c: string) => (c === "'" ? `"'"` : `'${c}'`);

/**
 * Formats segments back into a row path, canonically: `a.b[k="v"][index=-1]`, strings double-quoted
 * with `\"` and `\\` escaped. `parseRowPath(formatRowPath(segs))` equals `segs`. Throws RowError
 * `BAD_PATH` for a segment no path can express (an invalid key, a filter on a field named `index`,
 * a non-finite number, a non-integer index). Grammar:
 */
export function formatRowPath(segs: readonly Segment[]): string {
  let out = '';
  for (const seg of segs) {
    if (seg.kind === 'key') {
      out += (out === '' ? '' : '.') + checkKey(seg.key, out);
    } else if (seg.kind === 'filter') {
      if (seg.key === 'index') {
        throw new RowError(
          'BAD_PATH',
          'a filter on a field named "index" cannot be written as a row path',
          out,
        );
      }
      out += `[${checkKey(seg.key, out)}=${formatLiteral(seg.value, out)}]`;
    } else {
      if (!Number.isInteger(seg.index)) {
        throw new RowError('BAD_PATH', `index ${seg.index} is not an integer`, out);
      }
      out += `[index=${seg.index === 0 ? 0 : seg.index}]`;
    }
  }
  return out;
}

function checkKey(key: string, sofar: string): string {
  KEY_RE.lastIndex = 0;
  const m = KEY_RE.exec(key);
  if (!m || m[0].length !== key.length) {
    throw new RowError('BAD_PATH', `key ${JSON.stringify(key)} cannot be written in a row path`, sofar);
  }
  return key;
}

function formatLiteral(v: Literal, sofar: string): string {
  if (typeof v === 'string') return `"${v.replace(/[\\"]/g, '\\$&')}"`;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v === 0 ? 0 : v);
  throw new RowError('BAD_PATH', `value ${String(v)} cannot be written in a row path`, sofar);
}
