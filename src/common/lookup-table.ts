/**
 * Lookup tables read with keys that come from outside (a metric or unit name in a push, a type in
 * an Apple Health export, a finish reason or tool name from a model). A plain object literal
 * answers `constructor`, `toString` or `__proto__` with Object's own members, so such a key found
 * a function or the prototype instead of nothing. These tables have no prototype: only the keys
 * written in them are found.
 */

/** A frozen copy of `entries` without a prototype (see the module comment). */
export function lookupTable<V>(
  entries: Readonly<Record<string, V>>,
): Readonly<Record<string, V | undefined>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, V>, entries));
}

/** An empty table without a prototype, for counts or entries keyed by outside names. */
export function emptyTable<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}
