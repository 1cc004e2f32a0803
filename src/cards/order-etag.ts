/**
 * The ETag of the card order: what `POST /api/manifests/reorder` rewrites is the order the person
 * saw, so its precondition is that order itself, not any one card's version. Two devices that
 * read the list and each move a card would otherwise have the second's whole list written over
 * the first's move unseen. The tag is a digest of the card ids in the order they are shown
 * (compareCards: `meta.order`, then label, then id): a reorder, a card added or deleted, or a
 * hand edit of an order moves it; a change that leaves the order as it was (a row, a label of a
 * card whose place it does not change) keeps it. Written `"o-"` and 16 hex digits.
 */

import type { CardContext } from './card-context.js';
import { compareCards } from './card-crud.js';
import { contentHash } from './manifest-file.js';

/** The current order's strong ETag, e.g. `"o-3f2a9c0d11b7e4a5"`. */
export function orderEtag(ctx: CardContext): string {
  const ids = ctx.registry
    .all()
    .sort(compareCards)
    .map((c) => c.id);
  return `"o-${contentHash(ids.join('\n')).slice(0, 16)}"`;
}
