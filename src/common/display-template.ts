/**
 * The display-template mini-language of `meta.view.display` (docs/MANIFEST-SCHEMA.md,
 * "Display-template mini-language"; docs/MANIFEST-SCHEMA.md, "display and the template language").
 * One implementation for the browser (card headlines, secondary lines, calendar template markers)
 * and the server (the agent validates templates with `validateTemplate`). No Node imports.
 *
 * Grammar (text outside braces is copied as is):
 *
 *   placeholder := '{' key ( '?' yes ( ':' no )?              ternary on truthiness
 *                          | ( ':' modifier )* ( '|' fallback )?
 *                          ) '}'
 *   key         := any text up to the first ':', '|' or '?' (trimmed); dots walk into objects
 *   modifier    := name ( '(' argument ')' )?                 round(N) emoji truncate(N) check
 *   fallback    := any text up to the '}' (may hold spaces, digits, '(', ')', '?', ':')
 *   yes, no     := any text; the first ':' after '?' separates them (emoji and spaces allowed)
 *
 * Braces: a placeholder runs from '{' to the next '}'. A '{' with no '}' after it, or with another
 * '{' before its '}', is literal text (so "{{kg}}" shows "{" + kg + "}"), and so is a '}' outside
 * a placeholder and a placeholder with an empty key ("{}", "{|x}"). There is no escape character.
 */

import { truncateGraphemes } from './graphemes.js';
import { formatFixed, MAX_DECIMALS, numberText, toFiniteNumber } from './numbers.js';

/** `display.emojiMap`: keyed by field `{mood: {"1": "😩"}}` or flat `{"1": "😩"}`. */
export type EmojiMap = Record<string, unknown>;

/** Options of `renderTemplate`. */
export interface RenderOptions {
  /** `display.emojiMap` (or a combination source's / calendar marker's), for `:emoji`. */
  emojiMap?: EmojiMap | null;
  /**
   * The field whose entry of a keyed emojiMap `:emoji` uses, when it is not the placeholder's own
   * key (e.g. a combination-card accessor). Default: the key, then its last dotted segment.
   */
  fieldName?: string;
  /**
   * How numbers are written (a person's locale: web/lib/format.ts): `decimals` for `round(N)`,
   * undefined for a plain `{key}`. Default: plain text without float artefacts (`numberText`,
   * `formatFixed`), as the server and agents read it.
   */
  formatNumber?: (n: number, decimals?: number) => string;
  /**
   * What `round(N)` writes for a value that is not a number (a row written over the API with
   * "heavy" in a number field), e.g. "not a number"; default: the value as written.
   */
  notANumber?: string;
}

/** A modifier as written in a placeholder, e.g. `round(1)` → `{name: 'round', arg: '1'}`. */
export interface TemplateModifier {
  name: string;
  arg?: string;
}

/** One parsed piece of a template. */
export type TemplatePart =
  | { kind: 'text'; text: string }
  | {
      kind: 'field';
      key: string;
      modifiers: TemplateModifier[];
      fallback?: string;
      ternary?: { yes: string; no: string };
      /** Offset of the '{' in the template. */
      index: number;
    };

/** What `validateTemplate` can report. */
export type TemplateProblemCode =
  | 'not-a-string'
  | 'unclosed-brace'
  | 'unmatched-close-brace'
  | 'empty-key'
  | 'unknown-modifier'
  | 'malformed-modifier'
  | 'bad-argument';

/** One problem in a template: a code, a sentence an agent or person can act on, and the offset. */
export interface TemplateProblem {
  code: TemplateProblemCode;
  message: string;
  /** 0-based offset in the template (UTF-16 units) where the problem starts. */
  index: number;
}

/** Modifiers the language knows; any other name is ignored when rendering. */
export const TEMPLATE_MODIFIERS = ['round', 'emoji', 'truncate', 'check'] as const;

/** What `{key:check}` shows for a truthy value. */
export const CHECK_MARK = '✅';

/** Largest `truncate(N)` accepted. */
export const MAX_TRUNCATE = 10_000;

interface Parsed {
  parts: TemplatePart[];
  problems: TemplateProblem[];
}

const MODIFIER_RE = /^\s*([A-Za-z_][\w-]*)\s*(?:\(([^()]*)\))?\s*$/;

