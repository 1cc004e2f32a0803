/**
 * Where the keyboard's focus goes when a card's entry form closes. The form takes the place of
 * the button that opened it, so when it went (saved, cancelled, Escape, deleted) the focus fell
 * to the page itself and a keyboard or screen-reader user started again at the top of the page.
 *
 * A button that opens a form carries `data-return-focus` with a name for its place in the card
 * ("main" for the card's own Add/Edit entry, "edit-3" for one entry's Edit). When the form
 * closes with the focus inside it, the focus goes back to that button if it is still there, else
 * to the button of the same name that took its place (Add entry became Edit entry after a save),
 * else to the card's "main" button, else to the card itself, so it never leaves the card.
 */

/** The attribute naming a form opener's place in its card. */
export const RETURN_FOCUS_ATTR = 'data-return-focus';

/** What a form remembers of its opener, read while the opener still has the focus. */
export interface Opener {
  element: HTMLElement | null;
  name: string | null;
}

/** How long a pressed opener stays the one a form opening takes as its own, ms. */
const OPENER_FRESH_MS = 5_000;

/**
 * The opener pressed last. Read at the press, because by the time the form renders, the render
 * may already have taken the button out of the page (a list hides its rows' buttons while a form
 * is open), and the focus with it.
 */
let pressed: (Opener & { at: number }) | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener(
    'click',
    (e) => {
      const el = e.target instanceof Element ? e.target.closest<HTMLElement>(`[${RETURN_FOCUS_ATTR}]`) : null;
      if (el) pressed = { element: el, name: el.getAttribute(RETURN_FOCUS_ATTR), at: Date.now() };
    },
    true,
  );
}

/** The opener of a form opening now: the opener just pressed, else the element with the focus. */
export function openerNow(): Opener {
  const last = pressed;
  pressed = null;
  if (last && Date.now() - last.at < OPENER_FRESH_MS) return { element: last.element, name: last.name };
  const el = typeof document === 'undefined' ? null : document.activeElement;
  if (!(el instanceof HTMLElement) || el === document.body) return { element: null, name: null };
  return { element: el, name: el.getAttribute(RETURN_FOCUS_ATTR) };
}

/** Whether the focus is nowhere in particular (the page itself, or an element no longer shown). */
function focusLost(): boolean {
  const at = document.activeElement;
  return at === null || at === document.body || !at.isConnected;
}

/** A button that can take the focus now. */
function usable(el: Element | null): el is HTMLElement {
  return el instanceof HTMLElement && el.isConnected && !(el as HTMLButtonElement).disabled;
}

/** The element of `card` that should have the focus after its form closed. */
function target(card: HTMLElement, opener: Opener): HTMLElement {
  if (usable(opener.element) && card.contains(opener.element)) return opener.element;
  const named = (name: string) =>
    [...card.querySelectorAll(`[${RETURN_FOCUS_ATTR}]`)].find(
      (el) => el.getAttribute(RETURN_FOCUS_ATTR) === name && usable(el),
    );
  const found = (opener.name !== null ? named(opener.name) : undefined) ?? named('main');
  if (usable(found ?? null)) return found as HTMLElement;
  // nothing to press: the card itself, so the next Tab continues from it
  if (!card.hasAttribute('tabindex')) card.setAttribute('tabindex', '-1');
  return card;
}

/**
 * Follows whether the focus is in `form`: it is until it moves to another element outside. The
 * focus a form drops itself (its Save button disabled while saving, its Delete… replaced by the
 * confirmation) lands nowhere and still counts as the form's. Returns the stop function.
 */
export function followFocus(form: HTMLElement): { inside(): boolean; stop(): void } {
  let inside = form.contains(document.activeElement);
  const onIn = () => {
    inside = true;
  };
  const onOut = (e: FocusEvent) => {
    const next = e.relatedTarget;
    if (next instanceof Node && !form.contains(next)) inside = false;
  };
  form.addEventListener('focusin', onIn);
  form.addEventListener('focusout', onOut);
  return {
    inside: () => inside || form.contains(document.activeElement),
    stop: () => {
      form.removeEventListener('focusin', onIn);
      form.removeEventListener('focusout', onOut);
    },
  };
}

/**
 * Called as a form closes (its element still in the page) whose focus was inside it: the focus is
 * moved once the card has re-rendered (a microtask later), unless something else took it
 * meanwhile (a dialog giving it back to its own opener).
 */
export function returnFocusFrom(form: HTMLElement, opener: Opener): void {
  const card = form.closest<HTMLElement>('[data-card-id]');
  if (!card) return;
  queueMicrotask(() => {
    if (!focusLost() || !card.isConnected) return;
    target(card, opener).focus({ preventScroll: true });
  });
}
