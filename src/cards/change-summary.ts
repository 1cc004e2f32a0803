/**
 * The short human summary of a change set ("Added 2 rows to Weight"), built from what the set
 * recorded, counted per card (ChangeLog.tally). Written at read time, so a renamed card reads
 * with its current label.
 */

import { isolateText } from '../common/isolate-text.js';
import { lookupTable } from '../common/lookup-table.js';
import { type ChangeRecord, type ChangeTally, MANIFEST_OP } from '../store/change-log.js';
import { type DatedEffect, datedEffects, netDates } from './dated-effects.js';

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/** The ops of a job that replaced the whole home's cards (import-apply.ts). */
const HOME_OPS = new Set(['import', 'restore', 'rollback']);

function wholeVerb(op: string, label: string): string {
  if (op === 'replace' || op === 'revert') return `replaced the data of ${label}`;
  if (op === 'import') return `imported the data of ${label}`;
  if (op === 'restore') return `restored the data of ${label} from a snapshot`;
  if (op === 'rollback') return `rolled back the data of ${label}`;
  // with the card's own creation or deletion these say nothing more; alone (a card the server
  // made, such as the welcome card) they are what an undo would take back
  if (op === 'create') return `wrote the content of ${label}`;
  if (op === 'delete-card') return `removed the content of ${label}`;
  return `updated the data of ${label}`;
}

/** One card's part of the summary, e.g. "added 2 rows to Weight". */
function cardPart(tallies: ChangeTally[], label: string): string[] {
  const manifest = tallies.filter((t) => t.op === MANIFEST_OP);
  const data = tallies.filter((t) => t.op !== MANIFEST_OP);
  // an import, restore or roll back that put the card's file in place says so in its own words
  const wholeHome = data.some((t) => HOME_OPS.has(t.op));
  const created = manifest.some((t) => t.created);
  const parts: string[] = [];
  if (created && !wholeHome) parts.push(`created ${label}`);
  else if (!created && manifest.some((t) => t.removed)) parts.push(`deleted ${label}`);
  // a file that vanished and came back as it was (renamed, or its folder moved away and back)
  else if (manifest.length && !wholeHome && manifest.every((t) => t.unchanged))
    parts.push(`moved the file of ${label}`);
  else if (manifest.length && !wholeHome) parts.push(`edited ${label}`);
  const count = (pick: (t: ChangeTally) => boolean) => data.filter(pick).reduce((n, t) => n + t.count, 0);
  const added = count((t) => t.row && t.created);
  const removed = count((t) => t.row && t.removed);
  const changed = count((t) => t.row && !t.created && !t.removed);
  if (added) parts.push(`added ${plural(added, 'row', 'rows')} to ${label}`);
  if (changed) parts.push(`changed ${plural(changed, 'row', 'rows')} in ${label}`);
  if (removed) parts.push(`removed ${plural(removed, 'row', 'rows')} from ${label}`);
  const whole = [...new Set(data.filter((t) => !t.row).map((t) => t.op))];
  const cardItself = manifest.some((t) => t.created || t.removed);
  for (const op of whole) {
    if (cardItself && (op === 'create' || op === 'delete-card')) continue;
    const v = wholeVerb(op, label);
    if (v && !parts.includes(v)) parts.push(v);
  }
  return parts;
}

/**
 * The summary of a set from its tally. `labelOf` names a card (its label, else its id). For an
 * undo, pass the tally of the set it undid and `undid: true`: "Undid: added 2 rows to Weight"
 * says in words what was taken back (never an internal set number).
 */
export function summariseChangeSet(
  tally: ChangeTally[],
  labelOf: (cardId: string) => string,
  undid = false,
): string {
  const cards = [...new Set(tally.map((t) => t.cardId))];
  const parts = cards.flatMap((id) =>
    cardPart(
      tally.filter((t) => t.cardId === id),
      isolateText(labelOf(id)),
    ),
  );
  const text = parts.length ? parts.join(', ') : 'no visible change';
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return undid ? `Undid: ${text}` : sentence;
}

/**
 * Who a set of these actor kinds is, named first in its summary ("Health Auto Export added 3 rows
 * to Steps"): the phone's pushes and Apple Health imports write whole days at a time, and History
 * says who did it in the sentence itself.
 */
export const INGEST_WHO = lookupTable<string>({
  hae: 'Health Auto Export',
  import: 'Apple Health import',
});

/** "(2026-05-01)" or "(2026-05-01 to 2026-05-05)": the days a card's rows were written for. */
function daySpan(dates: string[]): string {
  const sorted = [...dates].sort();
  if (sorted.length === 0) return '';
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  return first === last ? ` (${first})` : ` (${first} to ${last})`;
}

/** One card's part of an ingest summary, counted by date: "added 3 rows to Steps (… to …)". */
function datedPart(effect: DatedEffect, label: string): string[] {
  const { added, changed, removed } = netDates(effect);
  const parts: string[] = [];
  if (added.length) parts.push(`added ${plural(added.length, 'row', 'rows')} to ${label}`);
  if (changed.length) parts.push(`changed ${plural(changed.length, 'row', 'rows')} in ${label}`);
  if (removed.length) parts.push(`removed ${plural(removed.length, 'row', 'rows')} from ${label}`);
  if (parts.length) parts[parts.length - 1] += daySpan([...added, ...changed, ...removed]);
  return parts;
}

/**
 * The summary of a Health Auto Export push or an Apple Health import (`who`, see INGEST_WHO): its
 * rows counted by date, also when they were written as one whole-array change, with the days they
 * cover, e.g. "Health Auto Export added 3 rows to Steps (2026-05-01 to 2026-05-03)". A card whose
 * changes cannot be counted by date is told as summariseChangeSet does. `changes`: the set's
 * records (with their images); `tally` its ChangeLog.tally. With `undid`: "Undid: Health Auto
 * Export added …".
 */
export function summariseIngestSet(
  who: string,
  changes: readonly ChangeRecord[],
  tally: ChangeTally[],
  labelOf: (cardId: string) => string,
  undid = false,
): string {
  const effects = datedEffects(changes);
  const cards = [...new Set(tally.map((t) => t.cardId))];
  const parts = cards.flatMap((id) => {
    const mine = tally.filter((t) => t.cardId === id);
    const effect = effects.get(id);
    const label = isolateText(labelOf(id));
    return effect && !mine.some((t) => t.op === MANIFEST_OP)
      ? datedPart(effect, label)
      : cardPart(mine, label);
  });
  const text = `${who} ${parts.length ? parts.join(', ') : 'made no visible change'}`;
  return undid ? `Undid: ${text}` : text;
}
