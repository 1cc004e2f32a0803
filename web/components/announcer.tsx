/**
 * A sentence said to a screen reader after a write: "Saved the entry of 7 December", "Removed
 * Bread". A card's form goes away when its save is done and the card shows the new value, which
 * a screen reader does not read out, so its user could not tell a save from a Cancel. The
 * sentence goes to a polite status line kept out of sight and in the page from the start (a live
 * region added together with its text is not read).
 */
import { useState } from 'preact/hooks';

/** What `useAnnouncer` gives a component: the line to render, and a way to fill it. */
export interface Announcer {
  /** The status line: render it where the component always renders (not inside a form). */
  line: preact.JSX.Element;
  /** Says `text`; the same sentence twice in a row is said twice. */
  say(text: string): void;
}

/** A polite status line of a component, out of sight. */
export function useAnnouncer(): Announcer {
  const [said, setSaid] = useState({ text: '', n: 0 });
  return {
    line: (
      <p class="visually-hidden" role="status" aria-live="polite">
        {/* a no-break space after a repeat makes the text change, so it is read again */}
        {said.text && `${said.text}${said.n % 2 === 1 ? '\u00a0' : ''}`}
      </p>
    ),
    say: (text) => setSaid((s) => ({ text, n: s.text === text ? s.n + 1 : 0 })),
  };
}
