/** Telling an `error` field that says something from one that is only a placeholder. */

/**
 * True when an `error` field holds nothing: null, false, 0, blank text, or an object or list whose
 * every value is such. Relays written in Go serialise their zero-valued error struct beside every
 * successful reply and chunk (`"error": {"message": "", "type": "", "param": "", "code": null}`,
 * or `"error": {}`); read as an error, a good answer failed as "provider error: unknown".
 */
export function blankError(v: unknown, depth = 0): boolean {
  if (v === undefined || v === null || v === false || v === 0) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (typeof v !== 'object' || depth >= 4) return false;
  return Object.values(v).every((inner) => blankError(inner, depth + 1));
}
