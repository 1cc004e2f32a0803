/**
 * The live feed: listens to `GET /api/events` (server-sent events, see src/http/event-routes.ts)
 * and refreshes only what changed. `data-changed` re-reads that card's data; `card-changed` and
 * `card-removed` bump `cardsVersion`, which views use as a dependency to re-read their card lists.
 * After a reconnect (EventSource retries by itself) everything shown is re-read, because events
 * sent while the page was away are not replayed.
 */
import { signal } from '@preact/signals';
import { forgetCard, refreshAllCards, refreshCard } from './card-data.js';

/** Bumped whenever a card appears, changes its manifest, or disappears. */
export const cardsVersion = signal(0);

/** True while the feed is connected. */
export const liveConnected = signal(false);

/** One card event as the server sends it. */
interface CardEvent {
  type: 'card-changed' | 'card-removed' | 'data-changed';
  id: string;
  version?: number;
}

let source: EventSource | null = null;

/** Opens the feed (once per page). Safe to call again. */
export function startLive(): void {
  if (source || typeof EventSource === 'undefined') return;
  let everConnected = false;
  source = new EventSource('/api/events');
  source.addEventListener('ready', () => {
    if (everConnected) {
      cardsVersion.value++;
      void refreshAllCards();
    }
    everConnected = true;
    liveConnected.value = true;
  });
  source.addEventListener('error', () => {
    liveConnected.value = false;
  });
  source.addEventListener('card', (msg) => {
    let e: CardEvent;
    try {
      e = JSON.parse((msg as MessageEvent<string>).data) as CardEvent;
    } catch {
      return;
    }
    if (typeof e?.id !== 'string') return;
    if (e.type === 'data-changed') void refreshCard(e.id);
    else if (e.type === 'card-removed') {
      forgetCard(e.id);
      cardsVersion.value++;
    } else {
      cardsVersion.value++;
      void refreshCard(e.id);
    }
  });
}
