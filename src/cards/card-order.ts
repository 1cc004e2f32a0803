/**
 * Card order, master enable switch, and the per-view card lists (docs/API.md "Reorder
 * payload"; docs/API.md "/api/views/:view" and "Settings API").
 */
import path from 'node:path';
import { clipGraphemes } from '../common/graphemes.js';
import { nameSome } from '../common/text.js';
import { VIEW_NAMES } from '../common/view-types.js';
import { badRequest, conflict, KlebbError, notFound } from '../errors.js';
import {
  DEFAULT_CARD_ORDER,
  MAX_CARD_ID_CHARS,
  MAX_IDS_NAMED,
  MAX_REORDER_IDS,
  REORDER_STEP,
} from '../limits.js';
import { assertFileWritable, type CardContext, requireCard, writeCardManifest } from './card-context.js';
import { compareCards } from './card-crud.js';
import { cardEtag } from './card-etag.js';
import { CardFileBatch } from './card-file-batch.js';
import type { Card } from './card-registry.js';
import { assertIfMatch } from './etag.js';
import { contentHash, serializeManifest } from './manifest-file.js';
import { orderEtag } from './order-etag.js';
import { sanitizeAtLoad } from './validate-manifest.js';

/**
 * `POST /api/manifests/reorder`: the listed cards get `meta.order` 100, 200, 300 … in list order;
 * unlisted cards are untouched. More than MAX_REORDER_IDS ids → 400 (the route's schema refuses
 * them first); an id listed twice → 400; any unknown id → 404 naming the first few (`ids`) and
 * counting them all (`count`); nothing is written then. Linear in the list's length. A card whose
 * order already has its value is not rewritten, so posting the same order twice changes no file.
 * Files are written one by one, each only over the bytes last read (CardFileBatch); if one is
 * refused or fails, or recording the change fails, the ones already written are put back.
 * `opts.ifMatch` is the request's If-Match, compared with the order's tag (order-etag.ts): a list
 * decided on an order another device changed since is refused whole.
 * @returns `{ok, updated, etag}`: the ids whose file changed, the order's new tag; 400
 *   BAD_IF_MATCH, 412 PRECONDITION_FAILED (etag.ts), nothing written.
 */
export function reorderCards(
  ctx: CardContext,
  order: unknown,
  opts: { ifMatch?: string } = {},
): { ok: true; updated: string[]; etag: string } {
  if (!Array.isArray(order) || order.some((x) => typeof x !== 'string')) {
    throw badRequest('order must be an array of card ids', [
      { path: 'order', message: 'must be an array of strings' },
    ]);
  }
  const ids = order as string[];
  if (ids.length > MAX_REORDER_IDS) {
    throw badRequest(`order lists ${ids.length} card ids; at most ${MAX_REORDER_IDS}`, [
      { path: 'order', message: `must be a list of at most ${MAX_REORDER_IDS} card ids` },
    ]);
  }
  const seen = new Set<string>();
  const dupes = new Set<string>();
  for (const id of ids) (seen.has(id) ? dupes : seen).add(id);
  if (dupes.size) {
    throw badRequest(`order lists ${nameSome([...dupes], MAX_IDS_NAMED)} more than once`, [
      { path: 'order', message: 'duplicate ids' },
    ]);
  }
  // before the ids are looked up: a card deleted on another device is that order's change too
  if (opts.ifMatch !== undefined) assertIfMatch(opts.ifMatch, orderEtag(ctx), 'card order');
  const unknown = ids.filter((id) => !ctx.registry.has(id));
  if (unknown.length) {
    const shown = unknown.slice(0, MAX_IDS_NAMED);
    throw notFound(
      `unknown card id${unknown.length > 1 ? 's' : ''}: ${nameSome(unknown, MAX_IDS_NAMED)}`,
      'CARD_NOT_FOUND',
      { ids: shown.map((id) => clipGraphemes(id, MAX_CARD_ID_CHARS)), count: unknown.length },
    );
  }
  const planned: { card: Card; raw: Card['raw']; text: string }[] = [];
  ids.forEach((id, i) => {
    const card = requireCard(ctx, id);
    const want = (i + 1) * REORDER_STEP;
    if (card.raw.meta?.order === want) return;
    assertFileWritable(ctx, card);
    const raw = { ...card.raw, meta: { ...card.raw.meta, order: want } };
    planned.push({ card, raw, text: serializeManifest(raw) });
  });
  const batch = new CardFileBatch();
  try {
    for (const p of planned) {
      // never over a hand edit saved since the file was read: it is kept, the reorder undone
      const outcome = batch.apply({ file: p.card.file, expectedHash: p.card.hash, text: p.text });
      if (outcome !== 'committed') {
        ctx.loader.safeLoad(p.card.file);
        throw conflict(
          `the file of card "${p.card.id}" changed on disk while the cards were reordered; nothing was reordered, try again`,
          outcome === 'missing' ? 'FILE_MISSING' : 'FILE_CHANGED',
        );
      }
    }
    ctx.store.transaction(() => {
      for (const p of planned) {
        ctx.store.changes.recordManifest(
          p.card.id,
          path.basename(p.card.file),
          serializeManifest(p.card.raw),
          p.text,
        );
      }
    });
  } catch (err) {
    batch.takeBack();
    throw err;
  }
  for (const p of planned) {
    ctx.loader.wroteFile(p.card.file);
    const { manifest } = sanitizeAtLoad(p.raw);
    ctx.registry.put({
      ...p.card,
      raw: p.raw,
      manifest: manifest as Card['manifest'],
      hash: contentHash(p.text),
    });
    ctx.emit({ type: 'card-changed', id: p.card.id });
  }
  return { ok: true, updated: planned.map((p) => p.card.id), etag: orderEtag(ctx) };
}

