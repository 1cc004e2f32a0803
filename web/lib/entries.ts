/**
 * The web app's writes to a card (docs/API.md "Entries (the web app's writes)", and "Rows" for
 * schedule check-offs): each call sends the card's data ETag as If-Match when given, and refreshes
 * the card's cached data afterwards, so every renderer of the card shows the new state at once
 * (the live feed would bring it too, a moment later). Errors are ApiError with the server's
 * message, which forms show as they come ("This card doesn't take entries for past days.").
 */

import { dayText } from '../../src/common/schedule.js';
import type { AddEntryResult, Entry } from '../../src/common/write-policy.js';
import { api } from './api.js';
import { refreshCard } from './card-data.js';

/** One row as the form sends it, and the answer of `POST …/entries`. */
export type { AddEntryResult, Entry } from '../../src/common/write-policy.js';

const base = (id: string) => `/api/manifests/${encodeURIComponent(id)}`;

/**
 * This device's own IANA time zone as the `X-Klebb-Time-Zone` header of an entry write, so the
 * server takes "today" in it (a phone and a laptop in different zones each get their own today),
 * not in the zone whichever browser reported last. Empty when the browser does not say.
 */
export function zoneHeader(): Record<string, string> {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return tz ? { 'x-klebb-time-zone': tz } : {};
}

async function refreshed<T>(id: string, p: Promise<T>): Promise<T> {
  try {
    return await p;
  } finally {
    // after a refusal too: a 412 means the data moved on, and the form should see the new state
    await refreshCard(id);
  }
}

/** A new key for one write (`Idempotency-Key`): 16 random bytes in hex (also over plain http, where randomUUID is missing). */
export function newWriteKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The key and the time (ISO) of the first try of a write. */
export interface SaveAttempt {
  key: string;
  at: string;
}

/**
 * The tries of one new write (an entry form's save, a dose's tick), each sent with an
 * `Idempotency-Key` (docs/API.md "Sending a write again"): trying the same values again, after
 * an error that may have come after the server stored the write (the answer lost with the
 * connection), sends the same key and the same time stamp, so the server stores it once. Other
 * values, or a try after `done()` (the write succeeded, or the form was closed), get a new key.
 */
export function saveAttempts() {
  let last: (SaveAttempt & { json: string }) | null = null;
  return {
    /** The attempt for `values` (the same one while they stay the same). */
    of(values: unknown): SaveAttempt {
      const json = JSON.stringify(values);
      if (last?.json !== json) last = { json, key: newWriteKey(), at: new Date().toISOString() };
      return { key: last.key, at: last.at };
    },
    done() {
      last = null;
    },
  };
}

/** The key header of a write, or nothing. */
const keyHeader = (key?: string): Record<string, string> => (key ? { 'idempotency-key': key } : {});

/**
 * Adds an entry (upsert or append per the card's maxReadingsPerDay); `key`: its try's
 * Idempotency-Key (saveAttempts), so a save sent again is stored once. @throws ApiError.
 */
export function addEntry(
  id: string,
  entry: Entry,
  ifMatch?: string | null,
  key?: string,
): Promise<AddEntryResult> {
  return refreshed(
    id,
    api<AddEntryResult>(`${base(id)}/entries`, {
      method: 'POST',
      json: { entry },
      ifMatch: ifMatch ?? undefined,
      headers: { ...zoneHeader(), ...keyHeader(key) },
    }),
  );
}

/**
 * Replaces the whole row at `index`. Pass the ETag the data had when the form opened as `ifMatch`
 * (never a later one picked up from live updates) and the row as the form opened it as `expect`:
 * if the rows moved on, the server refuses with 412 instead of writing over another entry.
 * @throws ApiError (412 PRECONDITION_FAILED / ENTRY_CHANGED).
 */
export function replaceEntry(
  id: string,
  index: number,
  entry: Entry,
  ifMatch?: string | null,
  expect?: unknown,
) {
  return refreshed(
    id,
    api<{ ok: true; id: string; index: number; etag: string }>(`${base(id)}/entries/${index}`, {
      method: 'PUT',
      json: expect === undefined ? { entry } : { entry, expect },
      ifMatch: ifMatch ?? undefined,
      headers: zoneHeader(),
    }),
  );
}

/** Deletes the row at `index`; `ifMatch`/`expect` as for replaceEntry. @throws ApiError (412 as replaceEntry). */
export function deleteEntry(id: string, index: number, ifMatch?: string | null, expect?: unknown) {
  return refreshed(
    id,
    api<{ ok: true; id: string; removed: 1; etag: string }>(`${base(id)}/entries/${index}`, {
      method: 'DELETE',
      json: expect === undefined ? undefined : { expect },
      ifMatch: ifMatch ?? undefined,
    }),
  );
}

