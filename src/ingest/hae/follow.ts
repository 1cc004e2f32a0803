/**
 * Cards whose Health Auto Export subscription changes after they were created. Creating
 * a subscribed card fills it from the stored samples; the same must happen
 * when an existing card gains `meta.ingest` later, by `PATCH /api/manifests/:id`, a chat tool, or
 * a hand edit of its file picked up by the watcher. All of these end in a `card-changed` event,
 * so this follows the card events instead of hooking each path:
 *
 * - a card seen for the first time (created, or a file dropped in) that subscribes is filled when
 *   its data is empty (the create rule: a card that brings rows of its own is not replayed into);
 * - a card that gains a subscription, or gets back the metric its rows came from, gets every
 *   stored sample of it merged in by date (rows of dates without samples, kept by hand, stay),
 *   exactly as a push would for the dates it carries;
 * - a card whose metric changes to another one is refilled: its rows (the old metric's) are
 *   replaced by the new metric's rows, in one change set of the actor `hae` that can be undone;
 * - losing the subscription, an alias of the same metric, or any other edit changes no rows.
 *
 * State is kept in memory from the moment following starts (after the cards are loaded at boot):
 * an edit made while the server was not running is not seen as a change.
 */
import type { CardContext } from '../../cards/card-context.js';
import type { CardEvent } from '../../cards/card-loader.js';
import {
  fillCardFromStore,
  mergeStoredRows,
  refillCard,
  type SubscriberResult,
  subscriptionOf,
} from './cards.js';
import type { HaeSampleStore } from './sample-store.js';

/** What was done for a card whose subscription changed. */
export type FollowAction = 'fill-new' | 'merge' | 'refill';

/** One action taken, for the log and the tests. */
export interface FollowResult {
  action: FollowAction;
  result: SubscriberResult;
}

interface Tracked {
  /** Sample metric (catalogue `reads`) the card subscribes to now; undefined when none. */
  current: string | undefined;
  /** Sample metric its rows were last filled from (kept while unsubscribed). */
  fed: string | undefined;
}

/** Follows the subscriptions of one instance's cards; see the module comment. */
export class SubscriptionFollower {
  private readonly known = new Map<string, Tracked>();

  /** Starts from the cards loaded now (their subscriptions count as already filled). */
  constructor(
    private readonly ctx: Pick<CardContext, 'registry' | 'store' | 'emit'>,
    private readonly store: HaeSampleStore,
  ) {
    for (const card of ctx.registry.all()) {
      const reads = subscriptionOf(card)?.entry.reads;
      this.known.set(card.id, { current: reads, fed: reads });
    }
  }

  /**
   * Handles one card event: `card-changed` may fill, merge or refill (see the module comment),
   * `card-removed` forgets the card, `data-changed` is ignored.
   * @returns what was done, or undefined when nothing applied.
   * @throws what the store throws (the caller logs it: the card edit itself already happened).
   */
  handle(e: CardEvent): FollowResult | undefined {
    if (e.type === 'card-removed') {
      this.known.delete(e.id);
      return undefined;
    }
    if (e.type !== 'card-changed') return undefined;
    const card = this.ctx.registry.get(e.id);
    if (!card) return undefined;
    const now = subscriptionOf(card)?.entry.reads;
    const prev = this.known.get(e.id);
    if (!prev) {
      this.known.set(e.id, { current: now, fed: now });
      if (now === undefined) return undefined;
      const result = fillCardFromStore(this.ctx, this.store, e.id);
      return result && { action: 'fill-new', result };
    }
    if (now === prev.current) return undefined;
    prev.current = now;
    if (now === undefined) return undefined;
    const action: FollowAction = prev.fed === undefined || prev.fed === now ? 'merge' : 'refill';
    prev.fed = now;
    const result =
      action === 'merge'
        ? mergeStoredRows(this.ctx, this.store, e.id)
        : refillCard(this.ctx, this.store, e.id);
    return result && { action, result };
  }
}
