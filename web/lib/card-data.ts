/**
 * The data blocks of the cards on screen, one shared cache for every renderer: a renderer calls
 * `useCardData(card.id)` and re-renders when that card's data changes, whoever changed it (a form
 * on this page, the chat agent, a Health Auto Export push, a hand edit). The live feed
 * (`live.ts`) calls `refreshCard(id, version)` for each `data-changed` event; a write from this
 * page calls `refreshCard(id)` too, so the page never shows stale rows after a save.
 *
 * Data comes from `GET /api/manifests/:id/data` (`{data}` with an `ETag` `"v<n>"`), or in bulk
 * from `GET /api/views/:view?data=1` (`primeCard`); `data` is the card's whole block: an array of
 * rows, an object, a primitive, or null when the card never stored any.
 *
 * A data block in the cache is never changed in place: every change stores a new value (a new
 * array for rows). Renderers may therefore key derived data by the block's identity (the generic
 * card's row index, cards/generic-card-index.ts) and must not mutate what they read.
 *
 * Versions keep the cache from going back in time: `n` in the ETag grows with every write, so an
 * answer older than what the cache holds (a slow batch read overtaken by a live refresh) is
 * dropped, and an event announcing a version the cache already has costs no request.
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
/** The newest data version announced by the live feed, per card (also for cards not cached yet). */
const announced = new Map<string, number>();

/** The version number of a data ETag `"v42"` (or `W/"v42"`), -1 when there is none. */
export function etagVersion(etag: string | null | undefined): number {
  const m = /"v(\d+)"/.exec(etag ?? '');
  return m ? Number(m[1]) : -1;
}

/** Stores `next` unless the cache already holds a newer version; true when stored. */
function store(s: Signal<CardDataState>, next: CardDataState): boolean {
  const have = etagVersion(s.value.etag);
  const got = etagVersion(next.etag);
  if (have >= 0 && got >= 0 && got < have) return false;
  s.value = next;
  return true;
}

function load(id: string): Promise<void> {
  const running = inFlight.get(id);
  if (running) return running.then(() => load(id));
  const s = cache.get(id);
  if (!s) return Promise.resolve();
  const p = apiWithEtag<{ data: unknown }>(`/api/manifests/${encodeURIComponent(id)}/data`)
    .then(
      ({ body, etag }) => {
        store(s, { data: body.data, etag, loading: false, error: null });
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

/** True when card `id`'s data is in the cache (loaded or primed), without starting a load. */
export function hasCardData(id: string): boolean {
  const s = cache.get(id);
  return s !== undefined && !s.value.loading;
}

/**
 * Re-reads card `id`'s data if a component has asked for it (otherwise it is read when first
 * needed). `version` (from a `data-changed` event) skips the request when the cache already has
 * that version or a newer one. Resolves once the new data is in the cache. Concurrent calls
 * coalesce.
 */
export function refreshCard(id: string, version?: number): Promise<void> {
  if (version !== undefined && version > (announced.get(id) ?? -1)) announced.set(id, version);
  const s = cache.get(id);
  if (!s) return Promise.resolve();
  if (version !== undefined && !s.value.loading && etagVersion(s.value.etag) >= version)
    return Promise.resolve();
  return load(id);
}

/** Re-reads every cached card (after the live feed reconnects, events may have been missed). */
export function refreshAllCards(): Promise<void> {
  return Promise.all([...cache.keys()].map((id) => load(id))).then(() => undefined);
}

/** Forgets card `id` (it was deleted); a later use loads it afresh. */
export function forgetCard(id: string): void {
  cache.delete(id);
  announced.delete(id);
}

/**
 * Seeds the cache with data the page already has (a batch read, a write's answer), without a
 * request. Data older than the cached version is ignored; data older than a version the live
 * feed announced meanwhile is stored and then re-read.
 */
export function primeCard(id: string, data: unknown, etag: string | null): void {
  const next: CardDataState = { data, etag, loading: false, error: null };
  const s = cache.get(id);
  if (s) store(s, next);
  else cache.set(id, signal(next));
  const v = etagVersion(etag);
  if (v >= 0 && (announced.get(id) ?? -1) > v) void load(id);
}
