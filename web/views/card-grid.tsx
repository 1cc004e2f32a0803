/**
 * The cards of one view laid out in a grid, with load problems noted.
 *
 * The first read of a view is a batch read (`GET /api/views/:view?data=recent`): the card list
 * with every card's data (a long generic card's latest rows only), primed into the shared data
 * cache (lib/card-data.ts) before the cards draw, so fifty cards cost one request. Later re-reads (the live feed bumped `cardsVersion`: a card
 * appeared, changed or went) fetch the list only; the cache already holds the data, and a new
 * card's data is read on its own. A new `date` re-renders every card from the cache, with no
 * request (the date scrub).
 *
 * When every card on the view has its data, the grid sets `data-drawn` and leaves a performance
 * mark `klebb:cards-rendered` (detail `{view, date, cards}`) once per drawn date: the dashboard
 * benchmark (bench/dashboard.ts) and the tests wait for it.
 */
import { computed } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CardView } from '../cards/card-view.js';
import { Empty, ErrorNote, Loading } from '../components/status.js';
import { api } from '../lib/api.js';
import { cardDataSignal, primeCard } from '../lib/card-data.js';
import { cardsVersion } from '../lib/live.js';
import type { LoadError, ViewCard, ViewName, ViewResponse } from '../lib/types.js';
import { type Resource, useResource } from '../lib/use-resource.js';

/** The name of the performance mark left when a view's cards are drawn with their data. */
export const CARDS_RENDERED_MARK = 'klebb:cards-rendered';

export interface CardGridProps {
  view: ViewName;
  date: string;
  live: boolean;
  /** Shown when the view has no card. */
  empty: ComponentChildren;
}

type BatchCard = ViewCard & { data?: unknown; etag?: string | null; dataFrom?: number };

/**
 * Reads the view's cards; with `withData`, also their data, primed into the cache.
 * @throws ApiError.
 */
export async function readViewCards(
  view: ViewName,
  withData: boolean,
  signal?: AbortSignal,
): Promise<ViewResponse> {
  const res = await api<{ cards: BatchCard[]; errors: LoadError[] }>(
    `/api/views/${view}${withData ? '?data=recent' : ''}`,
    { signal },
  );
  const cards = res.cards.map(
    ({ data, etag, dataFrom, rowCount: _rowCount, ...card }: BatchCard & { rowCount?: number }) => {
      if (withData && etag !== undefined) primeCard(card.id, data, etag, dataFrom ?? 0);
      return card;
    },
  );
  return { cards, errors: res.errors };
}

/** The first read of a view started while the app loads (`prefetchView`), not yet taken by a grid. */
let early: { view: ViewName; promise: Promise<ViewResponse> } | null = null;

/**
 * Starts the first read of `view` (cards and data, `readViewCards`) at once, while the page's
 * script is still being evaluated: the server assembles the answer and the browser receives it
 * while the shell is drawn, instead of after. The first `useViewCards(view)` takes it over; a
 * second call before that does nothing. Errors are reported by the grid that takes it.
 */
export function prefetchView(view: ViewName): void {
  if (early) return;
  const promise = readViewCards(view, true);
  promise.catch(() => {}); // reported through the grid's resource
  early = { view, promise };
}

/**
 * A view's card list for a component, re-read when the live feed bumps `cardsVersion`; the first
 * read carries every card's data into the cache (`readViewCards`), or is the one `prefetchView`
 * started.
 */
export function useViewCards(view: ViewName): Resource<ViewResponse> {
  const version = cardsVersion.value;
  // the list version first read for this view: only that read carries the data
  const first = useRef({ view, version });
  if (first.current.view !== view) first.current = { view, version };
  // the request starts while rendering, not in an effect after the first paint: the cards come a frame sooner
  const pending = useRef<{ key: string; promise: Promise<ViewResponse> } | null>(null);
  const key = `${view}|${version}`;
  if (pending.current?.key !== key) {
    const withData = version === first.current.version;
    let promise: Promise<ViewResponse>;
    if (withData && early?.view === view) {
      promise = early.promise;
      early = null;
    } else {
      promise = readViewCards(view, withData);
      promise.catch(() => {}); // reported through the resource below
    }
    pending.current = { key, promise };
  }
  const promise = pending.current.promise;
  return useResource(() => promise, [view, version]);
}

/**
 * True once every card in `cards` has its data in the cache. A computed underneath: the caller
 * re-renders when the answer flips, not on every data change of every card.
 */
