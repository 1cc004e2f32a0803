/**
 * A card's write policy (docs/MANIFEST-SCHEMA.md "writeable"), read leniently from its `meta`:
 * whether the web app may write the card at all (`fromWebapp`), which days it takes, how many
 * rows a day keeps, which inputs its form has and where a row's date is. One reading for the
 * server, which enforces it (src/cards/write-policy.ts), and the browser, which offers only what
 * the server will take. No Node imports.
 */
import { formInputs, type InputDescriptor, requireAnyOf } from './inputs.js';

/** A card's write policy, read leniently from its `meta` (defaults per docs/MANIFEST-SCHEMA.md). */
export interface WritePolicy {
  /** The web app's forms may write the card (else its writes are 403 NOT_WRITEABLE). */
  fromWebapp: boolean;
  todayAllowed: boolean;
  pastAllowed: boolean;
  futureAllowed: boolean;
  /** ≥ 1. */
  maxReadingsPerDay: number;
  /** The form starts from the latest row's values. */
  prefillFromLatest: boolean;
  requireAny: string[];
  inputs: InputDescriptor[];
  /** The row key holding the date: `meta.view.dateField`, default `date`. */
  dateField: string;
  /**
   * True when the card's rows are dated: its inputs include the date field, or it is drawn by
   * generic-card (alias metric-card). An entry sent without a date is then dated the person's today.
   */
  dated: boolean;
}

const DATED_COMPONENTS: readonly string[] = ['generic-card', 'metric-card'];

/** An entry as stored: a JSON object without empty values. */
export type Entry = Record<string, unknown>;

/** `POST …/entries` answer. `index` is the entry's position in the data array after the write. */
export interface AddEntryResult {
  ok: true;
  id: string;
  index: number;
  /** True when the entry replaced the day's row (maxReadingsPerDay 1). */
  replaced: boolean;
  /** How many older rows of the day were removed to keep maxReadingsPerDay. */
  dropped: number;
  etag: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The write policy of a card's `meta` (sanitised or raw; unusable values read as their defaults). */
export function writePolicyOf(meta: unknown): WritePolicy {
  const m = isObject(meta) ? meta : {};
  const w = isObject(m.writeable) ? m.writeable : {};
  const v = isObject(m.view) ? m.view : {};
  const max = w.maxReadingsPerDay;
  const dateField =
    typeof v.dateField === 'string' && v.dateField.trim() !== '' ? v.dateField.trim() : 'date';
  const inputs = formInputs(m);
  return {
    fromWebapp: w.fromWebapp === true,
    todayAllowed: w.todayAllowed !== false,
    pastAllowed: w.pastAllowed === true,
    futureAllowed: w.futureAllowed === true,
    maxReadingsPerDay: typeof max === 'number' && Number.isInteger(max) && max >= 1 ? max : 1,
    prefillFromLatest: w.prefillFromLatest === true,
    requireAny: requireAnyOf(m),
    inputs,
    dateField,
    dated:
      inputs.some((i) => i.key === dateField) ||
      (typeof v.component === 'string' && DATED_COMPONENTS.includes(v.component)),
  };
}
