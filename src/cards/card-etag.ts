/**
 * The ETag of a whole card: `GET /api/manifests/:id` answers with the card's file and its data,
 * so its tag must change when either does, or two people changing the card's settings from two
 * devices would each overwrite the other's change unseen (a patch of the file leaves the data
 * version as it was). The tag is `"v<n>"`, `n` the newest change of the card, to its file or its
 * data (change ids only grow, so any later change makes a greater one).
 *
 * A card whose file the change log never recorded (a file put in the data folder by hand, or
 * present at the first start) has no file change to number: its tag is `"c-"` and 16 hex digits,
 * a digest of the file's bytes and the data version, so a hand edit made while Klebb was stopped
 * (which nothing records) still moves it. Once any change of its file is recorded, the tag is
 * `"v<n>"` again. After a data write this run made (a row added from the app, a push), while
 * the file is still the one it was written over, the tag is that write's `"v<n>"`, the tag the
 * write answered with: a client sending it to a later patch of the card is not refused for a
 * change nobody made. A restart forgets this (an edit made while stopped could not be told).
 */

import type { CardContext } from './card-context.js';
import { dataEtag } from './etag.js';
import { contentHash } from './manifest-file.js';

/** The card's ETag: its data version or its file's newest change, or its file's digest (above). */
export function cardEtag(ctx: CardContext, id: string): string {
  const version = ctx.store.state(id).version;
  const fileChange = ctx.store.changes.newestManifestChange(id);
  const card = ctx.registry.get(id);
  if (fileChange > 0 || !card) return dataEtag(Math.max(version, fileChange));
  if (version > 0 && ctx.dataWrites?.get(id) === `${version} ${card.hash}`) return dataEtag(version);
  return `"c-${contentHash(`${card.hash}\n${version}`).slice(0, 16)}"`;
}

/**
 * The tags an If-Match of a write to the card's data may hold: its data ETag (from a read of the
 * data or its rows), then the whole card's (from `GET /api/manifests/:id`): either still holding
 * means the rows are those the client read.
 */
export function dataWriteTags(ctx: CardContext, id: string): string[] {
  return [dataEtag(ctx.store.state(id).version), cardEtag(ctx, id)];
}

/**
 * Notes that card `id`'s data reached `version` by a write of this run, over the card's file as
 * loaded now (see cardEtag). Called for every `data-changed` event; a card not loaded is passed over.
 */
export function noteDataWrite(ctx: CardContext, id: string, version: number): void {
  const card = ctx.registry.get(id);
  if (card) ctx.dataWrites?.set(id, `${version} ${card.hash}`);
}