export function useAllDataIn(cards: ViewCard[] | undefined): boolean {
  const key = cards ? cards.map((c) => `${c.id}\n`).join('') : null;
  return useMemo(
    () => computed(() => (cards ? cards.every((c) => !cardDataSignal(c.id).value.loading) : false)),
    [key],
  ).value;
}

export function CardGrid({ view, date, live, empty }: CardGridProps) {
  const res = useViewCards(view);
  const cards = res.data?.cards;
  const key = cards ? cards.map((c) => `${c.id}\n`).join('') : null;
  const drawn = useAllDataIn(cards);
  const marked = useRef('');
  useLayoutEffect(() => {
    if (!drawn || !cards) return;
    const what = `${view}|${date}|${key}`;
    if (marked.current === what) return;
    marked.current = what;
    performance.mark(CARDS_RENDERED_MARK, { detail: { view, date, cards: cards.length } });
  }, [drawn, view, date, key]);

  if (!res.data) return res.error ? <ErrorNote error={res.error} onRetry={res.reload} /> : <Loading />;
  const { errors } = res.data;
  return (
    <>
      {errors.length > 0 && <LoadErrors errors={errors} />}
      {res.data.cards.length === 0 ? (
        empty
      ) : (
        <div class="card-grid" data-view={view} data-date={date} data-drawn={drawn ? 'true' : 'false'}>
          {res.data.cards.map((card) => (
            <CardView key={card.id} card={card} view={view} date={date} live={live} />
          ))}
        </div>
      )}
    </>
  );
}

/** What a card file's problem means for the person, by the loader's code. */
function problemText(code: string, line?: number): string {
  switch (code) {
    case 'INVALID_JSON':
      return line === undefined
        ? 'it could not be read, so it is not shown'
        : `it has a mistake on line ${line}, so it is not shown`;
    case 'FIELD_DROPPED':
      return 'one of its settings could not be used and is left out; the rest of the card works';
    case 'FIELD_UNUSABLE':
      return 'one of its entry fields is set up so that no value fits it; the rest of the card works';
    case 'DATA_RESCUED':
      return 'its entries were saved in an unusual way and have been recovered';
    case 'DATA_NOT_IMPORTED':
      return 'its entries could not be read';
    case 'DUPLICATE_ID':
      return 'it has the same name as another card, so it is not shown';
    default:
      return 'it could not be read, so it is not shown';
  }
}

const DISMISSED_KEY = 'klebb.problems.dismissed';

/** The problems as one key: a dismissed note comes back only when the problems change. */
const problemsKey = (errors: LoadError[]) =>
  errors
    .map((e) => `${e.file}|${e.code}|${e.path ?? ''}`)
    .sort()
    .join('\n');

function readDismissed(): string | null {
  try {
    return localStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

/**
 * The note that some card files have problems: folded to one line, in the person's words (the
 * technical message is each item's tooltip, for whoever fixes the file), and dismissible until
 * the problems change.
 */
function LoadErrors({ errors }: { errors: LoadError[] }) {
  const key = problemsKey(errors);
  const [dismissed, setDismissed] = useState<string | null>(readDismissed);
  if (dismissed === key) return null;
  const files = [...new Set(errors.map((e) => e.file))];
  const dismiss = () => {
    try {
      localStorage.setItem(DISMISSED_KEY, key);
    } catch {
      // private mode: dismissed for this page only
    }
    setDismissed(key);
  };
  return (
    <div class="notice-row">
      <details class="notice">
        <summary>
          {files.length === 1 ? 'One card file has a problem' : `${files.length} card files have problems`}
        </summary>
        <ul>
          {errors.map((e) => (
            // the technical message, for whoever fixes the file, is the item's tooltip
            <li key={`${e.file}:${e.code}:${e.path ?? ''}`} title={`${e.file}: ${e.message}`}>
              <strong>{e.id ?? e.file.replace(/\.json$/i, '')}</strong>: {problemText(e.code, e.line)}.
            </li>
          ))}
        </ul>
        <p class="muted">Ask the chat to look at it, or whoever looks after your Klebb.</p>
      </details>
      <button type="button" class="button button-quiet notice-dismiss" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** The empty state of a view: what appears there and how to get it, in the person's words. */
export function EmptyView({
  emoji,
  title,
  children,
}: {
  emoji: string;
  title: string;
  children: ComponentChildren;
}) {
  return (
    <Empty emoji={emoji} title={title}>
      {children}
    </Empty>
  );
}
