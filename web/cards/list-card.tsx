/**
 * `list-card`: a running roster (symptoms being watched, things to buy), not one entry per day.
 * Each row shows its `primaryField` and the
 * `secondaryTemplate` (both cut to `maxCharPreview` characters, never splitting an emoji), or
 * `emptyMessage` when there are none. "Edit" (for writeable cards) reveals Add, per-row change and
 * Remove; a new row is stamped with `added` (an ISO timestamp). Settings are read from
 * `display` or, as older files put them, from the view config itself.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { getValue, valueText } from '../../src/common/display-template.js';
import { emojiMapFor } from '../../src/common/emoji-map.js';
import { truncateGraphemes } from '../../src/common/graphemes.js';
import { formInputs, requireAnyOf } from '../../src/common/inputs.js';
import { rowsWithin } from '../../src/common/nested-rows.js';
import { writePolicyOf } from '../../src/common/write-policy.js';
import { useAnnouncer } from '../components/announcer.js';
import { addDraftKey, hasDraft } from '../forms/entry-draft.js';
import { EntryForm } from '../forms/entry-form.js';
import { initialValues, keptFields } from '../forms/form-values.js';
import { ApiError } from '../lib/api.js';
import { useCardData } from '../lib/card-data.js';
import { addEntry, deleteEntry, replaceEntry, saveAttempts } from '../lib/entries.js';
import { fillTemplate } from '../lib/format.js';
import type { RendererProps } from './registry.js';
import '../styles/cards/list-card.css';

/** Shown for an empty list when the manifest gives no `emptyMessage`. */
export const DEFAULT_EMPTY_MESSAGE = 'Nothing here yet.';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

type Form = { mode: 'add' } | { mode: 'edit'; index: number } | null;

