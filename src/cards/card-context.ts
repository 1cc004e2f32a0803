/**
 * What every card operation needs: the data folder, the registry, the row store, the loader
 * (to pick up a hand edit before writing over it) and the event sink. Plus the two shared steps
 * of every write: find the card (404) and write its manifest file atomically.
 */
import fs from 'node:fs';
import path from 'node:path';
import { conflict, notFound } from '../errors.js';
import { writeTemp } from '../home/atomic-write.js';
import { commitIfUnchanged } from '../home/commit-file.js';
import { MAX_CARD_FILE_BYTES } from '../limits.js';
import type { CardDataStore } from '../store/card-data-store.js';
import type { CardEvent, CardLoader } from './card-loader.js';
import type { Card, CardRegistry } from './card-registry.js';
import { contentHash, type ManifestBody, serializeManifest } from './manifest-file.js';
import { loadNotes, sanitizeAtLoad } from './validate-manifest.js';
import type { ViewCache } from './view-data.js';

/** Dependencies of the card operations. */
export interface CardContext {
  dataDir: string;
  registry: CardRegistry;
  store: CardDataStore;
  loader: CardLoader;
  emit: (e: CardEvent) => void;
  /** The JSON kept between view reads of this home (view-data.ts; `newViewCache()`). */
  views: ViewCache;
  /** File stamps (inode, size, mtime in ns) of manifests whose bytes were last seen equal to the card's. */
  stamps?: Map<string, string>;
  /**
   * Data writes made by this run: card id → `<data version> <file digest>` of the latest, so the
   * tag of a card whose file changes are not recorded is the write's own (card-etag.ts).
   */
  dataWrites?: Map<string, string>;
  /** Runs after a card is created and announced (the HAE service fills a subscribed card from its stored samples). Must not throw. */
  onCreate?: (id: string) => void;
  /**
   * Runs inside the transaction of the undo of change set `setId`, once its rows are put back
   * (the HAE service gives the samples a push restated their old values). May throw: nothing is
   * undone then.
   */
  onUndo?: (setId: number) => void;
  /** The person's time zone (the one they reported, else undefined: the server's), for "today" of a write. */
  timeZone?: () => string | undefined;
}

/** The stamp of `file`, or undefined when it is gone or cannot be looked at (a link loop, no permission). */
function stampOf(file: string): string | undefined {
  try {
    const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeNs}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The card with this id as loaded, for reads: never re-reads its file, so a read never changes
 * what is loaded nor sends a live event (the file watcher brings hand edits in).
 * @throws NotFound 404 when no such card is loaded.
 */
export function findCard(ctx: CardContext, id: string): Card {
  const card = ctx.registry.get(id);
  if (!card) throw notFound(`no card with id "${id}"`, 'CARD_NOT_FOUND', { id });
  return card;
}

/**
 * For writes: the card with this id, re-read from disk first when its file changed behind our back (a hand
 * edit the watcher has not delivered yet must not be overwritten).
 * @throws NotFound 404 when no such card is loaded.
 */
export function requireCard(ctx: CardContext, id: string): Card {
  let card = ctx.registry.get(id);
  const stamp = card ? stampOf(card.file) : undefined;
  // fast path: the file has not been touched since its bytes last matched (a stat, no read)
  if (card && stamp !== undefined && ctx.stamps?.get(card.file) === stamp) return card;
  if (card) {
    let onDisk: string | undefined;
    try {
      // a file grown past what a card file may be is not read: the loader reports it
      if (fs.statSync(card.file).size <= MAX_CARD_FILE_BYTES)
        onDisk = contentHash(fs.readFileSync(card.file));
    } catch {
      onDisk = undefined;
    }
    if (onDisk !== card.hash) {
      ctx.loader.safeLoad(card.file);
      card = ctx.registry.get(id);
    } else if (stamp !== undefined) {
      ctx.stamps?.set(card.file, stamp);
    }
  }
  if (!card) throw notFound(`no card with id "${id}"`, 'CARD_NOT_FOUND', { id });
  return card;
}

/**
 * Refuses to write over a manifest file that is gone (deleted by hand, or mid-save by an editor)
 * or holds a half-finished hand edit (invalid JSON): writing would resurrect a deleted card or
 * throw away the person's edit. 409, try again once the file is back or fixed.
 */
export function assertFileWritable(ctx: CardContext, card: Card): void {
  if (!fs.existsSync(card.file)) {
    throw conflict(`the file of card "${card.id}" is missing on disk; not writing it back`, 'FILE_MISSING');
  }
  assertFileLoads(ctx, card);
}

/**
 * Refuses to replace or remove a manifest file that holds a hand edit the loader could not load
 * (a half-finished edit): 409 FILE_INVALID, try again once it is fixed.
 */
export function assertFileLoads(ctx: CardContext, card: Card): void {
  if (ctx.loader.hasFailed(card.file)) {
    throw conflict(
      `the file of card "${card.id}" was edited by hand and is not valid right now (see GET /api/manifests errors)`,
      'FILE_INVALID',
    );
  }
}

/**
 * Writes a card's new manifest (meta-only) atomically, then updates memory and tells listeners.
 * @throws 409 FILE_CHANGED when the file was edited by hand after it was read (the edit is kept
 *   and loaded), 409 FILE_MISSING when it is gone; the fs error when the write fails. Nothing in
 *   memory changes then.
 */
export function writeCardManifest(ctx: CardContext, card: Card, raw: ManifestBody): Card {
  assertFileWritable(ctx, card);
  const text = serializeManifest(raw);
  // the commit point checks the file is still what we read: a hand edit saved meanwhile is
  // kept and loaded, and this write is refused (patchCard retries once over the edit)
  // the change is recorded while the new file is in place and the old one still kept: a
  // record that fails puts the old file back, so a failed write leaves no change behind
  const before = serializeManifest(card.raw);
  const outcome = commitIfUnchanged(writeTemp(card.file, text), card.file, card.hash, () =>
    ctx.store.transaction(() => {
      ctx.store.changes.recordManifest(card.id, path.basename(card.file), before, text);
    }),
  );
  if (outcome !== 'committed') {
    ctx.loader.safeLoad(card.file);
    if (outcome === 'missing') {
      throw conflict(`the file of card "${card.id}" is missing on disk; not writing it back`, 'FILE_MISSING');
    }
    throw conflict(
      `the file of card "${card.id}" was changed by hand while this write was made; the hand edit was kept, try again`,
      'FILE_CHANGED',
    );
  }
  ctx.loader.wroteFile(card.file);
  const sanitized = sanitizeAtLoad(raw);
  const { manifest } = sanitized;
  const next: Card = { ...card, raw, manifest: manifest as Card['manifest'], hash: contentHash(text) };
  ctx.registry.put(next);
  const file = path.basename(card.file);
  ctx.registry.setErrors(card.file, loadNotes(sanitized, file, card.id));
  ctx.emit({ type: 'card-changed', id: card.id });
  return next;
}
