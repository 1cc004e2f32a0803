/**
 * "Fill <card> from the phone" (`POST /api/health-auto-export/cards {metric, card}`): an
 * existing card starts following a metric instead of a second card being made for it. The card
 * gets `meta.ingest` by the ordinary manifest patch, so the same rules apply (a card that reads a
 * field the phone never sends is refused, 422 naming the manifest path), and the card follower
 * (follow.ts) fills it at once from every sample already received, by date as a push does: days
 * without a phone reading keep what was entered by hand; on a day with both, the hand readings
 * of a card keeping several a day stay beside the phone's row, and a card keeping one row a day
 * keeps the phone's (phone-rows.ts; the replaced entry stays in the change log and can be
 * undone). docs/HEALTH-AUTO-EXPORT.md.
 */
import type { CardContext } from '../../cards/card-context.js';
import { patchCard } from '../../cards/card-crud.js';
import { invalid, KlebbError } from '../../errors.js';
import { subscriptionOf } from './cards.js';
import { resolveMetric } from './format/catalogue.js';

/** What connecting did: the card, its metric's catalogue key, and the rows it holds now. */
export interface Connected {
  id: string;
  label: string;
  metric: string;
  rowCount: number;
  /** False when the card already followed this metric (nothing changed). */
  changed: boolean;
}

/**
 * Subscribes the card `cardId` to `metric` (catalogue key or alias).
 * @throws 422 naming `body.metric` when the catalogue does not know it; 404 naming `body.card` when no card
 *   has that id; 409 naming `body.card` when it already follows another metric; patchCard's 422
 *   (naming the manifest path) when the card reads what the metric never sends.
 */
export function connectCard(ctx: CardContext, cardId: string, metric: string): Connected {
  const entry = resolveMetric(metric);
  if (!entry) {
    const message = `metric "${metric}" is not a metric of the Health Auto Export catalogue`;
    throw invalid(message, [{ path: 'body.metric', message }]);
  }
  const card = ctx.registry.get(cardId);
  if (!card) {
    throw new KlebbError(404, 'CARD_NOT_FOUND', `no card "${cardId}"`, [
      { path: 'body.card', message: 'no card with this id' },
    ]);
  }
  const current = subscriptionOf(card);
  if (current && current.entry.key !== entry.key) {
    const message = `card "${cardId}" already follows ${current.entry.key}`;
    throw new KlebbError(409, 'CONFLICT', message, [{ path: 'body.card', message }]);
  }
  const { changed } = current
    ? { changed: false }
    : patchCard(ctx, cardId, { meta: { ingest: { source: 'hae', metric: entry.key } } });
  return {
    id: cardId,
    label: String(card.manifest.meta.label),
    metric: entry.key,
    rowCount: ctx.store.state(cardId).rowCount,
    changed,
  };
}
