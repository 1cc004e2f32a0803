/**
 * The manifest files an undo (or the undo of an undo, a redo) puts back or removes. A file is
 * written only over what the server last wrote or read of it: a hand edit, even one the watcher
 * has not delivered yet (an edit that does not load, such as unfinished JSON, or a file deleted
 * by hand moments ago), makes the undo a 409 UNDO_CONFLICT that names the file, and nothing is
 * written. Once the watcher has delivered such an edit it is a later change in the change log,
 * refused the same way (undo.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { KlebbError } from '../errors.js';
import type { CommitOutcome } from '../home/commit-file.js';
import { type ChangeRecord, MANIFEST_OP } from '../store/change-log.js';
import type { CardContext } from './card-context.js';
import type { CardFileBatch } from './card-file-batch.js';
import type { Card } from './card-registry.js';
import { contentHash, isManifestFileName, type ManifestBody } from './manifest-file.js';
import { loadNotes, sanitizeAtLoad } from './validate-manifest.js';

/** A manifest file the undo puts back (text) or removes (undefined). */
export interface FileTarget {
  cardId: string;
  file: string;
  text: string | undefined;
}

/** Per card, the manifest as it was before the set's first manifest change. */
export function fileTargets(ctx: CardContext, mine: ChangeRecord[]): FileTarget[] {
  const out = new Map<string, FileTarget>();
  for (const c of mine) {
    if (c.op !== MANIFEST_OP || out.has(c.cardId)) continue;
    const name = c.path ?? '';
    if (!isManifestFileName(name) || path.basename(name) !== name) {
      throw new KlebbError(
        409,
        'UNDO_UNAVAILABLE',
        `change ${c.setId} names no manifest file it could restore`,
      );
    }
    out.set(c.cardId, { cardId: c.cardId, file: path.join(ctx.dataDir, name), text: c.before ?? undefined });
  }
  return [...out.values()];
}

/** The card loaded from the target's file, when it is the target's card. */
export function heldCard(ctx: CardContext, t: FileTarget): Card | undefined {
  const card = ctx.registry.get(t.cardId);
  return card?.file === t.file ? card : undefined;
}

/** A file the undo would create must not take the place of another card or file. */
export function assertFileFree(ctx: CardContext, setId: number, t: FileTarget): void {
  const holder = ctx.registry.get(t.cardId);
  const occupied = holder ? holder.file !== t.file : fs.existsSync(t.file) && !ctx.registry.byFile(t.file);
  if (t.text !== undefined && occupied) {
    throw new KlebbError(
      409,
      'UNDO_CONFLICT',
      `Change ${setId} cannot be undone: ${path.basename(t.file)} or the id "${t.cardId}" is in use by another card now. Nothing was undone.`,
      undefined,
      { conflicts: [] },
    );
  }
}

/** Why a card file is not what the server last wrote or read of it. */
export type HandEdit = 'unloadable' | 'missing' | 'changed';

function handEditText(ctx: CardContext, t: FileTarget, edit: HandEdit): string {
  const name = path.basename(t.file);
  if (edit === 'missing') return `${name} was deleted by hand (or an editor is saving it)`;
  if (edit === 'changed') return `${name} was changed by hand`;
  const problem = ctx.registry.errors().find((e) => e.file === name)?.message;
  return `${name} holds a hand edit that does not load${problem ? ` (${problem})` : ''}; finish or fix it first`;
}

/**
 * The 409 UNDO_CONFLICT for a hand edit of the target's file that the undo would write over or
 * remove. `conflicts` names the file as a change by `file`, at the file's time (now when gone).
 */
export function handEditConflict(ctx: CardContext, setId: number, t: FileTarget, edit: HandEdit): KlebbError {
  const st = fs.statSync(t.file, { throwIfNoEntry: false });
  return new KlebbError(
    409,
    'UNDO_CONFLICT',
    `Change ${setId} cannot be undone: ${handEditText(ctx, t, edit)}. Nothing was undone.`,
    undefined,
    {
      conflicts: [
        {
          setId: null,
          cardId: t.cardId,
          actor: 'file',
          ts: (st?.mtime ?? new Date()).toISOString(),
          path: path.basename(t.file),
        },
      ],
    },
  );
}

/**
 * Refuses, before anything is written, an undo that would write over or remove a card file
 * holding a hand edit the server could not load, or write back a file deleted by hand.
 * (A file deleted by hand that the undo removes anyway is no conflict.)
 */
export function assertFileAsLastSeen(ctx: CardContext, setId: number, t: FileTarget): void {
  if (!heldCard(ctx, t)) return;
  if (ctx.loader.hasFailed(t.file)) throw handEditConflict(ctx, setId, t, 'unloadable');
  if (t.text !== undefined && !fs.existsSync(t.file)) throw handEditConflict(ctx, setId, t, 'missing');
}

/**
 * Writes (or removes) the target's file through `batch`, over the bytes of its card as loaded
 * (none when the card is not loaded from it).
 * @throws 409 UNDO_CONFLICT when the file holds anything else now (nothing of it is written; the
 *   caller takes the batch back and loads the edit).
 */
export function writeTarget(ctx: CardContext, setId: number, batch: CardFileBatch, t: FileTarget): void {
  const held = heldCard(ctx, t);
  const outcome: CommitOutcome = batch.apply({ file: t.file, expectedHash: held?.hash, text: t.text });
  if (outcome === 'committed' || (outcome === 'missing' && t.text === undefined)) return;
  throw handEditConflict(ctx, setId, t, outcome === 'missing' ? 'missing' : 'changed');
}

/** Puts memory in line with a manifest file the undo wrote or removed; tells listeners. */
export function syncRegistry(ctx: CardContext, t: FileTarget): void {
  if (t.text === undefined) {
    if (ctx.registry.byFile(t.file)) {
      ctx.registry.removeFile(t.file);
      ctx.emit({ type: 'card-removed', id: t.cardId });
    }
    return;
  }
  const restored = !ctx.registry.has(t.cardId);
  const raw = JSON.parse(t.text) as ManifestBody;
  const sanitized = sanitizeAtLoad(raw);
  const { manifest } = sanitized;
  ctx.loader.wroteFile(t.file);
  ctx.registry.put({
    id: t.cardId,
    file: t.file,
    raw,
    manifest: manifest as Card['manifest'],
    hash: contentHash(t.text),
  });
  ctx.registry.setErrors(t.file, loadNotes(sanitized, path.basename(t.file), t.cardId));
  ctx.emit(
    restored ? { type: 'card-changed', id: t.cardId, restored } : { type: 'card-changed', id: t.cardId },
  );
}
