/**
 * What recorded changes did to a card's rows, told by the rows' `date`: per date, the row before
 * the first change and after the last. Phone pushes and Apple Health imports keep one row per
 * date and often write a card's rows as one whole-array change, so this is how History counts the
 * rows such a change added (change-summary.ts) and how undo tells whether a later change touched
 * the same days (undo-by-date.ts).
 */
import { type ChangeRecord, MANIFEST_OP } from '../store/change-log.js';

/**
 * The effect on one card's dated rows: per date, the row's JSON text before the first change and
 * after the last (undefined: no row of that date). Only dates some change touched are present.
 */
export interface DatedEffect {
  before: Map<string, string | undefined>;
  after: Map<string, string | undefined>;
}

/** A row as the effect keeps it: its date and its canonical JSON text. */
interface DatedRow {
  date: string;
  text: string;
}

/** A row's JSON text read as a dated row; null when it is not an object with a text `date`. */
function datedRow(text: string): DatedRow | null {
  let el: unknown;
  try {
    el = JSON.parse(text);
  } catch {
    return null;
  }
  if (el === null || typeof el !== 'object' || Array.isArray(el)) return null;
  const date = (el as { date?: unknown }).date;
  return typeof date === 'string' ? { date, text: JSON.stringify(el) } : null;
}

/** A whole data image read as rows by date; null when it is not a list of rows with distinct dates. */
function rowsByDate(text: string | null): Map<string, string> | null {
  const out = new Map<string, string>();
  if (text === null) return out;
  let arr: unknown;
  try {
    arr = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(arr)) return null;
  for (const el of arr) {
    const row = el !== null && typeof el === 'object' && !Array.isArray(el) ? el : undefined;
    const date = (row as { date?: unknown } | undefined)?.date;
    if (typeof date !== 'string' || out.has(date)) return null;
    out.set(date, JSON.stringify(row));
  }
  return out;
}

function mark(
  effect: DatedEffect,
  date: string,
  before: string | undefined,
  after: string | undefined,
): void {
  if (!effect.before.has(date)) effect.before.set(date, before);
  effect.after.set(date, after);
}

/** Adds one data change to its card's effect; false when the change cannot be told by date. */
function addChange(effect: DatedEffect, c: ChangeRecord): boolean {
  if (c.imageOmitted) return false;
  if (c.rowId !== null) {
    const b = c.before === null ? undefined : datedRow(c.before);
    const a = c.after === null ? undefined : datedRow(c.after);
    if (b === null || a === null || (b && a && b.date !== a.date)) return false;
    const date = (a ?? b)?.date;
    if (date !== undefined) mark(effect, date, b?.text, a?.text);
    return true;
  }
  const before = rowsByDate(c.before);
  const after = rowsByDate(c.after);
  if (!before || !after) return false;
  for (const [date, text] of before) if (after.get(date) !== text) mark(effect, date, text, after.get(date));
  for (const [date, text] of after) if (!before.has(date)) mark(effect, date, undefined, text);
  return true;
}

/**
 * Per card, the dated effect of the data changes among `changes` (in id order), or null for a
 * card whose changes cannot be told by date: a data block that is not a list of objects with
 * distinct text dates, a row whose date changed, an image too large to have been kept.
 * Manifest changes are left out.
 */
export function datedEffects(changes: readonly ChangeRecord[]): Map<string, DatedEffect | null> {
  const out = new Map<string, DatedEffect | null>();
  for (const c of changes) {
    if (c.op === MANIFEST_OP) continue;
    let effect = out.get(c.cardId);
    if (effect === null) continue;
    if (effect === undefined) {
      effect = { before: new Map(), after: new Map() };
      out.set(c.cardId, effect);
    }
    if (!addChange(effect, c)) out.set(c.cardId, null);
  }
  return out;
}

/** The dates whose row differs between before and after, split by what happened to them, sorted. */
export function netDates(effect: DatedEffect): { added: string[]; changed: string[]; removed: string[] } {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [date, before] of effect.before) {
    const after = effect.after.get(date);
    if (before === after) continue;
    if (before === undefined) added.push(date);
    else if (after === undefined) removed.push(date);
    else changed.push(date);
  }
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}
