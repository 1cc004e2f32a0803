/**
 * A memo for pure functions of a short text that payloads repeat on every point (a unit, a
 * source, a sleep stage): each distinct text is worked out once. The table is cleared when it
 * holds `max` texts, so a payload of ever-new texts cannot grow it without bound.
 */
export function textMemo<T>(fn: (text: string) => T, max = 1000): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    if (known.has(text)) return known.get(text) as T;
    const value = fn(text);
    if (known.size >= max) known.clear();
    known.set(text, value);
    return value;
  };
}
