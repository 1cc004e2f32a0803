/**
 * One row of a settings list whose item can be removed with a second tap in place (no browser
 * dialog): the first tap on `verb` shows `verb` (danger) and Keep; a failed removal shows its
 * message under the row. Used by Settings › Security for passkeys and agent tokens.
 *
 * The keyboard's focus never falls to the page: the first tap's button and the confirmation take
 * each other's place, so the focus goes from one to the other (to Keep, the safe choice); when the
 * row is removed with the focus in it, the focus goes to the next row's button (else the one
 * before, else the list or its panel's heading).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

export interface ConfirmRemoveRowProps {
  /** Decorative emoji at the start of the row (hidden from assistive tech). */
  emoji: string;
  /** Content of the row's label (name and badges). */
  label: ComponentChildren;
  /** Content of the grey line under the label (dates, hints). */
  meta: ComponentChildren;
  /** The button text: "Remove", "Revoke". */
  verb: string;
  /** Accessible name of the first button, e.g. "Remove Phone". */
  askLabel: string;
  /** Whether the second tap (verb + Keep) is showing. */
  confirming: boolean;
  /** Message of a failed removal of this row, shown as an alert. */
  problem?: string;
  /** Extra attributes of the `<li>`, e.g. `{'data-token-id': id}`. */
  attrs?: Record<string, string>;
  onAsk(): void;
  onConfirm(): void;
  onKeep(): void;
}

/** A `<li class="setting-row">` with the two-tap remove control. */
export function ConfirmRemoveRow(p: ConfirmRemoveRowProps) {
  const row = useRef<HTMLLIElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const shown = useRef(p.confirming);
  useEffect(() => {
    if (shown.current === p.confirming) return;
    shown.current = p.confirming;
    if (focusLost()) (p.confirming ? keep : ask).current?.focus();
  }, [p.confirming]);
  useLayoutEffect(() => {
    const li = row.current;
    return () => {
      if (li) focusAfterRemoval(li);
    };
  }, []);
  return (
    <li class="setting-row" ref={row} {...p.attrs}>
      <span class="setting-emoji" aria-hidden="true">
        {p.emoji}
      </span>
      <div class="setting-text">
        <span class="setting-label">{p.label}</span>
        <span class="auth-meta">{p.meta}</span>
        {p.problem !== undefined && (
          <span class="setting-error" role="alert">
            {p.problem}
          </span>
        )}
      </div>
      {p.confirming ? (
        <span class="auth-confirm">
          <button type="button" class="auth-button auth-button-danger" onClick={p.onConfirm}>
            {p.verb}
          </button>
          <button type="button" class="auth-button" ref={keep} onClick={p.onKeep}>
            Keep
          </button>
        </span>
      ) : (
        <button type="button" class="auth-button" ref={ask} aria-label={p.askLabel} onClick={p.onAsk}>
          {p.verb}
        </button>
      )}
    </li>
  );
}

/** Whether the focus is nowhere in particular (the page itself, or an element no longer shown). */
function focusLost(): boolean {
  const at = document.activeElement;
  return at === null || at === document.body || !at.isConnected;
}

/**
 * Called as a row leaves the page: when the focus was in it (or was just lost with it), the
 * focus goes, once the list has re-rendered, to the next row's button, else the previous row's,
 * else the list itself, else the heading of its panel.
 */
function focusAfterRemoval(li: HTMLLIElement): void {
  if (!li.contains(document.activeElement) && !focusLost()) return;
  const list = li.parentElement;
  const heading = li.closest('section')?.querySelector<HTMLElement>('h2, h3') ?? null;
  const next = li.nextElementSibling;
  const previous = li.previousElementSibling;
  queueMicrotask(() => {
    if (!focusLost()) return;
    const button = (el: Element | null) =>
      el?.isConnected ? el.querySelector<HTMLElement>('button:not([disabled])') : null;
    const to = button(next) ?? button(previous);
    if (to) return to.focus();
    // the last row: the list, or the panel's heading when the list made way for "none yet"
    const place = list?.isConnected ? list : heading?.isConnected ? heading : null;
    if (!place) return;
    if (!place.hasAttribute('tabindex')) place.setAttribute('tabindex', '-1');
    place.focus();
  });
}
