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

/** `meta.order` assumed for a card without one (cards sort by order, then label). */
export const DEFAULT_CARD_ORDER = 1000;
