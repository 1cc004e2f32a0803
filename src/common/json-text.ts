/**
 * Checks on JSON *text* that a parsed value can no longer show: a number JavaScript cannot hold as
 * written (`1e999` parses to Infinity and is stored as null, `1e-400` to 0, an integer past 2^53
 * is rounded) and bytes that are not UTF-8 (decoded, they become U+FFFD). Each would change a
 * health record silently, so every write path refuses them and names the place.
 */
import { childPath } from './field-path.js';
import type { JsonShapeProblem } from './json-guard.js';

/** Largest integer a JSON number keeps exactly (2^53 - 1). */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A number token that might be out of range or too precise: an exponent, or 16 digits (a dot
 * allowed among them). Cheap pre-filter: up to 15 significant digits always round-trip.
 */
const SUSPECT = /\d[eE][+-]?\d|\d[\d.]{15}/;

/** The significant digits of a decimal number text and where its point sits (`0.0120` → `12@-1`). */
function decimalDigits(text: string): string {
  const [mantissa, exp = '0'] = text.replace(/^-/, '').split(/[eE]/);
  const [whole, frac = ''] = mantissa.split('.');
  let digits = whole + frac;
  let point = whole.length + Number(exp);
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= lead;
  return digits === '' ? '0' : `${digits}@${point}`;
}

/** What is wrong with one number token as written, or null when JavaScript keeps it faithfully. */
export function numberTokenProblem(token: string): string | null {
  const v = Number(token);
  if (!Number.isFinite(v)) return `is ${token}, too large to store as a number (it would become null)`;
  const mantissa = token.split(/[eE]/)[0];
  if (v === 0 && /[1-9]/.test(mantissa))
    return `is ${token}, too small to store as a number (it would become 0)`;
  if (/^-?\d+$/.test(token) && Math.abs(v) > SAFE) {
    return `is ${token}, an integer larger than 2^53 - 1 that would be rounded; send it as a string`;
  }
  if (decimalDigits(token) !== decimalDigits(String(v))) {
    return `is ${token}, more digits than a number keeps (it would be stored as ${v}); send it as a string`;
  }
  return null;
}

interface Frame {
  array: boolean;
  index: number;
  key: string | undefined;
  expectKey: boolean;
}

function pathOf(stack: Frame[], prefix: string): string {
  let out = prefix;
  for (const f of stack) {
    if (f.array) out = childPath(out, f.index);
    else if (f.key !== undefined) out = childPath(out, f.key);
  }
  return out || '(value)';
}

/** End index (exclusive) of the JSON string starting at `i` (a `"`). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === 92) j += 2;
    else if (c === 34) return j + 1;
    else j++;
  }
  return j;
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Walks well-formed JSON text (call it after JSON.parse succeeded) and returns the first number
 * that JavaScript would not keep as written, with its dotted path (`meta.x`, `data[3].value`)
 * behind `prefix`, or null. Text without an exponent or a run of 16 digits is passed at once.
 */
export function jsonNumberProblem(text: string, prefix = ''): JsonShapeProblem | null {
  if (!SUSPECT.test(text)) return null;
  return walk(text, prefix, undefined);
}

/** The dotted path of the value being written at character `offset` of (possibly cut) JSON text. */
export function jsonPathAt(text: string, offset: number, prefix = ''): string {
  return walk(text, prefix, offset)?.path ?? (prefix || '(value)');
}

function walk(text: string, prefix: string, stopAt: number | undefined): JsonShapeProblem | null {
  const stack: Frame[] = [];
  const limit = stopAt ?? text.length;
  let i = 0;
  while (i < limit) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '{' || c === '[') {
      stack.push({ array: c === '[', index: 0, key: undefined, expectKey: c === '{' });
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      i++;
    } else if (c === ',') {
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
      i++;
    } else if (c === '"') {
      const end = stringEnd(text, i);
      if (top && !top.array && top.expectKey) {
        if (stopAt !== undefined && end > stopAt) return { path: pathOf(stack, prefix), message: '' };
        try {
          top.key = JSON.parse(text.slice(i, end)) as string;
        } catch {
          top.key = text.slice(i + 1, end - 1);
        }
        top.expectKey = false;
      }
      i = end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      const token = m ? m[0] : c;
      const problem = stopAt === undefined ? numberTokenProblem(token) : null;
      if (problem) return { path: pathOf(stack, prefix), message: problem };
      i += token.length;
    } else {
      i++;
    }
  }
  return stopAt === undefined ? null : { path: pathOf(stack, prefix), message: '' };
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LOOSE_UTF8 = new TextDecoder('utf-8');

/** Byte offset of the first sequence in `buf` that is not UTF-8, or -1. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0 || i + len > buf.length) return i;
    const b1 = buf[i + 1];
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (b1 < lo || b1 > hi) return i;
    for (let k = 2; k < len; k++) if ((buf[i + k] & 0xc0) !== 0x80) return i;
    i += len;
  }
  return -1;
}

/**
 * Decodes bytes as UTF-8, refusing bytes that are not (they would be stored as U+FFFD).
 * @returns the text, or `{problem}` naming the JSON field that holds the first bad byte
 *   (`prefix` + dotted path) when the bytes are JSON text.
 */
export function decodeUtf8Strict(
  buf: Uint8Array,
  prefix = '',
): { text: string; problem?: undefined } | { text?: undefined; problem: JsonShapeProblem } {
  try {
    return { text: STRICT_UTF8.decode(buf) };
  } catch {
    const at = Math.max(0, firstInvalidUtf8(buf));
    const before = LOOSE_UTF8.decode(buf.subarray(0, at));
    return {
      problem: {
        path: jsonPathAt(before, before.length, prefix),
        message: `holds bytes that are not UTF-8 (at byte ${at}); send text as UTF-8`,
      },
    };
  }
}
