/**
 * The batch read of a view: `GET /api/views/:view?data=1|recent` (docs/API.md "Views") answers
 * the card list of `viewCards` with each card's data block and data ETag added, so a dashboard of
 * fifty cards draws after one request instead of fifty-one. Rows are spliced in
 * as the JSON text the store keeps, never parsed and re-serialised.
 *
 * `data=recent` sends a `generic-card` (or the older `metric-card`) only its last
 * `VIEW_RECENT_ROWS` rows when it has more and its rows are in day order (`rowsInDayOrder`): the
 * card then carries `dataFrom` (the array index of the first row sent) and `rowCount` (the whole
 * array's length). Today draws from those; the page reads the whole block when it needs older rows
 * (web/lib/card-data.ts). Every other card, and every card under `data=1`, gets its whole block.
 *
 * The JSON text of each card's data is kept between requests, keyed by its data version (which
 * every write changes), and so is the whole answer of each view, keyed by its card list and every
 * card's version: the daily dashboard is neither re-assembled from thousands of rows nor
 * re-encoded when nothing changed. At most `VIEW_DATA_CACHE_CHARS` characters of card data are
 * kept, least recently used first out.
 */
import { VIEW_DATA_CACHE_CHARS, VIEW_RECENT_ROWS } from '../limits.js';
import type { CardContext } from './card-context.js';
import { viewCards } from './card-order.js';
import { dataEtag } from './etag.js';

/** `data=1`: every card's whole block; `recent`: generic cards' last rows (see the file comment). */
export type ViewDataMode = 'whole' | 'recent';

/** Renderers drawn from a card's latest rows, which may get a tail under `data=recent`. */
const TAIL_RENDERERS = new Set(['generic-card', 'metric-card']);

/** One kept data block: the state it was read at and its JSON text. */
export interface CachedJson {
  /** The data state it was read at: version, row count and shape (and the tail's date field). */
  key: string;
  json: string;
  /** Array index of the first row in `json` (0: the whole block). */
  from: number;
}

/**
 * The kept JSON of one home's cards and views (see the file comment), held by its CardContext
 * (`ctx.views`, made by `newViewCache()`), so two homes in one process never share one.
 */
export interface ViewCache {
  /** Card id (or `recent\n<id>`) → its data JSON, in least-recently-used order (a Map keeps insertion order). */
  byId: Map<string, CachedJson>;
  chars: number;
  /** The last answer per view and mode: its key and bytes. */
  answers: Map<string, { key: string; body: Buffer }>;
}

/** An empty view cache, for a new CardContext. */
export function newViewCache(): ViewCache {
  return { byId: new Map(), chars: 0, answers: new Map() };
}

/** The cached entry `slot` when its key is `key` (marked most recently used), else undefined (and dropped). */
function cached(cache: ViewCache, slot: string, key: string): CachedJson | undefined {
  const hit = cache.byId.get(slot);
  if (!hit) return undefined;
  cache.byId.delete(slot);
  if (hit.key === key) {
    cache.byId.set(slot, hit);
    return hit;
  }
  cache.chars -= hit.json.length;
  return undefined;
}

function remember(cache: ViewCache, slot: string, entry: CachedJson): void {
  if (entry.json.length > VIEW_DATA_CACHE_CHARS) return;
  cache.byId.set(slot, entry);
  cache.chars += entry.json.length;
  for (const [oldSlot, old] of cache.byId) {
    if (cache.chars <= VIEW_DATA_CACHE_CHARS) break;
    cache.byId.delete(oldSlot);
    cache.chars -= old.json.length;
  }
}

/** Card `id`'s whole data block as JSON text (`null` when it never stored any) and its ETag. */
export function cardDataJson(ctx: CardContext, id: string): { json: string; etag: string } {
  const st = ctx.store.state(id);
  const key = `${st.version}:${st.rowCount}:${st.shape}`;
  const cache = ctx.views;
  let hit = cached(cache, id, key);
  if (!hit) {
    hit = { key, json: ctx.store.readJson(id) ?? 'null', from: 0 };
    remember(cache, id, hit);
  }
  return { json: hit.json, etag: dataEtag(st.version) };
}