function parseModifier(text: string, index: number, problems: TemplateProblem[]): TemplateModifier | null {
  const m = MODIFIER_RE.exec(text);
  if (!m) {
    problems.push({
      code: 'malformed-modifier',
      message: `modifier "${text}" is not name or name(N)`,
      index,
    });
    return null;
  }
  const name = m[1];
  const arg = m[2]?.trim();
  const known = (TEMPLATE_MODIFIERS as readonly string[]).includes(name);
  if (!known) {
    problems.push({
      code: 'unknown-modifier',
      message: `unknown modifier "${name}" (it is ignored); known: ${TEMPLATE_MODIFIERS.join(', ')}`,
      index,
    });
    return null;
  }
  if (name === 'round' || name === 'truncate') {
    const [lo, hi] = name === 'round' ? [0, MAX_DECIMALS] : [1, MAX_TRUNCATE];
    if (arg === undefined || !/^\d+$/.test(arg) || Number(arg) < lo || Number(arg) > hi) {
      problems.push({
        code: 'bad-argument',
        message: `${name}(N) needs a whole number N from ${lo} to ${hi}, got ${arg === undefined ? 'none' : `"${arg}"`} (the modifier is ignored)`,
        index,
      });
      return null;
    }
    return { name, arg };
  }
  if (arg !== undefined) {
    problems.push({ code: 'bad-argument', message: `${name} takes no argument, got "${arg}"`, index });
  }
  return { name };
}

/** Parses the text between the braces of a placeholder; null when the key is empty. */
function parsePlaceholder(inner: string, index: number, problems: TemplateProblem[]): TemplatePart | null {
  const stop = inner.search(/[:|?]/);
  const key = (stop < 0 ? inner : inner.slice(0, stop)).trim();
  if (key === '') {
    problems.push({
      code: 'empty-key',
      message: `placeholder "{${inner}}" names no field (shown as text)`,
      index,
    });
    return null;
  }
  if (stop < 0) return { kind: 'field', key, modifiers: [], index };
  const delim = inner[stop];
  const rest = inner.slice(stop + 1);
  if (delim === '?') {
    const colon = rest.indexOf(':');
    const ternary =
      colon < 0 ? { yes: rest, no: '' } : { yes: rest.slice(0, colon), no: rest.slice(colon + 1) };
    return { kind: 'field', key, modifiers: [], ternary, index };
  }
  if (delim === '|') return { kind: 'field', key, modifiers: [], fallback: rest, index };
  const pipe = rest.indexOf('|');
  const modText = pipe < 0 ? rest : rest.slice(0, pipe);
  const modifiers: TemplateModifier[] = [];
  let offset = index + 1 + stop + 1;
  for (const piece of modText.split(':')) {
    const mod = parseModifier(piece, offset, problems);
    if (mod) modifiers.push(mod);
    offset += piece.length + 1;
  }
  return pipe < 0
    ? { kind: 'field', key, modifiers, index }
    : { kind: 'field', key, modifiers, fallback: rest.slice(pipe + 1), index };
}

function parse(template: string): Parsed {
  const parts: TemplatePart[] = [];
  const problems: TemplateProblem[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i];
    if (c === '}') {
      problems.push({
        code: 'unmatched-close-brace',
        message: `"}" at ${i} closes no placeholder (shown as text)`,
        index: i,
      });
      text += c;
      i++;
      continue;
    }
    if (c !== '{') {
      let j = i + 1;
      while (j < template.length && template[j] !== '{' && template[j] !== '}') j++;
      text += template.slice(i, j);
      i = j;
      continue;
    }
    const close = template.indexOf('}', i + 1);
    const nextOpen = template.indexOf('{', i + 1);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
      problems.push({
        code: 'unclosed-brace',
        message: `"{" at ${i} has no matching "}" (shown as text)`,
        index: i,
      });
      text += '{';
      i++;
      continue;
    }
    const inner = template.slice(i + 1, close);
    const part = parsePlaceholder(inner, i, problems);
    if (part) {
      if (text) parts.push({ kind: 'text', text });
      text = '';
      parts.push(part);
    } else {
      text += `{${inner}}`;
    }
    i = close + 1;
  }
  if (text) parts.push({ kind: 'text', text });
  return { parts, problems };
}

const CACHE_LIMIT = 512;
const cache = new Map<string, Parsed>();

function parsed(template: string): Parsed {
  let p = cache.get(template);
  if (!p) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    p = parse(template);
    cache.set(template, p);
  }
  return p;
}

/**
 * The parts of `template` (text runs and placeholders), for renderers that need the structure
 * (e.g. the sparkline's "first template token"). A non-string gives [].
 */
