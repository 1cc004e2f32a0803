/**
 * The frame of a daily prompt: a `<dialog>` (a sheet from the bottom on a phone, a centred panel
 * on wider screens) with the card's emoji and label as its heading, a line under it, a "Skip for
 * today" button, and the body. The cards behind are veiled and cannot be used, but the chat button
 * stays free and usable above the veil (someone may rather tell the chat than fill in the form):
 * the dialog is opened with `show()`, not `showModal()`, whose top layer would cover it, and the
 * phone sheet ends above the chat button. Focus stays inside (Tab and Shift+Tab wrap around),
 * Escape dismisses, and focus goes back where it was when it closes.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useLayoutEffect, useRef } from 'preact/hooks';
import { closesOnEscape } from '../lib/input-method-keys.js';
import '../styles/prompt.css';

/** Props of PromptDialog. */
export interface PromptDialogProps {
  /** The card's emoji (optional) and label: the dialog's name. */
  emoji?: string;
  label: string;
  /** The line under the heading ("Daily check-in · Monday 30 November"). */
  subtitle: string;
  /** Called when the person dismisses the prompt (Escape, "Skip for today"). */
  onDismiss(): void;
  children: ComponentChildren;
}

/** What can take focus inside the dialog, in document order. */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.getClientRects().length > 0 && !el.closest('[inert]'),
  );
}

export function PromptDialog({ emoji, label, subtitle, onDismiss, children }: PromptDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const uid = useId();
  const dismissRef = useRef(onDismiss);
  dismissRef.current = onDismiss;

  // open before the body's own effects run (an entry form focuses its first field in its effect)
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.show();
    // the page behind takes no focus or clicks meanwhile (the top bar, the tab bar and the chat do)
    const main = document.getElementById('main');
    main?.setAttribute('inert', '');
    return () => {
      main?.removeAttribute('inert');
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  // a body that focuses nothing itself (the checklist): its first control
  useEffect(() => {
    const body = bodyRef.current;
    if (body && !body.contains(document.activeElement)) focusables(body)[0]?.focus();
  }, []);

  function onKeyDown(e: KeyboardEvent) {
    if (closesOnEscape(e)) {
      // a dialog opened with show() has no cancel event: Escape dismisses here
      e.preventDefault();
      dismissRef.current();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const list = focusables(ref.current);
    if (list.length === 0) return;
    const first = list[0];
    const last = list[list.length - 1];
    const at = document.activeElement;
    if (e.shiftKey && (at === first || !ref.current.contains(at))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (at === last || !ref.current.contains(at))) {
      e.preventDefault();
      first.focus();
    }
  }

  return (
    <>
      <div class="prompt-veil" aria-hidden="true" />
      <dialog
        ref={ref}
        class="prompt"
        aria-labelledby={`${uid}-title`}
        aria-describedby={`${uid}-sub`}
        onKeyDown={onKeyDown}
        onCancel={(e) => {
          // Escape: the dialog is closed by unmounting it, after the prompt is marked as asked
          e.preventDefault();
          dismissRef.current();
        }}
      >
        <header class="prompt-head">
          {emoji && (
            <span class="prompt-emoji" aria-hidden="true">
              {emoji}
            </span>
          )}
          <div class="prompt-titles">
            <h2 class="prompt-title" id={`${uid}-title`}>
              {label}
            </h2>
            <p class="prompt-sub" id={`${uid}-sub`}>
              {subtitle}
            </p>
          </div>
          <button
            type="button"
            class="icon-button prompt-close"
            aria-label="Skip for today"
            title="Skip for today"
            onClick={() => dismissRef.current()}
          >
            <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
              <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
            </svg>
          </button>
        </header>
        <div ref={bodyRef} class="prompt-body">
          {children}
        </div>
      </dialog>
    </>
  );
}
