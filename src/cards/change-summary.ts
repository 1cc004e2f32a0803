/**
 * The short human summary of a change set ("Added 2 rows to Weight"), built from what the set
 * recorded, counted per card (ChangeLog.tally). Written at read time, so a renamed card reads
 * with its current label.
 */
import { type ChangeTally, MANIFEST_OP } from '../store/change-log.js';

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

function wholeVerb(op: string, label: string): string {
  if (op === 'replace' || op === 'revert') return `replaced the data of ${label}`;
  if (op === 'import') return `imported the data of ${label}`;
  // with the card's own creation or deletion these say nothing more; alone (a card the server
  // made, such as the welcome card) they are what an undo would take back
  if (op === 'create') return `wrote the content of ${label}`;
  if (op === 'delete-card') return `removed the content of ${label}`;
  return `updated the data of ${label}`;
}

/** One card's part of the summary, e.g. "added 2 rows to Weight". */
function cardPart(tallies: ChangeTally[], label: string): string[] {
  const manifest = tallies.filter((t) => t.op === MANIFEST_OP);
  const parts: string[] = [];
  if (manifest.some((t) => t.created)) parts.push(`created ${label}`);
  else if (manifest.some((t) => t.removed)) parts.push(`deleted ${label}`);
  else if (manifest.length) parts.push(`edited ${label}`);
  const data = tallies.filter((t) => t.op !== MANIFEST_OP);
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
      labelOf(id),
    ),
  );
  const text = parts.length ? parts.join(', ') : 'no visible change';
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return undid ? `Undid: ${text}` : sentence;
}
