/**
 * Sample sources as sets of devices/apps (docs/HEALTH-AUTO-EXPORT.md `source`; pitfalls "Multiple
 * sources / aggregation"). When several devices contributed to one aggregated point HAE joins their
 * names with `|` in arbitrary order (`AutoSleep|iPhone|User’s Apple Watch`), sometimes repeating
 * one (`User’s Apple Watch|User’s Apple Watch` in the hevy-metal file). Names contain U+2019 and,
 * in some exports, U+00A0 inside "Apple Watch"; both spellings must compare equal.
 */

/** A set of source names, sorted and without repeats; null when the sample had no source. */
export type SourceSet = readonly string[] | null;

/** `"b|a|a"` → `['a', 'b']`; null / '' / missing → null (unknown source). */
export function sourceSet(source: string | null | undefined): SourceSet {
  if (typeof source !== 'string') return null;
  // every point of a device repeats its source text: each text is split and normalised once
  const known = SETS.get(source);
  if (known !== undefined) return known;
  const set = parseSet(source);
  if (SETS.size >= SETS_MAX) SETS.clear();
  SETS.set(source, set);
  return set;
}

const SETS = new Map<string, SourceSet>();
/** Source texts remembered (cleared when full, so memory stays bounded). */
const SETS_MAX = 1000;

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
