/**
 * Undo of a change set (`POST /api/changes/:id/undo`, the chat's `undo_last_change`): every
 * change of the set is reverted, newest first, in one transaction, and the revert is itself a
 * change set (so it can be undone). Refused with 409, nothing reverted, when a later change of
 * another set touched the same row, the same whole data block or the same manifest, or when a
 * manifest file it would write holds a hand edit the server did not write or read (undo-files.ts):
 * the answer names what changed since. On a card whose rows are one per date, changes are told by their days
 * (undo-by-date.ts): a later change of other days is not in the way.
 */
import path from 'node:path';
import { isolateText } from '../common/isolate-text.js';
import { writePolicyOf } from '../common/write-policy.js';
import { IMPORT_MARKER_CARD } from '../data/import-apply.js';
import { KlebbError, notFound } from '../errors.js';
import { MAX_CHANGE_IMAGE_BYTES, MAX_CHANGE_IMAGE_ROWS, UNDO_CONFLICTS_SHOWN } from '../limits.js';
import { type Actor, type ChangeRecord, MANIFEST_OP } from '../store/change-log.js';
import { inChangeSet } from '../store/change-scope.js';
import { type CardContext, requireCard } from './card-context.js';
import { CardFileBatch } from './card-file-batch.js';
import { actorKind, type ChangeSetView, cardLabel, changeSetView, isUndone } from './change-sets.js';
import { INGEST_WHO } from './change-summary.js';
import { serializeManifest } from './manifest-file.js';
import { applyDatePlan, type DatedHit, settleByDate } from './undo-by-date.js';
import {
  assertFileAsLastSeen,
  assertFileFree,
  fileTargets,
  heldCard,
  syncRegistry,
  writeTarget,
} from './undo-files.js';

/** What a refused undo names: one later change that touched what the set changed. */
export interface UndoConflict {
  setId: number | null;
  cardId: string;
  actor: string;
  ts: string;
  /** The row path or manifest file the later change touched. */
  path: string | null;
}

/** First change id per target of the set, per card: whole block, manifest, any data, each row. */
interface Targets {
  whole?: number;
  manifest?: number;
  data?: number;
  rows: Map<number, number>;
}

const minOf = (a: number | undefined, b: number) => (a === undefined ? b : Math.min(a, b));

function targetsOf(mine: ChangeRecord[]): Map<string, Targets> {
  const out = new Map<string, Targets>();
  for (const c of mine) {
    const t: Targets = out.get(c.cardId) ?? { rows: new Map() };
    out.set(c.cardId, t);
    if (c.op === MANIFEST_OP) t.manifest = minOf(t.manifest, c.id);
    else {
      t.data = minOf(t.data, c.id);
      if (c.rowId === null) t.whole = minOf(t.whole, c.id);
      else t.rows.set(c.rowId, minOf(t.rows.get(c.rowId), c.id));
    }
  }
  return out;
}

/** The later changes of other sets that touched a row, block or manifest the set changed. */
export function undoConflicts(mine: ChangeRecord[], later: ChangeRecord[]): ChangeRecord[] {
  const targets = targetsOf(mine);
  return later.filter((d) => {
    const t = targets.get(d.cardId);
    if (!t) return false;
    if (d.op === MANIFEST_OP) return t.manifest !== undefined && d.id > t.manifest;
    if (t.whole !== undefined && d.id > t.whole) return true;
    if (d.rowId === null) return t.data !== undefined && d.id > t.data;
    const first = t.rows.get(d.rowId);
    return first !== undefined && d.id > first;
  });
}

/** One later change set's overlap on one card, as the 409 sentence names it. */
interface ConflictLine {
  first: ChangeRecord;
  settings: boolean;
  rows: Set<string>;
  data: boolean;
  /** The days it wrote that the undone set wrote too (when told by date). */
  days: Set<string>;
}

/**
 * The later changes grouped by change set and card: a push that touched 40 rows of a card is one
 * line ("Weight: 40 rows by hae at … (change 17)"), not 40 lines or the same line twice.
 */
function conflictLines(hits: readonly DatedHit[]): ConflictLine[] {
  const lines = new Map<string, ConflictLine>();
  for (const { change: d, days } of hits) {
    const key = `${d.setId ?? `record ${d.id}`}\n${d.cardId}`;
    const line = lines.get(key) ?? {
      first: d,
      settings: false,
      rows: new Set<string>(),
      data: false,
      days: new Set<string>(),
    };
    lines.set(key, line);
    if (days) for (const day of days) line.days.add(day);
    else if (d.op === MANIFEST_OP) line.settings = true;
    else if (d.path) line.rows.add(d.path);
    else line.data = true;
  }
  return [...lines.values()];
}

