/**
 * Readers of single values written by hand in a manifest: each gives the value it plainly means,
 * or the value unchanged when it has no single reading (the manifest rules then judge it).
 */

/** `true`/`false`, and the words `"true"`/`"false"` in any case; else the value as it is. */
export function asBoolean(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : v;
}

/** A whole number, also written as text (`"10"`, `" -100 "`); else the value as it is. */
export function asWholeNumber(v: unknown): unknown {
  if (typeof v !== 'string' || !/^\s*[+-]?\d{1,15}\s*$/.test(v)) return v;
  return Number(v.trim());
}

/**
 * A number, also written as text with a point for its decimals (`"0.1"`, `" 250 "`, `"-1.5"`);
 * else the value as it is. A comma is not read: `"1,5"` may be one and a half or fifteen.
 */
export function asNumber(v: unknown): unknown {
  if (typeof v !== 'string' || !/^\s*[+-]?(?:\d{1,15}(?:\.\d{1,15})?|\.\d{1,15})\s*$/.test(v)) return v;
  return Number(v.trim());
}

/** A keyword in lower case, without the spaces around it; else the value as it is. */
export function asKeyword(v: unknown): unknown {
  return typeof v === 'string' ? v.trim().toLowerCase() : v;
}

/** Sets `obj[key]` to `read(obj[key])` when the key is there. */
export function reread(obj: Record<string, unknown>, key: string, read: (v: unknown) => unknown): void {
  if (Object.hasOwn(obj, key)) obj[key] = read(obj[key]);
}