export function parseTemplate(template: unknown): TemplatePart[] {
  return typeof template === 'string' ? parsed(template).parts : [];
}

const hasOwn = (o: object, k: string): boolean => Object.hasOwn(o, k);

/**
 * The prefix older metric-cards put before a field (`latest.systolic`): they read every path from
 * `{latest: row}`, so hand-written and older manifests name the shown row's fields that way in
 * templates, thresholds and arrows as well as in `display.primary`.
 */
const LATEST_PREFIX = 'latest.';

/**
 * The value at `path` in `row`: the row's own key `path` if it has one (so a key containing a
 * dot still works), else the dotted path walked through objects and arrays (`a.b.c`,
 * `items.0.name`). A path starting `latest.` on a row without a `latest` field reads the rest
 * of the path in the row itself, as the older metric-card did (`{latest.kg}` is the row's `kg`).
 * Only own properties are read (`constructor`, `__proto__` give undefined).
 * Missing anywhere, or `row` not an object: undefined. docs/MANIFEST-SCHEMA.md: "`{a.b.c}` dotted-path
 * access"; also exported there as `getValue`.
 */
export function getValue(row: unknown, path: string): unknown {
  if (row === null || typeof row !== 'object' || typeof path !== 'string') return undefined;
  if (hasOwn(row, path)) return (row as Record<string, unknown>)[path];
  if (path.startsWith(LATEST_PREFIX) && !hasOwn(row, 'latest')) {
    return getValue(row, path.slice(LATEST_PREFIX.length));
  }
  let cur: unknown = row;
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !hasOwn(cur, seg)) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/**
 * True when a value counts as missing or empty for `|fallback` and for "unresolved keys render as
 * empty": undefined, null, a string of only spaces, a non-finite number and an empty
 * array. `false` and `0` are values, not missing.
 */
export function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (typeof v === 'number') return !Number.isFinite(v);
  if (Array.isArray(v)) return v.length === 0;
  return false;
}

const FALSY_TEXT = new Set(['false', '0', 'no', 'off']);

/**
 * Truthiness for `?yes:no` and `:check`: JavaScript truthiness, except that a string of only
 * spaces and the words "false", "0", "no", "off" (any case; what a select or a hand-edited file
 * leaves for a yes/no field) are false, NaN/±Infinity are false and an empty array is false.
 */
export function isTruthy(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) && v !== 0;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    return t !== '' && !FALSY_TEXT.has(t);
  }
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/**
 * A value as template text: strings as is, numbers without float artefacts ('' when
 * non-finite), booleans as "true"/"false", arrays as their items joined with ", ", other
 * objects as JSON, anything else ''.
 */
export function valueText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v))
    return v
      .map(valueText)
      .filter((s) => s !== '')
      .join(', ');
  if (v !== null && typeof v === 'object') {
    try {
      return JSON.stringify(v);
    } catch {
      return '';
    }
  }
  return '';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The emoji `emojiMap` gives for a value, or undefined. A keyed map (`{field: {value: emoji}}`) is
 * tried under `fieldName`, then the full key, then the key's last dotted segment; then the map is
 * read flat (`{value: emoji}`). Values are compared as text (`4` and `"4"` both find `"4"`), then as
 * numbers (`"4.0"` finds `"4"`).
 * docs/MANIFEST-SCHEMA.md `display.emojiMap`.
 */
export function lookupEmoji(
  emojiMap: EmojiMap | null | undefined,
  key: string,
  value: unknown,
  fieldName?: string,
): string | undefined {
  if (!isPlainObject(emojiMap)) return undefined;
  const text = valueText(value);
  const fields = [fieldName, key, key.includes('.') ? key.slice(key.lastIndexOf('.') + 1) : undefined];
  for (const f of fields) {
    if (f === undefined || !hasOwn(emojiMap, f)) continue;
    const sub = emojiMap[f];
    if (isPlainObject(sub)) {
      const found = entryFor(sub, text);
      if (found !== undefined) return found;
    }
  }
  return entryFor(emojiMap, text);
}

/**
 * The emoji of `map` for a value written `text`: its entry by that text, else the entry whose key
 * is the same number (`"4.0"` and `4` find `"4"`, `4` finds `"4.0"`).
 */
function entryFor(map: Record<string, unknown>, text: string): string | undefined {
  if (hasOwn(map, text)) return typeof map[text] === 'string' ? (map[text] as string) : undefined;
  const n = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(n)) return undefined;
  for (const [k, v] of Object.entries(map)) {
    if (typeof v === 'string' && k.trim() !== '' && Number(k) === n) return v;
  }
  return undefined;
}

