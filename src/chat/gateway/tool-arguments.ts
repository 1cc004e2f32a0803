/**
 * Reading tool-call arguments the way real gateways send them: a JSON string (the OpenAI
 * schema), a JSON object (llama-server), a double-encoded string, valid JSON followed by prose
 * (thinking models through Ollama), JSON inside one Markdown code fence, JSON whose strings
 * hold raw line breaks and tabs (Gemini, DeepSeek, Kimi), or a value in Python's literal syntax
 * (python-literal.ts).
 */

import { clipGraphemes } from '../../common/graphemes.js';
import type { JsonShapeProblem } from '../../common/json-guard.js';
import { jsonNumberProblem } from '../../common/json-text.js';
import { valueEnd } from './json-prefix.js';
import { pythonLiteralAsJson } from './python-literal.js';
import { quoteTokensAsJson, withoutQuoteTokens } from './quote-tokens.js';
import { withoutStrayEscapes } from './stray-escapes.js';
import { unquotedJsonString } from './unquoted-json-string.js';

/** The outcome of reading one call's arguments. */
export interface ReadArguments {
  /** Canonical JSON string: JSON.stringify(parsed) when usable, else the raw text received. */
  canonical: string;
  /** The arguments object, or undefined when unusable (then the call must not run). */
  parsed: Record<string, unknown> | undefined;
  /** Why they are unusable, worded for a `role:tool` error reply. */
  error?: string;
  /**
   * Set when the unusable part is a number of the text that JavaScript would not keep as written:
   * the argument's path (`value.kg`) and what is wrong, as REST bodies name it.
   */
  numberProblem?: JsonShapeProblem;
  /** Set when text after the JSON value was dropped (log a warning). */
  droppedTrailing?: string;
}

/**
 * Finds the first complete JSON value at the start of `text` (leading whitespace allowed) and
 * returns it with whatever follows, or undefined when no complete value can be read. Objects
 * and arrays are delimited by a string-aware bracket scan, then handed to JSON.parse.
 */
export function readFirstJsonValue(text: string): { value: unknown; rest: string } | undefined {
  const start = text.length - text.trimStart().length;
  const first = text[start];
  if (first !== '{' && first !== '[') {
    try {
      return { value: JSON.parse(text), rest: '' };
    } catch {
      return undefined;
    }
  }
  const end = valueEnd(text, start);
  if (end === undefined) return undefined;
  const value = parseLeniently(text.slice(start, end));
  return value === NOT_JSON ? undefined : { value, rest: text.slice(end) };
}

/**
 * True when `raw` is arguments text that opens an object and stops before closing it (a string
 * left open, or brackets never closed), as a model's output does when it reaches its length limit
 * in the middle of a call. Text that closes its object, however wrong it is otherwise, is not.
 */
export function cutOffArguments(raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  const text = raw.trim();
  // an object whose brackets never close (a string left open hides the closing ones)
  return text.startsWith('{') && valueEnd(text, 0) === undefined;
}

/** What parseLeniently returns for text that is not JSON even read leniently. */
const NOT_JSON = Symbol('not JSON');

/**
 * `text` parsed as JSON; when that fails, parsed again with the control characters written raw
 * inside its strings escaped (a line break or tab the model wrote as itself instead of as `\n`
 * or `\t`: JSON forbids them there, but they can only mean the character) and the `\n`, `\r`, `\t`
 * it wrote between values read as the whitespace they spell (stray-escapes.ts). NOT_JSON when
 * neither parses.
 */
function parseLeniently(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const escaped = withoutStrayEscapes(escapeRawControls(text));
    if (escaped === text) return NOT_JSON;
    try {
      return JSON.parse(escaped);
    } catch {
      return NOT_JSON;
    }
  }
}

