/**
 * The ETag of a whole card: `GET /api/manifests/:id` answers with the card's file and its data,
 * so its tag must change when either does, or two people changing the card's settings from two
 * devices would each overwrite the other's change unseen (a patch of the file leaves the data
 * version as it was). The tag is `"v<n>"`, `n` the newest change of the card, to its file or its
 * data (change ids only grow, so any later change makes a greater one).
 */

import type { CardContext } from './card-context.js';
import { dataEtag } from './etag.js';

/** The card's ETag: its data version or its file's newest change, whichever is later. */
export function cardEtag(ctx: CardContext, id: string): string {
  return dataEtag(Math.max(ctx.store.state(id).version, ctx.store.changes.newestManifestChange(id)));
}

/**
 * The tags an If-Match of a write to the card's data may hold: its data ETag (from a read of the
 * data or its rows), then the whole card's (from `GET /api/manifests/:id`): either still holding
 * means the rows are those the client read.
 */
export function dataWriteTags(ctx: CardContext, id: string): string[] {
  return [dataEtag(ctx.store.state(id).version), cardEtag(ctx, id)];
}