function applyModifier(mod: TemplateModifier, value: unknown, key: string, opts: RenderOptions): unknown {
  switch (mod.name) {
    case 'round': {
      const n = toFiniteNumber(value);
      if (n === null) return opts.notANumber ?? value;
      return opts.formatNumber ? opts.formatNumber(n, Number(mod.arg)) : formatFixed(n, Number(mod.arg));
    }
    case 'emoji':
      return lookupEmoji(opts.emojiMap, key, value, opts.fieldName) ?? value;
    case 'truncate':
      return truncateGraphemes(valueText(value), Number(mod.arg));
    case 'check':
      return isTruthy(value) ? CHECK_MARK : '';
    default:
      return value;
  }
}

function renderField(
  part: Extract<TemplatePart, { kind: 'field' }>,
  row: unknown,
  opts: RenderOptions,
): string {
  const raw = getValue(row, part.key);
  if (part.ternary) return isTruthy(raw) ? part.ternary.yes : part.ternary.no;
  let out = '';
  if (!isEmptyValue(raw)) {
    let v: unknown = raw;
    for (const mod of part.modifiers) v = applyModifier(mod, v, part.key, opts);
    out = typeof v === 'number' && opts.formatNumber ? opts.formatNumber(v) : valueText(v);
  }
  return out === '' ? (part.fallback ?? '') : out;
}

/**
 * Fills `template` from `row` (docs/MANIFEST-SCHEMA.md "Display-template mini-language"):
 * - `{key}`, `{a.b.c}`: the value as text (`valueText`: numbers without float artefacts);
 * - `{key:round(N)}`: the number with N decimals (`formatFixed`: like toFixed, halves away from
 *   zero, no artefacts, no "-0.0"); a non-numeric value is shown as is;
 * - `{key:emoji}`: the value's emoji from `opts.emojiMap` (keyed or flat), else the raw value;
 * - `{key:truncate(N)}`: N user-perceived characters then `…`, never splitting an emoji;
 * - `{key:check}`: `✅` when truthy (`isTruthy`), else the fallback or '';
 * - `{key|fallback}`: the fallback when the value is missing or empty (`isEmptyValue`) or a
 *   modifier leaves nothing; `{key|}` is blank; combines with modifiers (`{note:truncate(80)|(none)}`);
 * - `{key?yes:no}`: `yes` when the value is truthy, else `no` (text taken verbatim);
 * - modifiers chain left to right (`{x:round(0):emoji}`); an unknown one, or one with a bad
 *   argument, is ignored; an unresolved key renders as ''.
 * `row` undefined (no entry) renders every placeholder as its fallback, ternary `no` or ''.
 * A non-string template gives ''.
 */
export function renderTemplate(
  template: string,
  row: Record<string, unknown> | undefined,
  opts: RenderOptions = {},
): string {
  if (typeof template !== 'string') return '';
  let out = '';
  for (const part of parsed(template).parts) {
    out += part.kind === 'text' ? part.text : renderField(part, row, opts);
  }
  return out;
}

/**
 * The field paths `template` reads, each once, in order of first use (`"{systolic}/{diastolic}"` →
 * `["systolic", "diastolic"]`). Placeholders shown as text (empty key, unclosed) are not fields.
 * For the agent's check that a template names declared inputs, and for the sparkline's default
 * field ("first template token"). A non-string gives [].
 */
export function templateFields(template: unknown): string[] {
  const seen = new Set<string>();
  for (const part of parseTemplate(template)) if (part.kind === 'field') seen.add(part.key);
  return [...seen];
}

/**
 * What is wrong with `template`, in order of position; [] when it is clean. Reports a '{' with no
 * '}' (or another '{' first), a '}' outside a placeholder, an empty key, a modifier that is
 * unknown or not `name` / `name(N)`, and a `round`/`truncate` argument that is not a whole number
 * in range (round 0..20, truncate 1..10000) or an argument given to `emoji`/`check`. The renderer
 * accepts every template (problems render as text or are ignored, as docs/MANIFEST-SCHEMA.md says for unknown
 * modifiers); this is for the agent and for manifest checks, which run the same parser.
 */
export function validateTemplate(template: unknown): TemplateProblem[] {
  if (typeof template !== 'string') {
    return [
      { code: 'not-a-string', message: `a template must be a string, got ${typeof template}`, index: 0 },
    ];
  }
  return [...parsed(template).problems].sort((a, b) => a.index - b.index);
}
