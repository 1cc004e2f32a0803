/**
 * Where the keyboard's focus is, as a keyboard or screen-reader user would hear it: the focused
 * element's accessible name (its aria-label, else its text), or 'body' when the focus fell to the
 * page. The focus tests compare these names before and after an action.
 */
import type { WatchedPage } from './browser.js';

/** The focused element's accessible name, trimmed, or 'body'. */
export function focusedName(w: WatchedPage): Promise<string> {
  return w.page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return !el || el === document.body
      ? 'body'
      : (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
  });
}

/** The focused element's accessible name and the id of the card it is in (null outside a card). */
export function focusedInCard(w: WatchedPage): Promise<{ card: string | null; name: string }> {
  return w.page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { card: null, name: 'body' };
    const card = el.closest('[data-card-id]')?.getAttribute('data-card-id') ?? null;
    return { card, name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() };
  });
}
