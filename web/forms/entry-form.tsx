/**
 * An entry form built from a card's inputs (docs/MANIFEST-SCHEMA.md "writeable", "Input types"):
 * every input type, labels, required marks, defaults, help, placeholders; Save is enabled once
 * `requireAny` and the required inputs are satisfied (the reason is shown while it is not); the
 * server's refusal ("This card doesn't take entries for past days.", "Weight (kg) must be at most
 * 500.") is shown in the form as it comes (role=alert). The server checks everything again: the
 * form never decides alone what may be stored.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { InputDescriptor } from '../../src/common/inputs.js';
import { ApiError } from '../lib/api.js';
import { useInFlight } from '../lib/in-flight.js';
import { closesOnEscape } from '../lib/input-method-keys.js';
import '../styles/forms.css';
import { holdDraft, takeDraft } from './entry-draft.js';
import { type FormValues, saveBlocker, toEntry } from './form-values.js';
import { InputField } from './input-field.js';
import { followFocus, openerNow, returnFocusFrom } from './return-focus.js';

export interface EntryFormProps {
  inputs: readonly InputDescriptor[];
  /** `writeable.requireAny`. */
  requireAny?: readonly string[];
  /** Starting values (form-values.ts `initialValues`). */
  initial: FormValues;
  /** Fields added to the entry as they are (the shown date, `added`…). */
  extra?: Record<string, unknown>;
  /** The form's heading ("New entry for Monday 20 April", "Edit entry"). */
  title: string;
  saveLabel?: string;
  /** A sentence shown above Save before saving (e.g. "Saving will replace the oldest reading of the day."). */
  notice?: string;
  /** Saves the entry; a rejection is shown in the form. */
  onSave(entry: Record<string, unknown>): Promise<unknown>;
  onCancel(): void;
  /** When given, a Delete button (asks once) removes the entry being edited. */
  onDelete?(): Promise<unknown>;
  /**
   * Edit forms: re-opens the form on the entry as it is now. Offered (a "Reload entry" button)
   * when Save or Delete was refused because the entry changed elsewhere (412); nothing is written.
   */
  onReload?(): void;
  /**
   * New-entry forms: what is typed is kept under this key when the session ends and the page
   * leaves for the sign-in page, and the form opened again under it starts from it (entry-draft.ts).
   */
  draftKey?: string;
}

/** The form's sentence when it opens on what was typed before the person had to sign in again. */
export const DRAFT_RESTORED = 'You had to sign in again: what you typed is back. Check it and save.';

/** The form's sentence when a write was refused because the data moved on (HTTP 412). */
export const CHANGED_ELSEWHERE =
  'This entry changed elsewhere, so nothing was saved. Reload it to see the current entry.';

function messageOf(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 412) return CHANGED_ELSEWHERE;
    return err.message;
  }
  return 'Saving failed. Try again.';
}

