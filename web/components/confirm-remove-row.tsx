/**
 * One row of a settings list whose item can be removed with a second tap in place (no browser
 * dialog): the first tap on `verb` shows `verb` (danger) and Keep; a failed removal shows its
 * message under the row. Used by Settings › Security for passkeys and agent tokens.
 */
import type { ComponentChildren } from 'preact';

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
  return (
    <li class="setting-row" {...p.attrs}>
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
          <button type="button" class="auth-button" onClick={p.onKeep}>
            Keep
          </button>
        </span>
      ) : (
        <button type="button" class="auth-button" aria-label={p.askLabel} onClick={p.onAsk}>
          {p.verb}
        </button>
      )}
    </li>
  );
}
