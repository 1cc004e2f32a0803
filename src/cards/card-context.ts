/**
 * What every card operation needs: the data folder, the registry, the row store, the loader
 * (to pick up a hand edit before writing over it) and the event sink. Plus the two shared steps
 * of every write: find the card (404) and write its manifest file atomically.
 */
import fs from 'node:fs';
import path from 'node:path';
import { notFound } from '../errors.js';
import { writeFileAtomic } from '../home/atomic-write.js';
import type { CardDataStore } from '../store/card-data-store.js';
import type { CardEvent, CardLoader } from './card-loader.js';
import type { Card, CardRegistry } from './card-registry.js';
import { contentHash, type ManifestBody, serializeManifest } from './manifest-file.js';
import { sanitizeAtLoad } from './validate-manifest.js';

/** Dependencies of the card operations. */
export interface CardContext {
  dataDir: string;
  registry: CardRegistry;
  store: CardDataStore;
  loader: CardLoader;
  emit: (e: CardEvent) => void;
}

/**
 * The card with this id, re-read from disk first when its file changed behind our back (a hand
 * edit the watcher has not delivered yet must not be overwritten; case P03).
 * @throws NotFound 404 when no such card is loaded.
 */
export function requireCard(ctx: CardContext, id: string): Card {
  let card = ctx.registry.get(id);
  if (card) {
    let onDisk: string | undefined;
    try {
      onDisk = contentHash(fs.readFileSync(card.file));
    } catch {
      onDisk = undefined;
    }
    if (onDisk !== card.hash) {
      ctx.loader.loadFile(card.file);
      card = ctx.registry.get(id);
    }
  }
  if (!card) throw notFound(`no card with id "${id}"`, 'CARD_NOT_FOUND', { id });
  return card;
}

/**
 * Writes a card's new manifest (meta-only) atomically, then updates memory and tells listeners.
 * @throws the fs error when the write fails; nothing in memory changes then.
 */
export function writeCardManifest(ctx: CardContext, card: Card, raw: ManifestBody): Card {
  const text = serializeManifest(raw);
  writeFileAtomic(card.file, text);
  const { manifest, dropped } = sanitizeAtLoad(raw);
  const next: Card = { ...card, raw, manifest: manifest as Card['manifest'], hash: contentHash(text) };
  ctx.registry.put(next);
  const file = path.basename(card.file);
  ctx.registry.setErrors(
    card.file,
    dropped.map((d) => ({ file, id: card.id, code: 'FIELD_DROPPED', path: d.path, message: d.message })),
  );
  ctx.emit({ type: 'card-changed', id: card.id });
  return next;
}
