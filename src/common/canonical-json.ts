/**
 * JSON text with object keys sorted at every level, so two values that are equal as data give
 * the same text whatever order their keys came in (models do not keep key order stable).
 */

/** Canonical JSON of a JSON value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

/** True when two JSON values are equal as data (key order ignored, array order kept). */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