/** "the row of 2026-05-05", "the rows of 2026-05-04, 2026-05-05 and 3 more days". */
function daysText(days: Set<string>): string {
  const sorted = [...days].sort();
  if (sorted.length === 1) return `the row of ${sorted[0]}`;
  const shown = sorted.slice(0, 3);
  const more = sorted.length - shown.length;
  return more > 0
    ? `the rows of ${shown.join(', ')} and ${more} more day${more === 1 ? '' : 's'}`
    : `the rows of ${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

function whereOf(line: ConflictLine): string {
  if (line.days.size) return daysText(line.days);
  const parts: string[] = [];
  if (line.settings) parts.push('its settings');
  if (line.data) parts.push('its data');
  if (line.rows.size === 1) parts.push(`row ${isolateText([...line.rows][0])}`);
  else if (line.rows.size > 1) parts.push(`${line.rows.size} rows`);
  return parts.join(' and ');
}

/**
 * The 409 UNDO_CONFLICT for set `setId`: one sentence part per later change set and card (at
 * most UNDO_CONFLICTS_SHOWN), and `conflicts`, the first overlapping change records.
 * `labelOf` gives a card's label for its id; `actorOf` who made a change: the actor of its
 * change set (a row an Apple Health import wrote is the import's, whoever wrote the record), by
 * default the record's own. A phone push or an import is named in words ("Health Auto Export").
 */
export function undoConflictError(
  labelOf: (cardId: string) => string,
  setId: number,
  hits: readonly (ChangeRecord | DatedHit)[],
  actorOf: (c: ChangeRecord) => string = (c) => c.actor,
): KlebbError {
  const dated = hits.map((h): DatedHit => ('change' in h ? h : { change: h }));
  const lines = conflictLines(dated);
  const what = lines.slice(0, UNDO_CONFLICTS_SHOWN).map((line) => {
    const d = line.first;
    const actor = actorOf(d);
    const who = INGEST_WHO[actorKind(actor)] ?? actor;
    return `${isolateText(labelOf(d.cardId))}: ${whereOf(line)} by ${who} at ${d.ts}${d.setId ? ` (change ${d.setId})` : ''}`;
  });
  const more = lines.length > UNDO_CONFLICTS_SHOWN ? `, and ${lines.length - UNDO_CONFLICTS_SHOWN} more` : '';
  const conflicts: UndoConflict[] = dated.slice(0, UNDO_CONFLICTS_SHOWN).map(({ change: d }) => ({
    setId: d.setId,
    cardId: d.cardId,
    actor: actorOf(d),
    ts: d.ts,
    path: d.path,
  }));
  return new KlebbError(
    409,
    'UNDO_CONFLICT',
    `Change ${setId} cannot be undone: what it changed was changed again since (${what.join('; ')}${more}). Nothing was undone.`,
    undefined,
    { conflicts },
  );
}

/** "50 000": a count as the docs write it. */
const spaced = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/**
 * The 409 UNDO_UNAVAILABLE of a change whose data image was too large to keep: what the change
 * did to which card, the change log's limit, and where a copy may still be.
 */
function imageOmittedError(ctx: CardContext, setId: number, lost: ChangeRecord): KlebbError {
  const label = isolateText(cardLabel(ctx, lost.cardId));
  const did =
    lost.op === 'delete-card' ? `the data of ${label} it deleted` : `the data of ${label} it replaced`;
  const limit = `${spaced(MAX_CHANGE_IMAGE_ROWS)} rows or ${MAX_CHANGE_IMAGE_BYTES / 1024 / 1024} MB`;
  return new KlebbError(
    409,
    'UNDO_UNAVAILABLE',
    `Change ${setId} cannot be undone: ${did} was too large for the change log to keep a copy of (it keeps a card's data only up to ${limit}). A snapshot in Settings › Data may still hold it. Nothing was undone.`,
  );
}

function assertRevertible(ctx: CardContext, setId: number, mine: ChangeRecord[]): void {
  // an import, restore or roll back of the home replaced whole cards and kept no copy of them
  // (the snapshot taken before it is that copy): reverting its records would empty every card
  if (mine.some((c) => c.cardId === IMPORT_MARKER_CARD)) {
    throw new KlebbError(
      409,
      'UNDO_UNAVAILABLE',
      `Change ${setId} is an import or restore of the whole home, which Undo cannot take back: in Settings › Data, Roll back (or restore the pre-import snapshot taken just before it). Nothing was undone.`,
    );
  }
  const lost = mine.find((c) => c.imageOmitted);
  if (lost) throw imageOmittedError(ctx, setId, lost);
}

/** The date field rows of card `cardId` are kept in day order by (`date` for a card gone since). */
function dayFieldOf(ctx: CardContext, cardId: string): string {
  return writePolicyOf(ctx.registry.get(cardId)?.manifest.meta).dateField;
}

