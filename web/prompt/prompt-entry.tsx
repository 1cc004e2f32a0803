/**
 * The body of a `modal` daily prompt: the card's own entry form (web/forms/entry-form.tsx, the
 * same as on the card) for today, saved through the entries route (web/lib/entries.ts), which
 * applies the card's write policy and replaces or adds today's row per `maxReadingsPerDay`. The
 * form starts as the card's "Add entry" does: with the latest earlier row when
 * `prefillFromLatest`, then the inputs' defaults; on a one-reading-a-day card that already has
 * today's row (a prompt with `whenMissing: false`), with that row, whose fields no input edits
 * are kept.
 */
import { useMemo } from 'preact/hooks';
import { getValue } from '../../src/common/display-template.js';
import { formInputs, requireAnyOf } from '../../src/common/inputs.js';
import { dayOf } from '../../src/common/trend.js';
import { writePolicyOf } from '../../src/common/write-policy.js';
import { addDraftKey } from '../forms/entry-draft.js';
import { EntryForm } from '../forms/entry-form.js';
import { initialValues, keptFields } from '../forms/form-values.js';
import { useCardData } from '../lib/card-data.js';
import { addEntry, saveAttempts } from '../lib/entries.js';
import { type PromptCard, promptDateField } from './prompt-rules.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Props of PromptEntry. */
export interface PromptEntryProps {
  card: PromptCard;
  /** The person's today, `YYYY-MM-DD`. */
  day: string;
  /** The entry was saved. */
  onSaved(): void;
  /** The person chose Cancel. */
  onDismiss(): void;
}

/** The card's rows with their day, in array order. */
function datedRows(data: unknown, dateField: string): { row: Obj; day: string | null }[] {
  return Array.isArray(data)
    ? data.filter(isObj).map((row) => ({ row, day: dayOf(getValue(row, dateField)) }))
    : [];
}

export function PromptEntry({ card, day, onSaved, onDismiss }: PromptEntryProps) {
  const { data } = useCardData(card.id);
  const meta = card.meta;
  const inputs = useMemo(() => formInputs(meta), [meta]);
  const policy = useMemo(() => writePolicyOf(meta), [meta]);
  // a save tried again after an error is the same write (same key): stored once
  const addAttempts = useMemo(saveAttempts, []);
  const dateField = promptDateField(meta);
  const maxPerDay = policy.maxReadingsPerDay;
  const hasDateInput = inputs.some((i) => i.key === dateField);

  // read once: the form keeps its own values while the person fills it in
  const start = useMemo(() => {
    const rows = datedRows(data, dateField);
    const todays = rows.filter((r) => r.day === day);
    const replacing = maxPerDay === 1 ? todays[todays.length - 1]?.row : undefined;
    const earlier = rows
      .filter((r) => r.day !== null && r.day < day)
      .sort((a, b) => ((a.day as string) < (b.day as string) ? -1 : 1));
    const initial = replacing
      ? initialValues(inputs, { row: replacing, dateField })
      : initialValues(inputs, {
          latest: earlier[earlier.length - 1]?.row,
          prefill: policy.prefillFromLatest,
          dateField,
        });
    const extra: Obj = replacing ? keptFields(replacing, inputs) : {};
    if (hasDateInput) initial[dateField] = day;
    else extra[dateField] = day;
    return { initial, extra };
  }, []);

  return (
    <EntryForm
      inputs={inputs}
      requireAny={requireAnyOf(meta)}
      initial={start.initial}
      extra={start.extra}
      title="Today’s entry"
      draftKey={addDraftKey(card.id, day, 'prompt')}
      onSave={async (entry) => {
        await addEntry(card.id, entry, null, addAttempts.of(entry).key);
        addAttempts.done();
        onSaved();
      }}
      onCancel={onDismiss}
    />
  );
}
