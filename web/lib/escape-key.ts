/**
 * Whether a key press is the Escape that should close a form, dialog or panel. A person typing
 * Japanese, Chinese or Korean presses Escape to cancel the word the input method is still
 * composing; the browser passes that key press to the page too (isComposing set; Safari ends the
 * composition first and marks it with the input method's key code 229 instead). Taken as
 * "close", it threw away the form and everything typed in it.
 */
export function closesOnEscape(e: KeyboardEvent): boolean {
  return e.key === 'Escape' && !e.isComposing && e.keyCode !== 229;
}