export function EntryForm(props: EntryFormProps) {
  const { inputs, requireAny = [], initial, extra, title, onSave, onCancel, onDelete, draftKey } = props;
  const [restored] = useState(() => (draftKey === undefined ? null : takeDraft(draftKey)));
  const [values, setValues] = useState<FormValues>(() => (restored ? { ...initial, ...restored } : initial));
  const current = useRef(values);
  current.current = values;
  // registered once per key; the values are read at the moment the page leaves for the sign-in
  useEffect(
    () => (draftKey === undefined ? undefined : holdDraft(draftKey, () => current.current, initial)),
    [draftKey],
  );
  // set at the click, not at the next render: a double tap saves once
  const inFlight = useInFlight();
  const busy = inFlight.busy !== null;
  const [error, setError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const uid = useId();
  const blocker = saveBlocker(inputs, requireAny, values);

  // focus the first field as the form appears, before the next paint: an effect runs a frame
  // later, and would pull the focus away from a field the person already tapped into, so the
  // first characters typed there went to another field
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form || form.contains(document.activeElement)) return;
    form
      .querySelector<HTMLElement>('input, select, textarea, .form-group button')
      ?.focus({ preventScroll: false });
  }, []);
  // the button pressed to open the form, read while rendering (it still has the focus then)
  const [opener] = useState(openerNow);
  // as the form goes, the focus inside it goes back into the card (return-focus.ts)
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const focus = followFocus(form);
    return () => {
      focus.stop();
      if (focus.inside()) returnFocusFrom(form, opener);
    };
  }, []);
  // Delete… and its confirmation take each other's place: the focus goes from one to the other
  // (to Keep, the safe choice) instead of falling to the page
  const deleteRef = useRef<HTMLButtonElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const confirmShown = useRef(false);
  useEffect(() => {
    if (confirmShown.current === confirmDelete) return;
    confirmShown.current = confirmDelete;
    const at = document.activeElement;
    if (at !== null && at !== document.body && at.isConnected) return;
    (confirmDelete ? keepRef : deleteRef).current?.focus();
  }, [confirmDelete]);

  // a refused save leaves the form open: the focus stays on the button pressed (it is only
  // aria-disabled while saving), or, when the entry changed elsewhere and Save can no longer be
  // used, goes to Reload entry instead of falling to the page
  const reloadRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!stale) return;
    const at = document.activeElement;
    const form = formRef.current;
    const onDisabled = form?.contains(at) === true && (at as HTMLButtonElement).disabled === true;
    if (at === null || at === document.body || !at.isConnected || onDisabled) reloadRef.current?.focus();
  }, [stale]);

  function run(action: () => Promise<unknown>) {
    return inFlight.run(true, async () => {
      setError(null);
      try {
        await action();
      } catch (err) {
        setError(messageOf(err));
        setStale(err instanceof ApiError && err.status === 412);
      }
    });
  }

  const save = (v: FormValues) => run(() => onSave(toEntry(inputs, v, extra)));

  function change(key: string, next: unknown) {
    const updated = { ...values, [key]: next };
    setValues(updated);
    setError(null);
    const input = inputs.find((i) => i.key === key);
    if (input?.type === 'emoji-picker' && input.autoSubmit && next !== undefined && !busy) {
      if (saveBlocker(inputs, requireAny, updated) === null) void save(updated);
    }
  }

  return (
    <form
      ref={formRef}
      class="entry-form"
      noValidate
      aria-label={title}
      aria-busy={busy}
      onSubmit={(e) => {
        e.preventDefault();
        if (!blocker && !busy) void save(values);
      }}
      onKeyDown={(e) => {
        if (closesOnEscape(e)) {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <h3 class="entry-form-title">{title}</h3>
      {restored && (
        <p class="form-hint" role="status">
          {DRAFT_RESTORED}
        </p>
      )}
      {inputs.length === 0 && (
        <p class="form-help">This card declares no inputs, so there is nothing to fill in.</p>
      )}
      {inputs.map((input) => (
        <InputField
          key={input.key}
          input={input}
          id={`${uid}-${input.key}`}
          value={values[input.key]}
          onChange={(v) => change(input.key, v)}
        />
      ))}
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      {stale && props.onReload && (
        <button ref={reloadRef} type="button" class="button" onClick={props.onReload}>
          Reload entry
        </button>
      )}
      {props.notice && <p class="form-hint form-notice">{props.notice}</p>}
      {blocker && !error && <p class="form-hint">{blocker}</p>}
      <div class="form-actions">
        <button
          type="submit"
          class="button button-primary"
          disabled={blocker !== null || (stale && !!props.onReload)}
          aria-disabled={busy ? 'true' : undefined}
        >
          {busy ? 'Saving…' : (props.saveLabel ?? 'Save')}
        </button>
        <button type="button" class="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        {onDelete &&
          (confirmDelete ? (
            <span class="form-confirm">
              <button
                type="button"
                class="button button-danger"
                aria-disabled={busy ? 'true' : undefined}
                onClick={() => {
                  if (!busy) void run(onDelete);
                }}
              >
                Delete entry
              </button>
              <button
                ref={keepRef}
                type="button"
                class="button button-quiet"
                onClick={() => setConfirmDelete(false)}
              >
                Keep
              </button>
            </span>
          ) : (
            <button
              ref={deleteRef}
              type="button"
              class="button button-quiet button-danger-text"
              onClick={() => setConfirmDelete(true)}
              disabled={busy}
            >
              Delete…
            </button>
          ))}
      </div>
    </form>
  );
}
