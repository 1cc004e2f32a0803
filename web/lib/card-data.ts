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
 * The first batch read of Today may hold only a generic card's latest rows (`?data=recent`,
 * docs/API.md): such a state has `from` > 0, the index of its first row in the whole array. Only
 * the generic card reads it (`useRecentCardData`, which asks for the whole block when the rows it
 * holds cannot answer for the day shown); every other reader (`useCardData`) sees the card as
 * loading while its whole block is read, and any refresh reads the whole block.
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
  /**
   * Where `data` starts in the card's whole array: absent or 0 for the whole block, more when
   * `data` is only its latest rows (a batch read's `dataFrom`).
   */
  from?: number;
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

/** Stores `next` unless the cache already holds a newer version (or the whole block of the same one); true when stored. */
function store(s: Signal<CardDataState>, next: CardDataState): boolean {
  const have = etagVersion(s.value.etag);
  const got = etagVersion(next.etag);
  if (have >= 0 && got >= 0 && got < have) return false;
  if (next.from && !s.value.from && !s.value.loading && got === have) return false;
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

/** What a whole-block reader sees while a card holds only its latest rows and its whole block is read. */
const WHOLE_LOADING: CardDataState = { data: undefined, etag: null, loading: true, error: null };
/** Latest-rows states whose whole block was already asked for (each is asked for once). */
const wholeAsked = new WeakSet<CardDataState>();

/** Starts reading card `id`'s whole block if the cache holds only its latest rows (once per such state). */
export function needWholeData(id: string): void {
  const s = cache.get(id);
  const v = s?.value;
  if (!v?.from || v.error || wholeAsked.has(v)) return;
  wholeAsked.add(v);
  void load(id);
}

/**
 * A component's view of card `id`'s whole data block; the component re-renders when it changes.
 * While the cache holds only the card's latest rows, it reads as loading and the whole block is read.
 */
export function useCardData(id: string): CardDataState {
  const v = cardDataSignal(id).value;
  if (!v.from) return v;
  needWholeData(id);
  return v.error ? { ...v, data: undefined, from: 0 } : WHOLE_LOADING;
}

/**
 * `useCardData` for a reader that can draw from a card's latest rows (the generic card): the state
 * as cached, `from` telling where its rows start; call `needWholeData(id)` when they do not reach
 * back far enough.
 */
export function useRecentCardData(id: string): CardDataState {
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
 * request; `from` > 0 when `data` is the card's latest rows starting at that index. Data older
 * than the cached version is ignored; data older than a version the live feed announced meanwhile
 * is stored and then re-read.
 */
export function primeCard(id: string, data: unknown, etag: string | null, from = 0): void {
  const next: CardDataState =
    from > 0
      ? { data, etag, loading: false, error: null, from }
      : { data, etag, loading: false, error: null };
  const s = cache.get(id);
  if (s) store(s, next);
  else cache.set(id, signal(next));
  const v = etagVersion(etag);
  if (v >= 0 && (announced.get(id) ?? -1) > v) void load(id);
}
