/**
 * The batch read of a view: `GET /api/views/:view?data=1` (docs/API.md "Views") answers the card
 * list of `viewCards` with each card's whole data block and data ETag added, so a dashboard of
 * fifty cards draws after one request instead of fifty-one (issue 5 "Speed"). Rows are spliced in
 * as the JSON text the store keeps, never parsed and re-serialised.
 */
import type { CardContext } from './card-context.js';
import { viewCards } from './card-order.js';
import { dataEtag } from './etag.js';

/**
 * `{cards: [{id, meta, viewConfig, data, etag}], errors}` as JSON text: `data` exactly as
 * `GET /api/manifests/:id/data` gives it (null when the card never stored any), `etag` its
 * `"v<n>"`. Each card's data and ETag are read together (one synchronous pass: no write can fall
 * between them).
 * @throws 404 UNKNOWN_VIEW (as `viewCards`).
 */
export function viewJsonWithData(ctx: CardContext, view: string): string {
  const { cards, errors } = viewCards(ctx, view);
  const parts = cards.map((c) => {
    const head = JSON.stringify(c);
    const data = ctx.store.readJson(c.id) ?? 'null';
    const etag = JSON.stringify(dataEtag(ctx.store.state(c.id).version));
    return `${head.slice(0, -1)},"data":${data},"etag":${etag}}`;
  });
  return `{"cards":[${parts.join(',')}],"errors":${JSON.stringify(errors)}}`;
}
