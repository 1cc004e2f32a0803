/**
 * Undo told by date, for cards whose rows are one per date (phone pushes, Apple Health imports).
 * Such a set often wrote a card's rows as one whole-array change, so any later change to the card
 * looked like a change of the same block and refused the undo. Told by date instead: when the
 * later changes wrote only other days, the undo puts back exactly the days the set wrote (their
 * rows as they were before it) and keeps everything else as it is now; when they wrote one of the
 * same days, the undo stays refused and names the changes that wrote those days.
 */
import { type ChangeRecord, MANIFEST_OP } from '../store/change-log.js';
import type { CardContext } from './card-context.js';
import { datedEffects } from './dated-effects.js';

/** A card whose undo is done by date: per date, the row to put back (JSON text; undefined: none). */
export interface DatePlan {
  cardId: string;
  restore: Map<string, string | undefined>;
}

/** A later change in the way of the undo, with the days it shares with the set (when told by date). */
export interface DatedHit {
  change: ChangeRecord;
  days?: string[];
}

const dateOf = (el: unknown): string | undefined =>
  el !== null &&
  typeof el === 'object' &&
  !Array.isArray(el) &&
  typeof (el as { date?: unknown }).date === 'string'
    ? (el as { date: string }).date
    : undefined;

/** The card's rows now, when they are a list of objects with distinct text dates (else undefined). */
function datedRowsNow(ctx: Pick<CardContext, 'store'>, cardId: string): unknown[] | undefined {
  const json = ctx.store.state(cardId).shape === 'array' ? ctx.store.readJson(cardId) : undefined;
  if (json === undefined) return undefined;
  const rows = JSON.parse(json) as unknown[];
  const seen = new Set<string>();
  for (const el of rows) {
    const d = dateOf(el);
    if (d === undefined || seen.has(d)) return undefined;
    seen.add(d);
  }
  return rows;
}

/** One card's part of settleByDate: its plan, or the hits that stay (with their shared days). */
function settleCard(
  ctx: Pick<CardContext, 'store'>,
  cardId: string,
  mine: ChangeRecord[],
  later: ChangeRecord[],
  hits: ChangeRecord[],
): { plan?: DatePlan; hits: DatedHit[] } {
  const asIs = { hits: hits.map((change) => ({ change })) };
  if (mine.some((c) => c.op === MANIFEST_OP) || hits.some((c) => c.op === MANIFEST_OP)) return asIs;
  const my = datedEffects(mine).get(cardId);
  const theirs = datedEffects(later).get(cardId);
  if (!my || !theirs || !datedRowsNow(ctx, cardId)) return asIs;
  const shared = [...my.before.keys()].filter((d) => theirs.before.has(d));
  if (shared.length === 0) return { plan: { cardId, restore: my.before }, hits: [] };
  const overlapping: DatedHit[] = [];
  for (const change of later) {
    const eff = datedEffects([change]).get(cardId);
    const days = eff ? shared.filter((d) => eff.before.has(d)).sort() : [];
    if (days.length) overlapping.push({ change, days });
  }
  return overlapping.length ? { hits: overlapping } : asIs;
}

/**
 * Sorts the conflicts of an undo by date. `mine`: the set's changes; `later`: the later changes
 * of other sets to its cards (ChangeLog.laterChanges); `hits`: those of them in the way as
 * undoConflicts tells (same row, same block, same manifest).
 * @returns the cards to undo by date (their plans) and the hits that remain, each with the days
 *   it shares with the set when that is why it is in the way.
 */
export function settleByDate(
  ctx: Pick<CardContext, 'store'>,
  mine: readonly ChangeRecord[],
  later: readonly ChangeRecord[],
  hits: readonly ChangeRecord[],
): { plans: DatePlan[]; hits: DatedHit[] } {
  const plans: DatePlan[] = [];
  const remaining: DatedHit[] = [];
  for (const cardId of new Set(hits.map((h) => h.cardId))) {
    const r = settleCard(
      ctx,
      cardId,
      mine.filter((c) => c.cardId === cardId),
      later.filter((c) => c.cardId === cardId),
      hits.filter((c) => c.cardId === cardId),
    );
    if (r.plan) plans.push(r.plan);
    remaining.push(...r.hits);
  }
  remaining.sort((a, b) => a.change.id - b.change.id);
  return { plans, hits: remaining };
}

/** Where a row of `date` goes among rows in date order (ascending, or descending when `desc`). */
function insertAt(rows: readonly unknown[], date: string, desc: boolean): number {
  for (let i = rows.length - 1; i >= 0; i--) {
    const d = dateOf(rows[i]) as string;
    if (desc ? d >= date : d <= date) return i + 1;
  }
  return 0;
}

/**
 * Carries out a plan inside the undo's transaction: the card's rows now, with each planned day
 * put back as it was before the undone set (a row it added goes, a row it replaced comes back),
 * written as one whole-array `revert` by `actor`.
 * @throws Error when the card's rows are no longer dated (settleByDate checked they were).
 */
export function applyDatePlan(ctx: Pick<CardContext, 'store'>, plan: DatePlan, actor: string): void {
  const rows = datedRowsNow(ctx, plan.cardId);
  if (!rows) throw new Error(`the rows of card "${plan.cardId}" are not one per date any more`);
  const dates = rows.map((el) => dateOf(el) as string);
  const desc = dates.length > 1 && dates[0] > dates[dates.length - 1];
  for (const [date, text] of plan.restore) {
    const i = rows.findIndex((el) => dateOf(el) === date);
    if (text === undefined) {
      if (i >= 0) rows.splice(i, 1);
    } else if (i >= 0) rows[i] = JSON.parse(text);
    else rows.splice(insertAt(rows, date, desc), 0, JSON.parse(text));
  }
  ctx.store.restoreWhole(plan.cardId, JSON.stringify(rows), actor);
}