/**
 * Card `id`'s last `VIEW_RECENT_ROWS` rows as a JSON array text with `from` (the array index of
 * the first), when it is an array card of more rows than that whose rows are in day order by
 * `dateField`; otherwise its whole block (`from` 0). `rowCount` is the whole array's length.
 */
export function cardRecentJson(
  ctx: CardContext,
  id: string,
  dateField: string,
): { json: string; etag: string; from: number; rowCount: number } {
  const st = ctx.store.state(id);
  if (st.shape !== 'array' || st.rowCount <= VIEW_RECENT_ROWS)
    return { ...cardDataJson(ctx, id), from: 0, rowCount: st.rowCount };
  const slot = `recent\n${id}`;
  const key = `${st.version}:${st.rowCount}:${dateField}`;
  const cache = ctx.views;
  let hit = cached(cache, slot, key);
  if (!hit) {
    hit = ctx.store.rowsInDayOrder(id, dateField)
      ? {
          key,
          json: `[${ctx.store.readTailJson(id, VIEW_RECENT_ROWS).join(',')}]`,
          from: st.rowCount - VIEW_RECENT_ROWS,
        }
      : { key, json: cardDataJson(ctx, id).json, from: 0 };
    remember(cache, slot, hit);
  }
  return { json: hit.json, etag: dataEtag(st.version), from: hit.from, rowCount: st.rowCount };
}

/** The date field a generic card reads its rows by (`view.dateField`, default `date`). */
function dateFieldOf(viewConfig: Record<string, unknown>): string {
  const f = viewConfig.dateField;
  return typeof f === 'string' && f.trim() !== '' ? f : 'date';
}

/**
 * `{cards: [{id, meta, viewConfig, data, etag, dataFrom?, rowCount?}], errors}` as UTF-8 JSON
 * bytes: `data` exactly as `GET /api/manifests/:id/data` gives it (null when the card never stored
 * any), or under `recent` a generic card's last rows with `dataFrom`/`rowCount`; `etag` its
 * `"v<n>"`. Each card's data and ETag are read together (one synchronous pass: no write can fall
 * between them). The same card list and versions give the same bytes, kept from the last call.
 * @throws 404 UNKNOWN_VIEW (as `viewCards`).
 */
export function viewJsonWithData(ctx: CardContext, view: string, mode: ViewDataMode = 'whole'): Buffer {
  const { cards, errors } = viewCards(ctx, view);
  const parts: string[] = [];
  const keys: string[] = [];
  for (const c of cards) {
    const head = JSON.stringify(c);
    const vc = c.viewConfig as Record<string, unknown>;
    if (mode === 'recent' && TAIL_RENDERERS.has(String(vc.component))) {
      const { json, etag, from, rowCount } = cardRecentJson(ctx, c.id, dateFieldOf(vc));
      const tail = from > 0 ? `,"dataFrom":${from},"rowCount":${rowCount}` : '';
      parts.push(`${head.slice(0, -1)},"data":${json},"etag":${JSON.stringify(etag)}${tail}}`);
      keys.push(`${head}\n${etag}\n${from}`);
    } else {
      const { json, etag } = cardDataJson(ctx, c.id);
      parts.push(`${head.slice(0, -1)},"data":${json},"etag":${JSON.stringify(etag)}}`);
      keys.push(`${head}\n${etag}`);
    }
  }
  const errorsJson = JSON.stringify(errors);
  const key = `${keys.join('\n')}\n${errorsJson}`;
  const cache = ctx.views;
  const slot = `${view}\n${mode}`;
  const last = cache.answers.get(slot);
  if (last && last.key === key) return last.body;
  const body = Buffer.from(`{"cards":[${parts.join(',')}],"errors":${errorsJson}}`);
  cache.answers.set(slot, { key, body });
  return body;
}
