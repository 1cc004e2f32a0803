/**
 * Sample sources as sets of devices/apps (docs/HEALTH-AUTO-EXPORT.md `source`; pitfalls "Multiple
 * sources / aggregation"). When several devices contributed to one aggregated point HAE joins their
 * names with `|` in arbitrary order (`AutoSleep|iPhone|User’s Apple Watch`), sometimes repeating
 * one (`User’s Apple Watch|User’s Apple Watch` in the hevy-metal file). Names contain U+2019 and,
 * in some exports, U+00A0 inside "Apple Watch"; both spellings must compare equal.
 */
import { textMemo } from '../../../common/text-memo.js';

/** A set of source names, sorted and without repeats; null when the sample had no source. */
export type SourceSet = readonly string[] | null;

/** `"b|a|a"` → `['a', 'b']`; null / '' / missing → null (unknown source). */
export function sourceSet(source: string | null | undefined): SourceSet {
  if (typeof source !== 'string') return null;
  return setOf(source);
}

// every point of a device repeats its source text: each text is split and normalised once
const setOf = textMemo(parseSet);

function parseSet(source: string): SourceSet {
  const names = source
    .split('|')
    .map((s) =>
      s
        .normalize('NFC')
        .replace(/[\u00a0\u202f]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((s) => s !== '');
  if (names.length === 0) return null;
  return [...new Set(names)].sort();
}

/**
 * The source of a point sent as a list of names (`["Watch", "AutoSleep"]`) or as an object naming
 * its device or app (`{"name": "Oura", "bundleIdentifier": "com.ouraring.oura"}`, HealthKit's
 * source), as one text like the app's own `|`-joined one: the names trimmed, each once, sorted, so
 * the same list in another order gives the same text (and the same sample key). An object gives
 * its `name`, else `sourceName`, else `bundleIdentifier`; a list may hold such objects. Null when
 * no name is found (`[]`, `{}`, numbers): the point is kept without a source. Not read for the
 * usual string source (sample.ts sourceOf tries a string first).
 */
export function sourceTextOf(v: object): string | null {
  const names: string[] = [];
  if (Array.isArray(v)) {
    // a list of at most a few devices; a longer one is still read, but only its first names
    for (let i = 0; i < v.length && i < MAX_LISTED_SOURCES; i++) {
      const item: unknown = v[i];
      const name =
        typeof item === 'string' ? item : item !== null && typeof item === 'object' ? objectName(item) : null;
      if (name !== null) names.push(name);
    }
  } else {
    const name = objectName(v);
    if (name !== null) names.push(name);
  }
  const kept = [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))].sort();
  return kept.length ? kept.join('|') : null;
}

/** Names read from one list (a source list longer than this is not a real one). */
const MAX_LISTED_SOURCES = 32;

/** An object's name for its source (sourceTextOf), or null. */
function objectName(o: object): string | null {
  const r = o as Record<string, unknown>;
  for (const key of ['name', 'sourceName', 'bundleIdentifier']) {
    const v = r[key];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return null;
}

/**
 * The text a sample's key is made from for `source` (sample.ts dedupKeyOf): a list of names joined
 * by `|`, which the app writes in no set order (`Watch|iPhone` in one push, `iPhone|Watch` in the
 * next), is keyed in one order, its names trimmed, each once and sorted, so the same reading sent
 * with its sources in another order is the same sample. A text already in that order (and any
 * single name) is keyed as it is, so keys stored before stay the keys of the same samples.
 */
export function sourceKeyText(source: string): string {
  return source.includes('|') ? keyTextOf(source) : source;
}

const keyTextOf = textMemo((source) => {
  const names = source.split('|').map((s) => s.trim());
  const ordered = [...new Set(names.filter((s) => s !== ''))].sort();
  return ordered.length === names.length && ordered.every((n, i) => n === names[i])
    ? source
    : ordered.join('|');
});

/** One text per set (for grouping); unknown sources share the key ''. */
export function sourceSetKey(set: SourceSet): string {
  return set === null ? '' : set.join('|');
}

/**
 * True when `a` is a strict subset of `b`: the point from `b` already combines `a`'s device with
 * others, so `a`'s point is the same data counted again. Unknown (null) sets are never subsets and
 * never supersets: nothing is known about what they contain.
 */
export function isStrictSubset(a: SourceSet, b: SourceSet): boolean {
  if (a === null || b === null || a.length >= b.length) return false;
  return a.every((name) => b.includes(name));
}

/** True when the two sets share a device (null shares nothing). */
export function overlaps(a: SourceSet, b: SourceSet): boolean {
  if (a === null || b === null) return false;
  return a.some((name) => b.includes(name));
}

/** The items whose source set is not a strict subset of another item's set. */
export function dropCoveredSources<T>(items: readonly T[], setOf: (item: T) => SourceSet): T[] {
  const sets = items.map(setOf);
  return items.filter((_, i) => !sets.some((other, j) => j !== i && isStrictSubset(sets[i], other)));
}
