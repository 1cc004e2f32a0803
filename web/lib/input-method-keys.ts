/**
 * Key presses that belong to an input method. A person typing Japanese, Chinese or Korean
 * presses Escape to cancel the word the input method is still composing and Enter to take it,
 * and the browser passes those key presses to the page too: with isComposing set (Chrome, and
 * Safari on a Mac), or, when Safari ended the composition first, marked with the input method's
 * key code 229. Taken as the page's own keys, Escape threw away a form and everything typed in
 * it, and Enter sent half a chat message.
 */

/** True for a key press an input method is using (see above). */
export function forInputMethod(e: KeyboardEvent): boolean {
  return e.isComposing || e.keyCode === 229;
}

/** Whether a key press is the Escape that should close a form, dialog or panel. */
export function closesOnEscape(e: KeyboardEvent): boolean {
  return e.key === 'Escape' && !forInputMethod(e);
}