/**
 * Undoes change set `setId` as `actor`.
 * @returns the undone set's id and the new set (the undo).
 * @throws 404 CHANGE_SET_NOT_FOUND; 409 ALREADY_UNDONE, UNDO_CONFLICT (with `conflicts`) or
 *   UNDO_UNAVAILABLE (an image too large to have been kept). Nothing changes when it throws.
 */
export function undoChangeSet(
  ctx: CardContext,
  setId: number,
  actor: Actor,
): { ok: true; undone: number; changeSet: ChangeSetView } {
  const log = ctx.store.changes;
  const set = log.getSet(setId);
  const mine = set ? log.changesOf(setId) : [];
  if (!set || mine.length === 0) throw notFound(`no change set ${setId}`, 'CHANGE_SET_NOT_FOUND', { setId });
  if (isUndone(ctx, set)) {
    throw new KlebbError(
      409,
      'ALREADY_UNDONE',
      `Change ${setId} was already undone (by change ${set.undoneBy}).`,
    );
  }
  assertRevertible(ctx, setId, mine);
  // a hand edit not picked up yet is read now, so it counts as a later change
  for (const id of new Set(mine.map((c) => c.cardId))) {
    if (ctx.registry.has(id)) requireCard(ctx, id);
  }
  const later = log.laterChanges(setId);
  const found = undoConflicts(mine, later);
  // rows kept one per date: a later change of other days is not in the way (undo-by-date.ts)
  const { plans, hits } = found.length ? settleByDate(ctx, mine, later, found) : { plans: [], hits: [] };
  if (hits.length) {
    const setActor = (c: ChangeRecord) =>
      (c.setId === null ? undefined : log.getSet(c.setId)?.actor) ?? c.actor;
    throw undoConflictError((id) => cardLabel(ctx, id), setId, hits, setActor);
  }
  const byDate = new Set(plans.map((p) => p.cardId));
  const files = fileTargets(ctx, mine);
  for (const t of files) assertFileFree(ctx, setId, t);
  for (const t of files) assertFileAsLastSeen(ctx, setId, t);

  const batch = new CardFileBatch();
  let undoId: number;
  try {
    undoId = inChangeSet({ actor, undoOf: setId, fresh: true }, () =>
      ctx.store.transaction(() => {
        for (const plan of plans) applyDatePlan(ctx, plan, actor);
        for (const c of [...mine].reverse()) {
          if (c.op === MANIFEST_OP || byDate.has(c.cardId)) continue;
          if (c.rowId !== null)
            ctx.store.revertRow(
              c.cardId,
              c.rowId,
              c.pos,
              c.before ?? undefined,
              c.path,
              actor,
              dayFieldOf(ctx, c.cardId),
            );
          else ctx.store.restoreWhole(c.cardId, c.before ?? undefined, actor);
        }
        ctx.onUndo?.(setId);
        // files last: a refused or failed write rolls the database back with it, and the
        // files already written are put back
        for (const t of files) {
          const held = heldCard(ctx, t);
          log.recordManifest(t.cardId, path.basename(t.file), held && serializeManifest(held.raw), t.text);
          writeTarget(ctx, setId, batch, t);
        }
        const id = log.openSetId() as number;
        log.markUndone(setId, id);
        return id;
      }),
    );
  } catch (err) {
    batch.takeBack();
    // a hand edit found while writing is loaded now, so the next try names it as a later change
    for (const t of files) if (heldCard(ctx, t)) ctx.loader.safeLoad(t.file);
    throw err;
  }
  for (const t of files) syncRegistry(ctx, t);
  for (const id of new Set(mine.filter((c) => c.op !== MANIFEST_OP).map((c) => c.cardId))) {
    ctx.emit({ type: 'data-changed', id, version: ctx.store.state(id).version });
  }
  const undo = log.getSet(undoId);
  return {
    ok: true,
    undone: setId,
    changeSet: changeSetView(
      ctx,
      undo ?? { id: undoId, ts: new Date().toISOString(), actor, undoOf: setId, undoneBy: null },
    ),
  };
}

/**
 * The newest change set of `who` that is neither an undo nor undone yet (undefined: none in the
 * last 100 sets it made). `who.actor` is an actor or a bare kind (see SetQuery), `who.actorPrefix`
 * narrows it to one conversation's turns, and `who.except` leaves out the caller's own running
 * set (a chat turn may not undo itself).
 */
export function lastUndoableSet(
  ctx: CardContext,
  who: { actor?: string; actorPrefix?: string; except?: string },
): number | undefined {
  let before: number | undefined;
  for (let page = 0; page < 5; page++) {
    const sets = ctx.store.changes.listSets({
      limit: 20,
      before,
      actor: who.actor,
      actorPrefix: who.actorPrefix,
    });
    for (const s of sets) if (s.undoOf === null && s.actor !== who.except && !isUndone(ctx, s)) return s.id;
    if (sets.length < 20) return undefined;
    before = sets[sets.length - 1].id;
  }
  return undefined;
}
