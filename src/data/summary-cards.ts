/**
 * Which cards the doctor's summary covers (`GET /api/summary?cards=…`): the ids listed, in the
 * order given, each once; every enabled card when the list is left out.
 */
import type { Card, CardRegistry } from '../cards/card-registry.js';
import { badRequest, notFound } from '../errors.js';

/**
 * The cards named by `cards` (comma-separated ids; spaces around an id and empty places between
 * commas are not ids), or every enabled card when `cards` is undefined.
 * @throws 400 naming `query.cards` when the parameter is there but names no card (`cards=`,
 *   `cards=,`): a list with nothing ticked is a mistake, not "no cards" nor "every card", which a
 *   printed summary would show without saying so.
 * @throws 404 CARD_NOT_FOUND naming every id that is not a card (`ids`, the first also as `id`),
 *   so a saved link to a card since deleted or renamed says all that must change at once.
 */
export function summaryCards(registry: CardRegistry, cards: string | undefined): Card[] {
  if (cards === undefined) return registry.all().filter((c) => c.manifest.meta.enabled !== false);
  const ids = [
    ...new Set(
      cards
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0)
    throw badRequest('"cards" names no card: list card ids, or leave it out for every enabled card', [
      { path: 'query.cards', message: 'names no card' },
    ]);
  const unknown = ids.filter((id) => registry.get(id) === undefined);
  if (unknown.length === 1)
    throw notFound(`no card with id "${unknown[0]}"`, 'CARD_NOT_FOUND', { id: unknown[0], ids: unknown });
  if (unknown.length > 1)
    throw notFound(`no cards with ids ${unknown.map((id) => `"${id}"`).join(', ')}`, 'CARD_NOT_FOUND', {
      id: unknown[0],
      ids: unknown,
    });
  return ids.map((id) => registry.get(id) as Card);
}
