/**
 * The data blocks of the cards on screen, one shared cache for every renderer: a renderer calls
 * `useCardData(card.id)` and re-renders when that card's data changes, whoever changed it (a form
 * on this page, the chat agent, a Health Auto Export push, a hand edit). The live feed
 * (`live.ts`) calls `refreshCard` for each `data-changed` event; a write from this page calls it
 * too, so the page never shows stale rows after a save.
 *
 * Data comes from `GET /api/manifests/:id/data` (`{data}` with an `ETag`); `data` is the card's
 * whole block: an array of rows, an object, a primitive, or null when the card never stored any.
 */
import { type Signal, signal } from '@preact/signals';
import { ApiError, apiWithEtag } from './api.js';

/** What a renderer sees of one card's data. */
export interface CardDataState {
  /** The data block; undefined until the first load finishes. */
  data: unknown;
  /** The data ETag (send as If-Match to refuse a write over a newer state), null before loading. */
  etag: string | null;
  /** True while the first load runs (later refreshes keep the old data on screen). */
  loading: boolean;
  /** The last load's failure, cleared by the next success. */
  error: ApiError | null;
}

const cache = new Map<string, Signal<CardDataState>>();
const inFlight = new Map<string, Promise<void>>();

function load(id: string): Promise<void> {
  const running = inFlight.get(id);
  if (running) return running.then(() => load(id));
  const s = cache.get(id);
  if (!s) return Promise.resolve();
  const p = apiWithEtag<{ data: unknown }>(`/api/manifests/${encodeURIComponent(id)}/data`)
    .then(
      ({ body, etag }) => {
        s.value = { data: body.data, etag, loading: false, error: null };
      },
      (err: unknown) => {
        const error = err instanceof ApiError ? err : new ApiError(String(err), 0, 'NETWORK');
        s.value = { ...s.value, loading: false, error };
      },
    )
    .finally(() => inFlight.delete(id));
  inFlight.set(id, p);
  return p;
}

/** The signal holding card `id`'s data, created (and loaded) on first use. */
export function cardDataSignal(id: string): Signal<CardDataState> {
  let s = cache.get(id);
  if (!s) {
    s = signal<CardDataState>({ data: undefined, etag: null, loading: true, error: null });
    cache.set(id, s);
    void load(id);
  }
  return s;
}

/** A component's view of card `id`'s data; the component re-renders when it changes. */
export function useCardData(id: string): CardDataState {
  return cardDataSignal(id).value;
}

/**
 * Re-reads card `id`'s data if a component has asked for it (otherwise it is read when first
 * needed). Resolves once the new data is in the cache. Concurrent calls coalesce.
 */
export function refreshCard(id: string): Promise<void> {
  return cache.has(id) ? load(id) : Promise.resolve();
}

/** Re-reads every cached card (after the live feed reconnects, events may have been missed). */
export function refreshAllCards(): Promise<void> {
  return Promise.all([...cache.keys()].map((id) => load(id))).then(() => undefined);
}

/** Forgets card `id` (it was deleted); a later use loads it afresh. */
export function forgetCard(id: string): void {
  cache.delete(id);
}

/** Seeds the cache with data the page already has (e.g. from a batch read), without a request. */
export function primeCard(id: string, data: unknown, etag: string | null): void {
  const s = cache.get(id);
  const next: CardDataState = { data, etag, loading: false, error: null };
  if (s) s.value = next;
  else cache.set(id, signal(next));
}
