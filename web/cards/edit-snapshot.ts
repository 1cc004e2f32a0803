/**
 * What an edit form holds on to from the moment it opens: the row's position, the row as it was
 * and the data's ETag then. Saving sends that ETag as If-Match and that row as `expect`, so when
 * rows shift meanwhile (an earlier day added, a row deleted in another tab) the server answers 412
 * instead of writing over another entry; a later ETag picked up from live updates is never used.
 */
import { type CardEntry, type CardRows, entryAt } from './generic-card-index.js';

/** An open edit form's snapshot. */
export interface EditSnapshot {
  mode: 'edit';
  /** The row's array position when the form opened. */
  index: number;
  /** The row as the form opened it. */
  entry: CardEntry;
  /** The data's ETag when the form opened (null before the first read). */
  etag: string | null;
}

/** A snapshot of the row at `index` of `rows` with the data's `etag`, or null when no entry is there. */
export function openEdit(rows: CardRows, index: number, etag: string | null): EditSnapshot | null {
  const entry = entryAt(rows, index);
  return entry ? { mode: 'edit', index, entry, etag } : null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The snapshot again on the data as it is now ("Reload entry" after a 412): the same row where it
 * now stands (found by content), else the row now at the same position when it is of the same day,
 * else null (the entry is gone: the form closes on the card's current state).
 */
export function reopenEdit(rows: CardRows, was: EditSnapshot, etag: string | null): EditSnapshot | null {
  const at = rows.data.findIndex((r) => same(r, was.entry.row));
  if (at >= 0) return openEdit(rows, rows.from + at, etag);
  const here = openEdit(rows, was.index, etag);
  return here && here.entry.day === was.entry.day ? here : null;
}
