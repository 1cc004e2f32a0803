/**
 * The message a phone receives for one card's reminders due in the same minute:
 * `{type: "single"|"coalesced", slot, items: [...]}`, each item with what to show and where a tap
 * goes (`url`, same origin). A `private` item carries the instance name and "You have a
 * reminder." as its title and body, which is what the lock screen shows; its real words ride
 * in `realTitle`/`realBody` (end-to-end encrypted) for the app to show once opened. The encrypted
 * message must fit MAX_PUSH_PAYLOAD_BYTES: items beyond what fits are left out and counted in
 * `more`, long texts are cut.
 */
import { createHash } from 'node:crypto';
import { clipGraphemes } from '../common/graphemes.js';
import { MAX_PUSH_PAYLOAD_BYTES } from '../limits.js';

/** Generic lock-screen body of a private reminder. */
export const PRIVATE_BODY = 'You have a reminder.';

/** One reminder due now, its placeholders already filled. */
export interface DueReminder {
  /** `<card id>#<item id>`. */
  id: string;
  cardId: string;
  cardLabel: string;
  cardEmoji: string | null;
  /** `HH:MM` of the slot. */
  time: string;
  privacy: 'private' | 'public';
  title: string;
  body: string;
  /** Card and intent of the item's `action` (default: its own card, or a `schedule_due`'s schedule card; view). */
  openCard: string;
  intent?: 'view' | 'log';
  /** The day a tap opens (`YYYY-MM-DD`, the slot's day) when it is not simply today: a `schedule_due`'s doses. */
  day?: string;
  /** For `schedule_due`: the items due now and the ones missed earlier today. */
  reminders?: { due_now: string[]; missed_earlier: string[] };
}

/** The message object (before JSON and encryption). */
export interface ReminderPayload {
  type: 'single' | 'coalesced';
  slot: string | null;
  test?: boolean;
  items: Record<string, unknown>[];
  more?: number;
}

/** An opaque tag of an id: `klebb-<12 hex of sha256>` (also a valid Topic header). */
export function opaqueTag(id: string): string {
  return `klebb-${createHash('sha256').update(id).digest('hex').slice(0, 12)}`;
}

/**
 * The same-origin deep link of a reminder: `/?card=<id>[&action=<intent>]`, or with `day`
 * `/day/<day>?card=…`: a reminder tapped after midnight still opens the day it was for (the app
 * shows today's page under `/` when that day is today).
 */
export function deepLink(cardId: string, intent?: string, day?: string): string {
  const q = new URLSearchParams({ card: cardId });
  if (intent && intent !== 'view') q.set('action', intent);
  return `${day ? `/day/${day}` : '/'}?${q.toString()}`;
}

function cut(s: string, max: number): string {
  return clipGraphemes(s, max);
}

function itemOf(r: DueReminder, instanceName: string, textMax: number): Record<string, unknown> {
  const title = cut(r.title, textMax);
  const body = cut(r.body, textMax);
  const priv = r.privacy === 'private';
  return {
    id: r.id,
    time: r.time,
    privacy: r.privacy,
    title: priv ? instanceName : title,
    body: priv ? PRIVATE_BODY : body,
    realTitle: title,
    realBody: body,
    cardId: r.cardId,
    cardLabel: r.cardLabel,
    cardEmoji: r.cardEmoji,
    url: deepLink(r.openCard, r.intent, r.day),
    tag: opaqueTag(r.id),
    ...(r.reminders ? { reminders: r.reminders } : {}),
  };
}

/**
 * The JSON text of the message for `due`, made to fit: `measure(json)` returns its encrypted
 * size in bytes. Tries every item at full length, then shorter texts, then fewer items.
 * @returns the JSON and its measured size.
 */
export function fitPayload(
  due: DueReminder[],
  slot: string | null,
  instanceName: string,
  measure: (json: string) => number,
  opts: { test?: boolean; max?: number } = {},
): { json: string; size: number; included: number } {
  const max = opts.max ?? MAX_PUSH_PAYLOAD_BYTES;
  let last = { json: '', size: Number.POSITIVE_INFINITY, included: 0 };
  for (let n = due.length; n >= 1; n--) {
    for (const textMax of [1000, 200, 80, 40]) {
      const payload: ReminderPayload = {
        type: due.length > 1 ? 'coalesced' : 'single',
        slot,
        ...(opts.test ? { test: true } : {}),
        items: due.slice(0, n).map((r) => itemOf(r, instanceName, textMax)),
        ...(n < due.length ? { more: due.length - n } : {}),
      };
      const json = JSON.stringify(payload);
      const size = measure(json);
      last = { json, size, included: n };
      if (size <= max) return last;
    }
  }
  return last;
}
