/**
 * Which row of a day on a card is the phone's, so a push never replaces a reading entered by hand.
 *
 * A card the phone fills may also hold rows a person (or the chat assistant) wrote: two blood
 * pressure readings taken by hand, coffees logged in the web app, a weight typed in before the
 * phone was connected. The phone's row of a day is the row its samples last wrote there, recorded
 * as canonical JSON (table `hae_card_rows`, per card and date): a later push replaces that row
 * only. A row that is not it is a hand row, also a phone row someone edited since (it no longer
 * equals the record). Where a day has no phone row yet:
 * - on a card that keeps several readings a day (`writeable.maxReadingsPerDay` above 1), the
 *   phone's row is added beside the hand rows, which all stay;
 * - on a card that keeps one reading a day (the default), the day's row is replaced, as a second
 *   entry of the day replaces the first on such a card, and the push says so (`handReplaced`;
 *   the replaced entry can be undone from History).
 * A day whose row the phone wrote before this record existed is recognised by content: a row equal
 * to the one the samples make now is the phone's (adopted, nothing written).
 */
import type { HaeRow } from './format/rows.js';

/** Where the phone's rows are recorded (HaeSampleStore), per card: date → canonical row. */
export interface PhoneRowBook {
  /** The recorded rows of `dates` on the card. */
  phoneRows(cardId: string, dates: readonly string[]): Map<string, string>;
  /** Records the phone's rows of some dates on the card: date → the row's canonicalJson. */
  recordPhoneRows(cardId: string, rows: ReadonlyMap<string, string>): void;
  /** Forgets every recorded row of the card (its rows are all written again). */
  forgetPhoneRows(cardId: string): void;
}

/** `v` as JSON with the keys of every object sorted: one text per content, whatever the key order. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

/** How the phone's rows go into a card's rows (planRows). */
export interface RowPlan {
  /** Rows replacing the element at `index` (the phone's row of its date, or on a one-a-day card the day's row). */
  replaced: { index: number; row: HaeRow }[];
  /** Rows added (their date has no phone row). */
  inserted: HaeRow[];
  /** Dates of one-a-day cards where a row the phone did not write was replaced. */
  handReplaced: string[];
  /**
   * Rows to record as the phone's (written, or already on the card as they are), by date, as
   * canonical JSON: only those whose record changes.
   */
  record: Map<string, string>;
}

/**
 * Where each of `rows` (the phone's rows, one per date) goes among `existing` (the card's
 * elements; `dateOf` gives an element's date): see the module comment. `recorded` holds the
 * recorded phone rows by date (canonical JSON); `several` is true for a card that keeps several
 * readings a day.
 */
export function planRows(
  existing: readonly unknown[],
  rows: readonly HaeRow[],
  recorded: ReadonlyMap<string, string>,
  several: boolean,
  dateOf: (el: unknown) => string | undefined,
): RowPlan {
  const byDay = new Map<string, number[]>();
  existing.forEach((el, i) => {
    const d = dateOf(el);
    if (d === undefined) return;
    const list = byDay.get(d);
    if (list) list.push(i);
    else byDay.set(d, [i]);
  });
  const plan: RowPlan = { replaced: [], inserted: [], handReplaced: [], record: new Map() };
  for (const row of rows) {
    const day = byDay.get(row.date) ?? [];
    const text = canonicalJson(row);
    const record = recorded.get(row.date);
    const phone = record === undefined ? undefined : day.find((i) => canonicalJson(existing[i]) === record);
    if (phone !== undefined) {
      if (record !== text) {
        plan.replaced.push({ index: phone, row });
        plan.record.set(row.date, text);
      }
      continue;
    }
    // a row the phone wrote before its rows were recorded: equal to the one made now
    if (record === undefined && day.some((i) => canonicalJson(existing[i]) === text)) {
      plan.record.set(row.date, text);
      continue;
    }
    if (day.length === 0 || several) plan.inserted.push(row);
    else {
      plan.replaced.push({ index: day[0], row });
      plan.handReplaced.push(row.date);
    }
    plan.record.set(row.date, text);
  }
  return plan;
}
