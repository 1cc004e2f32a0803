/**
 * `meta.category`. A closed list of categories would drop anything else at load, but the shipped examples carry "health" and "example" and every field of
 * them must survive. Decision: accept any lowercase slug (`[a-z0-9-]`, 1..32 characters) and keep
 * the usual categories as `KNOWN_CATEGORIES` for features that need it (combination suggestions,
 * HAE auto-fill).
 */
import { MAX_CATEGORY_CHARS } from '../limits.js';
import { describeValue, type Issue, type Segment } from './field-issues.js';

/** The categories docs/MANIFEST-SCHEMA.md lists, in its order. */
export const KNOWN_CATEGORIES = [
  'sleep',
  'recovery',
  'activity',
  'vitals',
  'body',
  'mindfulness',
  'lifestyle',
  'supplements',
  'medication',
] as const;

/** One of `KNOWN_CATEGORIES`. */
export type KnownCategory = (typeof KNOWN_CATEGORIES)[number];

/** True when `c` is one of the docs/MANIFEST-SCHEMA.md categories (not the wider accepted set). */
export function isKnownCategory(c: unknown): c is KnownCategory {
  return typeof c === 'string' && (KNOWN_CATEGORIES as readonly string[]).includes(c);
}

const CATEGORY_PATTERN = /^[a-z0-9-]+$/;

/** Strict check of `meta.category` when present: a `[a-z0-9-]` slug of 1..32 characters. */
export function checkCategory(value: unknown, at: Segment[]): Issue[] {
  if (value === undefined) return [];
  if (typeof value === 'string' && value.length <= MAX_CATEGORY_CHARS && CATEGORY_PATTERN.test(value)) {
    return [];
  }
  return [
    {
      path: at,
      drops: [at],
      message:
        `meta.category must be a slug of 1-${MAX_CATEGORY_CHARS} characters from [a-z0-9-] ` +
        `(e.g. ${KNOWN_CATEGORIES.slice(0, 3).join(', ')}), got ${describeValue(value)}`,
    },
  ];
}
