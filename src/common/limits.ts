/**
 * The limits the web app needs to know as well as the server: the browser says them before a
 * person hits them (a counter, a field's maxLength, an order), the server enforces them. Both
 * import them from here; src/limits.ts re-exports them beside the server's own. No Node imports.
 */

/** Longest chat message text accepted from a client, UTF-16 code units. */
export const MAX_CHAT_MESSAGE_CHARS = 100_000;

/** Longest feedback note (`intent`) kept; longer ones are cut, characters (docs/API.md "Feedback"). */
export const MAX_FEEDBACK_INTENT_CHARS = 280;

/** Conversation titles are cut at this many characters (docs/API.md "Conversations"). */
export const MAX_CONVERSATION_TITLE_CHARS = 120;

/** Longest agent token name and passkey nickname, characters (docs/API.md "Passkeys, invites and tokens"). */
export const MAX_TOKEN_NAME_CHARS = 64;
export const MAX_NICKNAME_CHARS = 64;

/**
 * The days a date entered for a person may name, `YYYY-MM-DD` (docs/API.md "Entries"): an entry's
 * day, a row written in their name, a `date` input's value, and a Health Auto Export sample's
 * day. A birth year from 1900 on is plausible; `0000-01-01` or `9999-12-31` is a typo or a zeroed
 * date, and a day outside these is refused, never stored. Fixed dates, not "now ± a margin": a
 * rule that moved with the clock would refuse a row on one day that it took the day before.
 */
export const FIRST_PLAUSIBLE_DAY = '1900-01-01';
/** See FIRST_PLAUSIBLE_DAY. */
export const LAST_PLAUSIBLE_DAY = '2099-12-31';

/** True for a day (`YYYY-MM-DD`) from FIRST_PLAUSIBLE_DAY to LAST_PLAUSIBLE_DAY. */
export function isPlausibleDay(day: string): boolean {
  return day >= FIRST_PLAUSIBLE_DAY && day <= LAST_PLAUSIBLE_DAY;
}

/** `meta.order` assumed for a card without one (cards sort by order, then label). */
export const DEFAULT_CARD_ORDER = 1000;