/**
 * Appends `value` to the array at row path `path` (e.g. a dose check-off). A dated row at the top
 * of a card is checked against this device's today (zoneHeader). @throws ApiError.
 */
export function appendAt(id: string, path: string, value: unknown, ifMatch?: string | null, key?: string) {
  return refreshed(
    id,
    api<{ ok: true; etag: string }>(`${base(id)}/rows`, {
      method: 'POST',
      json: { path, value },
      ifMatch: ifMatch ?? undefined,
      headers: { ...zoneHeader(), ...keyHeader(key) },
    }),
  );
}

/** Removes the element row path `path` selects (e.g. undoing a check-off). @throws ApiError. */
export function removeAt(id: string, path: string, ifMatch?: string | null) {
  return refreshed(
    id,
    api<{ ok: true; etag: string }>(`${base(id)}/rows?path=${encodeURIComponent(path)}`, {
      method: 'DELETE',
      ifMatch: ifMatch ?? undefined,
    }),
  );
}

/**
 * The local time now as an ISO timestamp with the person's offset (`2026-04-20T07:12:00+10:00`),
 * as check-offs record `takenAt`: the calendar day in it is the person's, not UTC's.
 */
export function localTimestamp(now = new Date()): string {
  const pad = (n: number) => String(Math.abs(Math.trunc(n))).padStart(2, '0');
  const off = -now.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  return (
    `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}` +
    `T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}` +
    `${sign}${pad(off / 60)}:${pad(off % 60)}`
  );
}

/** Where a scheduled item sits, as src/common/schedule.ts `scheduleItems` gives it. */
interface ItemRef {
  item: Record<string, unknown>;
  index: number;
  list: 'items' | 'current' | '';
}

/**
 * Records a dose of a scheduled item as taken: appends
 * `{scheduledDate, takenAt, offSchedule?, ...fields}` to the item's `doses` through the rows API.
 * `takenAt` is now, with the person's offset. @throws ApiError.
 */
export function checkOff(
  id: string,
  dosesPath: string,
  scheduledDate: string,
  opts: {
    offSchedule?: boolean;
    fields?: Record<string, unknown>;
    etag?: string | null;
    /** The tick's try (saveAttempts): its key, and its first time as the dose's takenAt. */
    attempt?: SaveAttempt;
  } = {},
) {
  const at = opts.attempt ? new Date(opts.attempt.at) : new Date();
  const dose: Record<string, unknown> = { ...opts.fields, scheduledDate, takenAt: localTimestamp(at) };
  if (opts.offSchedule) dose.offSchedule = true;
  return appendAt(id, dosesPath, dose, opts.etag, opts.attempt?.key);
}

/**
 * Undoes the latest taken dose of an item on `scheduledDate` (a mistaken tick): removes it from
 * the item's `doses` by position, guarded by the data ETag. Resolves false when there is none.
 * @throws ApiError (412 when the data moved on).
 */
export async function undoCheckOff(
  id: string,
  dosesPath: string,
  ref: ItemRef,
  scheduledDate: string,
  etag: string | null,
): Promise<boolean> {
  const doses = Array.isArray(ref.item.doses) ? ref.item.doses : [];
  for (let j = doses.length - 1; j >= 0; j--) {
    const d = doses[j] as Record<string, unknown> | null;
    if (!d || typeof d !== 'object') continue;
    const day =
      typeof d.scheduledDate === 'string'
        ? d.scheduledDate.slice(0, 10)
        : typeof d.takenAt === 'string'
          ? dayText(d.takenAt)
          : null;
    if (day === scheduledDate && typeof d.takenAt === 'string' && d.takenAt.trim() !== '') {
      await removeAt(id, `${dosesPath}[index=${j}]`, etag);
      return true;
    }
  }
  // a day an older card lists in the item's `takenDates`
  const dates = Array.isArray(ref.item.takenDates) ? ref.item.takenDates : [];
  for (let j = dates.length - 1; j >= 0; j--) {
    const v = dates[j];
    const at = typeof v === 'string' ? v : v && typeof v === 'object' ? (v.takenAt ?? v.date) : undefined;
    if (dayText(at) === scheduledDate) {
      await removeAt(id, `${dosesPath.replace(/\.doses$/, '.takenDates')}[index=${j}]`, etag);
      return true;
    }
  }
  return false;
}