/**
 * Master enable/disable (docs/API.md Settings API): sets `meta.enabled`; a disabled card
 * leaves every view but Settings and still accepts writes. Writes nothing when already so.
 * `ifMatch` is the request's If-Match header, compared with the card's ETag as a patch of the
 * card is: the switch changes the card's file, so a client that sends a precondition must not
 * have it ignored.
 * @returns `{ok, enabled}`; 404 unknown id; 400 BAD_IF_MATCH, 412 PRECONDITION_FAILED (etag.ts).
 */
export function setCardEnabled(
  ctx: CardContext,
  id: string,
  enabled: boolean,
  opts: { ifMatch?: string } = {},
): { ok: true; id: string; enabled: boolean } {
  const card = requireCard(ctx, id);
  if (opts.ifMatch !== undefined) assertIfMatch(opts.ifMatch, cardEtag(ctx, id), 'card');
  const current = card.raw.meta?.enabled !== false;
  if (current !== enabled) {
    writeCardManifest(ctx, card, { ...card.raw, meta: { ...card.raw.meta, enabled } });
  }
  return { ok: true, id, enabled };
}

/**
 * `GET /api/views/:view`: cards with `meta.enabled !== false`, `meta[view].enabled === true` and a
 * `component`, sorted by the view's `order` (else `meta.order`, else DEFAULT_CARD_ORDER), then label.
 * @throws 404 "unknown view".
 */
export function viewCards(ctx: CardContext, view: string) {
  if (!(VIEW_NAMES as readonly string[]).includes(view)) {
    throw new KlebbError(404, 'UNKNOWN_VIEW', `unknown view "${view}" (one of ${VIEW_NAMES.join(', ')})`);
  }
  const cards = ctx.registry
    .all()
    .filter((c) => {
      const vc = c.manifest.meta[view] as Record<string, unknown> | undefined;
      return c.manifest.meta.enabled !== false && vc?.enabled === true && typeof vc.component === 'string';
    })
    .map((c) => ({ card: c, viewConfig: c.manifest.meta[view] as Record<string, unknown> }))
    .sort((a, b) => {
      const oa = typeof a.viewConfig.order === 'number' ? a.viewConfig.order : undefined;
      const ob = typeof b.viewConfig.order === 'number' ? b.viewConfig.order : undefined;
      if (oa !== undefined || ob !== undefined) {
        const ma = oa ?? (a.card.manifest.meta.order as number | undefined) ?? DEFAULT_CARD_ORDER;
        const mb = ob ?? (b.card.manifest.meta.order as number | undefined) ?? DEFAULT_CARD_ORDER;
        if (ma !== mb) return ma - mb;
      }
      return compareCards(a.card, b.card);
    })
    .map(({ card, viewConfig }) => ({ id: card.id, meta: card.manifest.meta, viewConfig }));
  return { cards, errors: ctx.registry.errors() };
}

/** One card of the Settings list. */
interface SettingsCardEntry {
  id: string;
  label: unknown;
  emoji: unknown;
  description: string | null;
  enabled: boolean;
  hasData: boolean;
}

/**
 * `GET /api/settings/cards`: every card with its enable state, in the order shown, and the
 * order's ETag (`etag`, also the answer's ETag header) for the If-Match of a reorder:
 * `{cards:[{id, label, emoji, description, enabled, hasData}], etag}`.
 */
export function settingsCards(ctx: CardContext): { cards: SettingsCardEntry[]; etag: string } {
  const states = ctx.store.allStates();
  const cards = ctx.registry
    .all()
    .sort(compareCards)
    .map((c) => {
      const st = states.get(c.id);
      return {
        id: c.id,
        label: c.manifest.meta.label,
        emoji: c.manifest.meta.emoji ?? null,
        description: typeof c.manifest.description === 'string' ? c.manifest.description : null,
        enabled: c.manifest.meta.enabled !== false,
        hasData: st !== undefined && st.rowCount > 0,
      };
    });
  return { cards, etag: orderEtag(ctx) };
}