/** `text` with every control character (U+0000 to U+001F) inside a JSON string written as an escape. */
export function escapeRawControls(text: string): string {
  let out = '';
  let inString = false;
  let escaped = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (!inString) {
      if (ch === '"') inString = true;
      continue;
    }
    if (escaped) escaped = false;
    else if (ch === '\\') escaped = true;
    else if (ch === '"') inString = false;
    else if (ch < ' ') {
      out += text.slice(from, i) + JSON.stringify(ch).slice(1, -1);
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * True for a value that says "no arguments" without being an object: JSON null (also Python's
 * None) or an empty list, as models and servers write the arguments of a tool without parameters.
 */
function noArguments(v: unknown): boolean {
  return v === null || (Array.isArray(v) && v.length === 0);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return clipGraphemes(flat, 120);
}

/** One Markdown code fence around the whole text (a language tag allowed). */
const FENCE = /^\s*```[\w-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?[ \t]*```\s*$/;

/**
 * The text inside one Markdown code fence that wraps the whole of `raw` (models and relays that
 * send a call's arguments as "```json\n{...}\n```"), else undefined. A fence with text before or
 * after it, or several fences, is not taken off.
 */
function unfenced(raw: string): string | undefined {
  const m = FENCE.exec(raw);
  return m && !m[1].includes('```') ? m[1] : undefined;
}

/**
 * Reads one call's arguments:
 * - a non-null object is used as is (never stringified twice);
 * - null, undefined or blank text means no arguments: `{}`, and so does a value that is JSON
 *   `null` (or Python's `None`) or an empty list, as a tool without parameters gets called;
 * - text wrapped whole in one Markdown code fence is read without the fence;
 * - text is trimmed and its first complete JSON value read; trailing non-whitespace text is
 *   dropped and reported in `droppedTrailing`; control characters written raw inside its strings
 *   (a line break or tab the model did not escape) are read as the characters they are;
 * - text that is no JSON value but a value in Python's literal syntax (single-quoted strings,
 *   True / False / None, a comma before a closing bracket) is read as the JSON it means;
 * - a JSON string that itself holds an object (double-encoded) is decoded once more, and so is
 *   the inside of one whose quotes were taken off (`{\"date\": \"2026-05-01\"}`);
 * - a number of the text JavaScript would not keep as written (`1e999`, `1e-400`, an integer
 *   past 2^53, more digits than a double holds) makes the arguments unusable too: `numberProblem`
 *   names the argument (the same check as REST bodies, src/common/json-text.ts); an object the
 *   provider already parsed has no text left, so only a number that became Infinity is caught;
 * - anything that does not end up as a plain object gives `parsed: undefined` and an `error`
 *   ("arguments were not valid JSON: …"), and `canonical` keeps the raw text.
 */
export function readToolArguments(raw: unknown): ReadArguments {
  if (isPlainObject(raw)) {
    const lost = nonFiniteNumber(raw, '');
    if (lost) return refusedNumber(JSON.stringify(raw), lost);
    return { canonical: JSON.stringify(raw), parsed: raw };
  }
  if (raw === null || raw === undefined || noArguments(raw)) return { canonical: '{}', parsed: {} };
  if (typeof raw !== 'string') {
    return {
      canonical: JSON.stringify(raw),
      parsed: undefined,
      error: `arguments must be a JSON object, got ${Array.isArray(raw) ? 'an array' : typeof raw}`,
    };
  }
  if (raw.trim() === '') return { canonical: '{}', parsed: {} };
  const fenced = unfenced(raw);
  if (fenced !== undefined) {
    const inner = readToolArguments(fenced);
    return inner.parsed === undefined ? { ...inner, canonical: raw } : inner;
  }
  const { first, source } = readRewritten(raw);
  if (!first)
    return { canonical: raw, parsed: undefined, error: `arguments were not valid JSON: ${snippet(raw)}` };
  // a model's quote tokens left around a string value are no part of it (quote-tokens.ts)
  let value = raw.includes('<|') ? withoutQuoteTokens(first.value) : first.value;
  // the text the numbers are read from: the object's own text, decoded once when double-encoded
  let text = source.slice(0, source.length - first.rest.length);
  if (typeof value === 'string') {
    const inner = readFirstJsonValue(value);
    if (inner && isPlainObject(inner.value) && inner.rest.trim() === '') {
      text = value;
      value = inner.value;
    }
  }
  // a tool without parameters called with its nothing spelled as null or an empty list
  if (noArguments(value) && first.rest.trim() === '') return { canonical: '{}', parsed: {} };
  if (!isPlainObject(value)) {
    return {
      canonical: raw,
      parsed: undefined,
      error: `arguments must be a JSON object, got: ${snippet(raw)}`,
    };
  }
  // a number JavaScript cannot keep as written (1e999, 1e-400, past 2^53) would be stored changed
  const numbers = jsonNumberProblem(text);
  if (numbers) return refusedNumber(raw, numbers);
  const trailing = first.rest.trim();
  return {
    canonical: JSON.stringify(value),
    parsed: value,
    ...(trailing !== '' ? { droppedTrailing: trailing } : {}),
  };
}

/**
 * The first JSON value of `raw`, and the text it was read from: as sent, or, when that holds
 * none, rewritten from Python's literal syntax or from the inside of a JSON string whose quotes
 * were taken off (unquoted-json-string.ts), or with a model's quote tokens as the quotes they
 * stand for (quote-tokens.ts).
 */
function readRewritten(raw: string): {
  first: ReturnType<typeof readFirstJsonValue>;
  source: string;
} {
  const first = readFirstJsonValue(raw);
  if (first) return { first, source: raw };
  for (const rewrite of [pythonLiteralAsJson, unquotedJsonString, quoteTokensAsJson]) {
    const source = rewrite(raw);
    const read = source === undefined ? undefined : readFirstJsonValue(source);
    if (source !== undefined && read) return { first: read, source };
  }
  return { first: undefined, source: raw };
}

function refusedNumber(canonical: string, problem: JsonShapeProblem): ReadArguments {
  return {
    canonical,
    parsed: undefined,
    error: `arguments: ${problem.path} ${problem.message}`,
    numberProblem: problem,
  };
}

/** The path of the first number in an already parsed value that is not finite (1e999 became Infinity), or null. */
function nonFiniteNumber(value: unknown, path: string): JsonShapeProblem | null {
  if (typeof value === 'number') {
    return Number.isFinite(value)
      ? null
      : { path: path || '(value)', message: 'is too large to store as a number (it would become null)' };
  }
  if (value === null || typeof value !== 'object') return null;
  const entries = Array.isArray(value)
    ? value.map((v, i) => [`${path}[${i}]`, v] as const)
    : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v] as const);
  for (const [p, v] of entries) {
    const found = nonFiniteNumber(v, p);
    if (found) return found;
  }
  return null;
}
