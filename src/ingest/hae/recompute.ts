/**
 * Card rows recomputed once after a change of how samples become day rows: a schema migration
 * lists the metrics whose stored rows may be wrong (table `hae_recompute`), and once the cards are
 * loaded every card subscribed to one of them gets the rows of every stored date merged in by
 * date, as a push would for its dates (only rows that differ are written, actor `hae`; rows of
 * dates without samples stay). A metric is struck off the list when all its cards were done, so a
 * failure is tried again at the next start.
 */
import type { CardContext } from '../../cards/card-context.js';
import { mergeStoredRows, type SubscriberResult, subscriptions } from './cards.js';
import type { HaeSampleStore } from './sample-store.js';

/**
 * Recomputes the rows of every subscribed card whose metric is pending (see the module comment).
 * @returns one result per card recomputed (a card that failed carries a note).
 */
export function recomputePendingRows(
  ctx: Pick<CardContext, 'registry' | 'store' | 'emit'>,
  store: HaeSampleStore,
): SubscriberResult[] {
  const pending = store.pendingRecompute();
  if (pending.length === 0) return [];
  const results: SubscriberResult[] = [];
  const subs = subscriptions(ctx);
  for (const metric of pending) {
    let failed = false;
    for (const sub of subs) {
      if (sub.entry.reads !== metric) continue;
      try {
        const r = mergeStoredRows(ctx, store, sub.cardId);
        if (r) results.push(r);
      } catch (err) {
        failed = true;
        results.push({
          id: sub.cardId,
          metric: sub.entry.key,
          rowsWritten: 0,
          note: `not recomputed: ${(err as Error).message}`,
        });
      }
    }
    if (!failed) store.recomputed(metric);
  }
  return results;
}
