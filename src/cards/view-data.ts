/**
 * The batch read of a view: `GET /api/views/:view?data=1` (docs/API.md "Views") answers the card
 * list of `viewCards` with each card's whole data block and data ETag added, so a dashboard of
 * fifty cards draws after one request instead of fifty-one (issue 5 "Speed"). Rows are spliced in
 * as the JSON text the store keeps, never parsed and re-serialised.
 *
 * The JSON text of each card's data is kept between requests, keyed by its data version (which
 * every write changes), so the daily dashboard is not re-assembled from thousands of rows when
 * nothing changed; at most `VIEW_DATA_CACHE_CHARS` characters are kept, least recently used first out.
 */
import { VIEW_DATA_CACHE_CHARS } from '../limits.js';
import type { CardContext } from './card-context.js';
import { viewCards } from './card-order.js';
import { dataEtag } from './etag.js';

interface CachedJson {
  /** The data state it was read at: version, row count and shape. */
  key: string;
  json: string;
}

/** Per card store: card id → its data JSON, in least-recently-used order (a Map keeps insertion order). */
const caches = new WeakMap<CardContext, { byId: Map<string, CachedJson>; chars: number }>();

/** Card `id`'s whole data block as JSON text (`null` when it never stored any) and its ETag. */
export function cardDataJson(ctx: CardContext, id: string): { json: string; etag: string } {
  const st = ctx.store.state(id);
  const key = `${st.version}:${st.rowCount}:${st.shape}`;
  let cache = caches.get(ctx);
  if (!cache) {
    cache = { byId: new Map(), chars: 0 };
    caches.set(ctx, cache);
  }
  const hit = cache.byId.get(id);
  if (hit) {
    cache.byId.delete(id);
    if (hit.key === key) {
      cache.byId.set(id, hit);
      return { json: hit.json, etag: dataEtag(st.version) };
    }
    cache.chars -= hit.json.length;
  }
  const json = ctx.store.readJson(id) ?? 'null';
  if (json.length <= VIEW_DATA_CACHE_CHARS) {
    cache.byId.set(id, { key, json });
    cache.chars += json.length;
    for (const [oldId, old] of cache.byId) {
      if (cache.chars <= VIEW_DATA_CACHE_CHARS) break;
      cache.byId.delete(oldId);
      cache.chars -= old.json.length;
    }
  }
  return { json, etag: dataEtag(st.version) };
}

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
    const { json, etag } = cardDataJson(ctx, c.id);
    return `${head.slice(0, -1)},"data":${json},"etag":${JSON.stringify(etag)}}`;
  });
  return `{"cards":[${parts.join(',')}],"errors":${JSON.stringify(errors)}}`;
}
