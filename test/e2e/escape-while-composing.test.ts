/**
 * A person typing Japanese, Chinese or Korean presses Escape to cancel the word the input method
 * is still composing, and the browser hands that key press to the page as well: with isComposing
 * set (Chrome, and Safari on a Mac), or, when Safari ended the composition first, with the input
 * method's key code 229. An entry form took it for "close": the form and everything typed in it
 * were gone. Now only a plain Escape closes it. Real server, Debian's Chromium; the key presses
 * are the events the browser sends with an input method.
 */
import { describe, expect, it } from 'vitest';
import { cardOf, example, useDashboard } from './entry-support.js';

const d = useDashboard({ timezoneId: 'Asia/Tokyo', manifests: () => [example('notes')] });

/** Sends, to `el`, the keydown an input method's Escape makes, as the browser dispatches it. */
const imeEscape = (el: Element, init: KeyboardEventInit) =>
  el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true, ...init }));

describe('Escape in an entry form while an input method is composing', { timeout: 60_000 }, () => {
  it('keeps the form and what was typed; a plain Escape still closes it', async () => {
    const w = await d.open('/');
    const card = cardOf(w, 'notes');
    await card.getByRole('button', { name: 'Add entry' }).click();
    const form = card.locator('form.entry-form');
    const text = form.locator('textarea');
    await text.fill('今日は頭痛が');

    // cancelling a word being composed (Chrome; Safari on a Mac)
    await text.evaluate(imeEscape, { isComposing: true });
    // Safari, which ends the composition before the key press and marks it 229 instead
    await text.evaluate(imeEscape, { keyCode: 229 });
    await text.press('End');
    await text.pressSequentially('ひどかった');
    expect(await form.count()).toBe(1);
    expect(await text.inputValue()).toBe('今日は頭痛がひどかった');

    await text.press('Escape');
    await form.waitFor({ state: 'detached' });
    expect(await d.data('notes')).toEqual([]);
  });
});
