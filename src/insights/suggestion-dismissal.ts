/**
 * The card ids of a combined-view suggestion being dismissed (`POST
 * /api/cc-suggestions/:category/dismiss`, body `{cardIds}`), checked before anything is kept: a
 * suggestion names SUGGEST_MIN_CARDS or more distinct cards, so a list that is shorter, longer than
 * MAX_SUGGESTION_DISMISS_IDS, repeats an id, or holds something that cannot be a card id (not a
 * card now loaded, nor shaped like a card id) can match no suggestion: it is refused with 400
 * naming the list or the item, and nothing is recorded.
 */
import { CARD_ID_PATTERN } from '../cards/card-id.js';
import { badRequest } from '../errors.js';
import { MAX_CARD_ID_CHARS, MAX_SUGGESTION_DISMISS_IDS } from '../limits.js';
import { SUGGEST_MIN_CARDS } from './combination-suggestions.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const refuse = (path: string, message: string) =>
  badRequest(`${path.slice(5)} ${message}`, [{ path, message }]);

/**
 * The body's `cardIds` (see the file comment). `loaded` says whether a card with that id is
 * loaded now (a card file may carry an id the create rules would not take).
 * @throws 400 BAD_REQUEST naming `body.cardIds` or `body.cardIds[i]`.
 */
export function dismissedCardIds(body: unknown, loaded: (id: string) => boolean): string[] {
  const ids = isObject(body) ? body.cardIds : undefined;
  if (ids === undefined) throw refuse('body.cardIds', 'is required');
  if (!Array.isArray(ids) || ids.length === 0)
    throw refuse('body.cardIds', 'must be a non-empty list of card ids');
  if (ids.length < SUGGEST_MIN_CARDS || ids.length > MAX_SUGGESTION_DISMISS_IDS)
    throw refuse(
      'body.cardIds',
      `must list the ${SUGGEST_MIN_CARDS} to ${MAX_SUGGESTION_DISMISS_IDS} cards of the suggestion (got ${ids.length})`,
    );
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    const at = `body.cardIds[${i}]`;
    if (typeof id !== 'string' || id === '') throw refuse(at, 'must be a card id (a non-empty string)');
    if (!loaded(id) && (id.length > MAX_CARD_ID_CHARS || !CARD_ID_PATTERN.test(id)))
      throw refuse(at, 'is not a card id');
    if (seen.has(id)) throw refuse(at, `repeats "${id}"`);
    seen.add(id);
  });
  return ids as string[];
}
