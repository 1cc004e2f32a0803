/**
 * Remembers which cards already asked today (saved or dismissed): localStorage keys
 * `klebb-prompt-shown-{cardId}-{YYYY-MM-DD}` (docs/MANIFEST-SCHEMA.md "prompt"), so a reload or a
 * second tab does not ask again that day. Where storage is refused (a private window), the marks
 * last for this page only. `shownVersion` changes on every mark, for the prompt to re-check.
 */
import { signal } from '@preact/signals';
import { shownKey, staleShownKeys } from './prompt-rules.js';

/** How a prompt ended: saved (or ticked), or dismissed. Both count as asked. */
export type ShownHow = 'saved' | 'dismissed';

/** Bumped after each mark. */
export const shownVersion = signal(0);

/** Marks kept in memory when localStorage cannot be used. */
const memory = new Set<string>();

/** True when card `cardId` already asked on `day`. */
export function wasShown(cardId: string, day: string): boolean {
  const key = shownKey(cardId, day);
  if (memory.has(key)) return true;
  try {
    return localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

/** Records that card `cardId` asked on `day` (and tidies marks older than two weeks). */
export function markShown(cardId: string, day: string, how: ShownHow): void {
  const key = shownKey(cardId, day);
  try {
    localStorage.setItem(key, how);
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k !== null) keys.push(k);
    }
    for (const k of staleShownKeys(keys, day)) localStorage.removeItem(k);
  } catch {
    memory.add(key);
  }
  shownVersion.value++;
}