export function ListCard({ card }: RendererProps) {
  const { data: stored, etag, loading, error } = useCardData(card.id);
  // an object holding its rows (`{"findings": [...]}`, rows in categories) shows them, read-only
  const data = useMemo(() => (Array.isArray(stored) ? stored : (rowsWithin(stored) ?? stored)), [stored]);
  // an addition whose Save found the session ended opens again, as typed, once signed in
  const [resume] = useState(() => hasDraft(addDraftKey(card.id, null)));
  const [editMode, setEditMode] = useState(resume);
  const [form, setForm] = useState<Form>(resume ? { mode: 'add' } : null);
  // a save tried again after an error is the same write (same key): stored once
  const addAttempts = useMemo(saveAttempts, []);
  const [confirm, setConfirm] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // an add, change or removal said to a screen reader: the form or the row just goes
  const said = useAnnouncer();
  // Remove and its confirmation take each other's place, and a removed row leaves: the focus goes
  // to Keep, back to the row's Remove, or after a removal to the next row's Remove (else Add)
  const root = useRef<HTMLDivElement>(null);
  const confirmed = useRef<number | null>(null);
  useEffect(() => {
    const was = confirmed.current;
    confirmed.current = confirm;
    const at = document.activeElement;
    if (was === confirm || (at !== null && at !== document.body && at.isConnected)) return;
    const el = root.current;
    const pick = (sel: string) => el?.querySelector<HTMLElement>(sel) ?? null;
    const to =
      confirm !== null
        ? pick(`[data-keep="${confirm}"]`)
        : (pick(`[data-return-focus="remove-${was}"]`) ?? pick('[data-return-focus="add"]'));
    to?.focus();
  }, [confirm]);
  const meta = card.meta;
  const vc = card.viewConfig;
  const display = isObject(vc.display) ? vc.display : {};
  const pick = (k: string) => display[k] ?? vc[k];
  const inputs = useMemo(() => formInputs(meta), [meta]);
  const canWrite =
    useMemo(() => writePolicyOf(meta).fromWebapp, [meta]) && (stored === null || Array.isArray(stored));

  if (data === undefined) {
    return (
      <p class="lc-note">
        {loading ? 'Loading…' : `Could not read this list${error ? `: ${error.message}` : '.'}`}
      </p>
    );
  }
  if (data !== null && !Array.isArray(data)) {
    return <p class="lc-note">This card's data is not a list, so there is nothing to show here.</p>;
  }
  const rows = (data ?? []).map((row, index) => ({ row, index })).filter((r) => isObject(r.row)) as {
    row: Record<string, unknown>;
    index: number;
  }[];
  const max =
    typeof pick('maxCharPreview') === 'number' && (pick('maxCharPreview') as number) > 0
      ? (pick('maxCharPreview') as number)
      : undefined;
  const cut = (s: string) => (max ? truncateGraphemes(s, max) : s);
  const primaryField = text(pick('primaryField')) ?? inputs[0]?.key;
  const secondaryT = text(pick('secondaryTemplate'));
  const emojiMap = emojiMapFor(meta, vc);
  const emptyMessage = text(pick('emptyMessage')) ?? DEFAULT_EMPTY_MESSAGE;
  const primaryOf = (row: Record<string, unknown>, n: number) => {
    const v = primaryField ? valueText(getValue(row, primaryField)) : '';
    return cut(v.trim() || `Item ${n + 1}`);
  };
  const editing = form?.mode === 'edit' ? rows.find((r) => r.index === form.index) : undefined;

  async function remove(index: number, name: string) {
    setBusy(true);
    setProblem(null);
    try {
      await deleteEntry(card.id, index, etag);
      setConfirm(null);
      said.say(`Removed ${name}`);
    } catch (err) {
      setProblem(
        err instanceof ApiError && err.status === 412
          ? 'The list changed meanwhile; look again and retry.'
          : (err as Error).message,
      );
    }
    setBusy(false);
  }

  return (
    <div class="lc" ref={root}>
      {said.line}
      {rows.length === 0 ? (
        <p class="lc-empty">{emptyMessage}</p>
      ) : (
        <ul class="lc-list">
          {rows.map(({ row, index }, n) => {
            const secondary = secondaryT
              ? cut(fillTemplate(secondaryT, row, { emojiMap }).replace(/\s+/g, ' ').trim())
              : '';
            const name = primaryOf(row, n);
            return (
              <li key={index} class="lc-item">
                <div class="lc-text">
                  <span class="lc-primary">{name}</span>
                  {secondary && <span class="lc-secondary">{secondary}</span>}
                </div>
                {editMode && canWrite && form === null && (
                  <div class="lc-row-actions">
                    {/* keyed, so a pressed button is never reused as another: the focus it held
                        then goes where the effect above sends it, not to whatever took its place */}
                    {confirm === index ? (
                      <>
                        <button
                          key="confirm-remove"
                          type="button"
                          class="button button-danger"
                          // aria-disabled, not disabled: a focused button that is disabled drops
                          // the focus to the page, and a refusal must leave it here
                          aria-disabled={busy ? 'true' : undefined}
                          onClick={() => {
                            if (!busy) void remove(index, name);
                          }}
                        >
                          Remove
                        </button>
                        <button
                          key="keep"
                          type="button"
                          class="button button-quiet"
                          data-keep={index}
                          onClick={() => setConfirm(null)}
                        >
                          Keep
                        </button>
                      </>
                    ) : (
                      <>
                        <button
                          key="change"
                          type="button"
                          class="button button-quiet"
                          aria-label={`Change ${name}`}
                          data-return-focus={`change-${index}`}
                          onClick={() => setForm({ mode: 'edit', index })}
                        >
                          Change
                        </button>
                        <button
                          key="remove"
                          type="button"
                          class="button button-quiet button-danger-text"
                          aria-label={`Remove ${name}`}
                          data-return-focus={`remove-${index}`}
                          onClick={() => setConfirm(index)}
                        >
                          Remove
                        </button>
                      </>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {problem && (
        <p class="form-error" role="alert">
          {problem}
        </p>
      )}
      {canWrite && form === null && (
        <div class="lc-actions">
          <button
            type="button"
            class="button"
            aria-pressed={editMode}
            data-return-focus="main"
            onClick={() => {
              setEditMode(!editMode);
              setConfirm(null);
              setProblem(null);
            }}
          >
            {editMode ? 'Done' : 'Edit'}
          </button>
          {editMode && (
            <button
              type="button"
              class="button button-primary"
              data-return-focus="add"
              onClick={() => setForm({ mode: 'add' })}
            >
              Add
            </button>
          )}
        </div>
      )}
      {canWrite && form?.mode === 'add' && (
        <EntryForm
          inputs={inputs}
          requireAny={requireAnyOf(meta)}
          initial={initialValues(inputs)}
          title={`Add to ${meta.label}`}
          draftKey={addDraftKey(card.id, null)}
          saveLabel="Add"
          onSave={async (entry) => {
            // saved again after an error: the same key and the same added stamp
            const attempt = addAttempts.of(entry);
            await addEntry(card.id, { ...entry, added: attempt.at }, null, attempt.key);
            addAttempts.done();
            setForm(null);
            said.say(`Added ${primaryOf(entry, rows.length)}`);
          }}
          onCancel={() => {
            addAttempts.done();
            setForm(null);
          }}
        />
      )}
      {canWrite && form?.mode === 'edit' && editing && (
        <EntryForm
          key={editing.index}
          inputs={inputs}
          requireAny={requireAnyOf(meta)}
          initial={initialValues(inputs, { row: editing.row })}
          extra={keptFields(editing.row, inputs)}
          title={`Change ${primaryOf(editing.row, 0)}`}
          onSave={async (entry) => {
            // the row as shown goes along as `expect`: if rows moved meanwhile the server refuses (412), never writes over another
            await replaceEntry(card.id, editing.index, entry, etag, editing.row);
            setForm(null);
            said.say(`Changed to ${primaryOf(entry, editing.index)}`);
          }}
          onCancel={() => setForm(null)}
        />
      )}
    </div>
  );
}
