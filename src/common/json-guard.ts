/**
 * Limits on the shape of JSON we accept from files and requests: nesting depth (deeper values
 * overflow recursive code and SQLite's JSON functions) and well-formed strings (a lone UTF-16
 * surrogate makes our own answers unreadable to strict JSON parsers). Checked iteratively, so
 * the check itself cannot overflow the stack.
 */
import { childPath } from './field-path.js';

/** Deepest nesting of arrays and objects accepted (a manifest or a row needs far fewer). */
export const MAX_JSON_DEPTH = 100;

/** What is wrong with a value, with a dotted path to the place. */
export interface JsonShapeProblem {
  path: string;
  message: string;
  /** Set when the problem is a `__proto__` or `constructor.prototype` key. */
  prototypeKey?: boolean;
}

/**
 * Names that reach an object's prototype in JavaScript (`row.__proto__`, `row.constructor`): a row
 * field or a path step must never be called so. A JSON body holding such a key is refused, so a
 * field of that name could be neither sent nor read back.
 */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** True for `__proto__`, `constructor` and `prototype`, names no field may take (see PROTOTYPE_NAMES). */
export function isPrototypeName(name: string): boolean {
  return PROTOTYPE_NAMES.has(name);
}

/**
 * A key that names an object prototype (`__proto__`, or `constructor` holding `prototype`),
 * which the JSON body parser refuses as prototype poisoning.
 */
function isPrototypeKey(key: string, child: unknown): boolean {
  if (key === '__proto__') return true;
  return (
    key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype')
  );
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/**
 * Walks a parsed JSON value; returns the first problem found (too deep, or a string or key
 * with a lone surrogate; with `refusePrototypeKeys`, a `__proto__` or `constructor.prototype`
 * key), or null when the value is acceptable. The path is built by
 * src/common/field-path.ts behind `prefix` (`body` for a request body).
 */
export function jsonShapeProblem(
  value: unknown,
  opts: { maxDepth?: number; prefix?: string; refusePrototypeKeys?: boolean } = {},
): JsonShapeProblem | null {
  const { maxDepth = MAX_JSON_DEPTH, prefix = '', refusePrototypeKeys = false } = opts;
  const stack: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 0, path: prefix }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop() as { v: unknown; depth: number; path: string };
    if (typeof v === 'string') {
      if (hasLoneSurrogate(v))
        return { path: path || '(value)', message: 'contains a lone UTF-16 surrogate (broken text)' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= maxDepth)
      return { path: path || '(value)', message: `is nested deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ v: v[i], depth: depth + 1, path: childPath(path, i) });
    } else {
      for (const [k, child] of Object.entries(v)) {
        if (hasLoneSurrogate(k))
          return { path: path || '(value)', message: 'has a key with a lone UTF-16 surrogate' };
        if (refusePrototypeKeys && isPrototypeKey(k, child)) {
          return {
            path: childPath(path, k),
            message: 'is refused: it names an object prototype, not a field',
            prototypeKey: true,
          };
        }
        stack.push({ v: child, depth: depth + 1, path: childPath(path, k) });
      }
    }
  }
  return null;
}
