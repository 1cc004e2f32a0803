/**
 * Change sets as the API shows them (`GET /api/changes`): who, when, what (a short summary),
 * which cards, and whether the set was undone. See src/store/change-log.ts for how they are kept.
 */

import { IMPORT_MARKER_CARD } from '../data/import-apply.js';
import { CHANGE_LIST_DEFAULT, CHANGE_LIST_MAX } from '../limits.js';
import { type ChangeSetRecord, type ChangeTally, MANIFEST_OP, type SetQuery } from '../store/change-log.js';
import type { CardContext } from './card-context.js';
import { INGEST_WHO, summariseChangeSet, summariseIngestSet } from './change-summary.js';

/** The kind of actor: the part before `:` (`chat:<turn>` → `chat`). */
export function actorKind(actor: string): string {
  const i = actor.indexOf(':');
  return i < 0 ? actor : actor.slice(0, i);
}

/** One change set in an API answer. */
export interface ChangeSetView {
  id: number;
  /** ISO time of its first change. */
  ts: string;
  actor: string;
  /** `web`, `token`, `agent-token`, `chat`, `mcp`, `hae`, `import`, `file`, `local` or `system`. */
  actorKind: string;
  /** "Added 2 rows to Weight". */
  summary: string;
  /** Ids of the cards it touched, in the order it touched them. */
  cards: string[];
  /** How many changes it holds. */
  changes: number;
  /** The set this one undid, if it is an undo. */
  undoOf: number | null;
  /** The set that undid this one (null: not undone, or its undo was undone in turn). */
  undoneBy: number | null;
}

/** The label a manifest text holds, or undefined (none, or a text that does not parse). */
function labelIn(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const label = (JSON.parse(text) as { meta?: { label?: unknown } }).meta?.label;
    return typeof label === 'string' && label !== '' ? label : undefined;
  } catch {
    // a manifest text that does not parse names nothing
    return undefined;
  }
}

/** A card's label for a summary: the loaded card's, else the last manifest the log holds, else its id. */
export function cardLabel(ctx: CardContext, cardId: string): string {
  const card = ctx.registry.get(cardId);
  if (card) return String(card.manifest.meta.label ?? cardId);
  return labelIn(ctx.store.changes.lastManifestText(cardId)) ?? cardId;
}

/**
 * A card's label as the summary of set `setId` names it: the card that set touched. Renamed
 * since, it reads with its current label (cardLabel); but when the set, or a later one, deleted
 * it and that deletion stands, with the label it had when it was deleted: a card made later with
 * the same id is another card, and "Deleted Blood pressure" must not read as the new card's
 * label. A deletion that was undone did not end the card.
 */
export function cardLabelAt(ctx: CardContext, cardId: string, setId: number): string {
  for (const d of ctx.store.changes.manifestDeletionsFrom(cardId, setId)) {
    const set = d.setId === null ? undefined : ctx.store.changes.getSet(d.setId);
    if (set && isUndone(ctx, set)) continue;
    const label = labelIn(d.before);
    if (label) return label;
  }
  return cardLabel(ctx, cardId);
}

/** Whether a set is undone now: it has an undo and that undo was not undone in turn. */
export function isUndone(ctx: CardContext, set: ChangeSetRecord): boolean {
  if (set.undoneBy === null) return false;
  return ctx.store.changes.getSet(set.undoneBy)?.undoneBy == null;
}

/**
 * The human summary of a set. An undo is told by what it took back (the undone set's own
 * changes); a phone push or an Apple Health import by who made it and the rows it wrote by date.
 */
function summaryOf(ctx: CardContext, set: ChangeSetRecord, tally: ChangeTally[]): string {
  const told = set.undoOf === null ? set : ctx.store.changes.getSet(set.undoOf);
  const labelOf = (id: string) => cardLabelAt(ctx, id, told?.id ?? set.id);
  const toldTally = set.undoOf === null ? tally : ctx.store.changes.tally(set.undoOf);
  const undid = set.undoOf !== null;
  const who = told ? INGEST_WHO[actorKind(told.actor)] : undefined;
  if (told && who)
    return summariseIngestSet(who, ctx.store.changes.changesOf(told.id), toldTally, labelOf, undid);
  return summariseChangeSet(toldTally, labelOf, undid);
}

/** The API view of one set. */
export function changeSetView(ctx: CardContext, set: ChangeSetRecord): ChangeSetView {
  // an import's marker record says the import committed; it is no card
  const tally = ctx.store.changes.tally(set.id).filter((t) => t.cardId !== IMPORT_MARKER_CARD);
  const cards = [...new Set(tally.map((t) => t.cardId))];
  return {
    id: set.id,
    ts: set.ts,
    actor: set.actor,
    actorKind: actorKind(set.actor),
    summary: summaryOf(ctx, set, tally),
    cards,
    changes: tally.reduce((n, t) => n + t.count, 0),
    undoOf: set.undoOf,
    undoneBy: isUndone(ctx, set) ? set.undoneBy : null,
  };
}

/**
 * `GET /api/changes`: change sets newest first. `limit` is capped at CHANGE_LIST_MAX; `next` is
 * the `before` of the next page (null on the last one).
 */
export function listChangeSets(
  ctx: CardContext,
  q: Partial<SetQuery>,
): { changeSets: ChangeSetView[]; next: number | null } {
  const limit = Math.min(Math.max(1, q.limit ?? CHANGE_LIST_DEFAULT), CHANGE_LIST_MAX);
  const sets = ctx.store.changes.listSets({ ...q, limit: limit + 1 });
  const page = sets.slice(0, limit);
  return {
    changeSets: page.map((s) => changeSetView(ctx, s)),
    next: sets.length > limit ? page[page.length - 1].id : null,
  };
}

/** Whether a change touched a card's data (rows or block) rather than its manifest. */
export const isDataChange = (op: string) => op !== MANIFEST_OP;
