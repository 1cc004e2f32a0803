/**
 * Shared vocabulary of the manifest validators: a path made of segments, an `Issue` (one failed
 * rule, plus what lenient loading would remove), and small type guards. No rule lives here.
 */

import { showsSomething } from '../common/control-characters.js';
import { truncateGraphemes } from '../common/graphemes.js';
import type { FieldError } from '../errors.js';

/** One step of a path into a manifest: an object key or an array index. */
export type Segment = string | number;

/**
 * One failed rule. `path` is where the rule failed; `drops` lists the smallest enclosing fields
 * that lenient loading removes for it (usually one; absent or empty: report only).
 */
export interface Issue {
  path: Segment[];
  message: string;
  drops?: Segment[][];
}

/** `['meta', 'notifications', 'items', 2, 'title']` → `meta.notifications.items[2].title`; `[]` → `''`. */
export function formatPath(segments: readonly Segment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out === '' ? s : `.${s}`;
  }
  return out;
}

/** Issues → the `{path, message}` shape of the HTTP error body and the validate_manifest tool. */
export function toFieldErrors(issues: readonly Issue[]): FieldError[] {
  return issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
}

/** A JSON object: not null, not an array. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string with at least one non-whitespace character. */
export function isNonEmptyString(v: unknown): v is string {
  // at least one character that shows (letters, digits, symbols or punctuation), so a zero-width
  // joiner, a variation selector or a Hangul filler alone is empty
  return typeof v === 'string' && showsSomething(v);
}

/** Length in Unicode code points, the count a person sees (an emoji counts as one). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** False when the string holds a lone UTF-16 surrogate (it cannot be encoded as UTF-8). */
export function isWellFormedText(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** Short JSON rendering of a bad value for an error message (cut at 40 characters). */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return truncateGraphemes(s, 40);
}
