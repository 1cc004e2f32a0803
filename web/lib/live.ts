/**
 * The live feed: listens to `GET /api/events` (server-sent events, src/http/event-routes.ts,
 * docs/API.md "Live events") and refreshes only what changed. `data-changed` re-reads that card's
 * data (unless the cache already has that version); `card-changed`, `card-removed` and
 * `file-error` (a card file's load problems changed: the list carries them) bump
 * `cardsVersion`, which views use as a dependency to re-read their card lists.
 *
 * One stream for all tabs (over HTTP/1.1 a browser has about 6 connections per host for
 * every tab together, and each open stream holds one). The tabs of one browser elect a leader
 * with the Web Locks API; only the leader opens the stream and passes each event to the others
 * on a BroadcastChannel. When the leader closes, the next tab in line takes over. Where Web Locks
 * are missing (plain HTTP on a LAN address is not a secure context), each tab holds its own
 * stream, but only while it is visible.
 *
 * After a reconnect (the browser's EventSource retries by itself; a new leader opens a new
 * stream) everything shown is re-read, because events sent in between are not replayed.
 */
import { effect, signal } from '@preact/signals';
import { forgetCard, refreshAllCards, refreshCard } from './card-data.js';

/** Bumped whenever a card appears, changes its manifest, or disappears. */
export const cardsVersion = signal(0);

/**
 * Bumped (at most once per LIST_BUMP_DELAY_MS) whenever any card's data changes, for what is
 * worked out from every card's rows on the server (Today's staleness nudges).
 */
export const dataVersion = signal(0);

/** True while this tab receives the feed (its own stream or the leader tab's). */
export const liveConnected = signal(false);

/** One card event as the server sends it. */
export interface CardEvent {
  type: 'card-changed' | 'card-removed' | 'data-changed' | 'file-error';
  id: string;
  version?: number;
  /** `file-error`: the card file's name. */
  file?: string;
}

/** What tabs tell each other on the channel. */
type TabMessage =
  | { kind: 'card'; event: CardEvent }
  /** The leader's stream is (re)connected; `conn` names that connection. */
  | { kind: 'ready'; conn: string }
  | { kind: 'down' }
  /** A new tab asks the leader whether the feed is up. */
  | { kind: 'hello' };

const LOCK_NAME = 'klebb-live-feed';
const CHANNEL_NAME = 'klebb-live';
/** Card list changes arriving together (a reorder touches many cards) make one re-read. */
const LIST_BUMP_DELAY_MS = 30;
/** How long to wait before re-opening a stream the server refused (EventSource gives up on a non-200). */
const REOPEN_DELAY_MS = [2_000, 5_000, 15_000, 30_000];

let started = false;
/** The connection this tab last saw ready; a different one later means events may have been missed. */
let lastConn: string | null = null;
let bumpTimer: ReturnType<typeof setTimeout> | undefined;

function bumpCards(): void {
  if (bumpTimer !== undefined) return;
  bumpTimer = setTimeout(() => {
    bumpTimer = undefined;
    cardsVersion.value++;
  }, LIST_BUMP_DELAY_MS);
}

let dataTimer: ReturnType<typeof setTimeout> | undefined;

function bumpData(): void {
  if (dataTimer !== undefined) return;
  dataTimer = setTimeout(() => {
    dataTimer = undefined;
    dataVersion.value++;
  }, LIST_BUMP_DELAY_MS);
}

/** Applies one card event to this tab. */
function apply(e: CardEvent): void {
  if (e.type === 'data-changed') {
    void refreshCard(e.id, typeof e.version === 'number' ? e.version : undefined);
    bumpData();
  } else if (e.type === 'card-removed') {
    forgetCard(e.id);
    bumpCards();
  } else bumpCards();
}

/** The feed (re)connected as `conn`: re-read everything if it is not the connection seen before. */
function ready(conn: string): void {
  if (lastConn !== null && lastConn !== conn) {
    cardsVersion.value++;
    void refreshAllCards();
  }
  lastConn = conn;
  liveConnected.value = true;
}

function parseCardEvent(text: string): CardEvent | null {
  try {
    const e = JSON.parse(text) as CardEvent;
    return e && typeof e.id === 'string' && typeof e.type === 'string' ? e : null;
  } catch {
    return null;
  }
}

/**
 * Opens the stream and keeps it open (re-opening it after a refusal) until `stop` is called.
 * `publish` hears everything this tab applies, for the other tabs.
 */
function holdStream(publish: (m: TabMessage) => void): { stop(): void } {
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;
  const open = () => {
    if (stopped) return;
    const es = new EventSource('/api/events');
    source = es;
    es.addEventListener('ready', () => {
      failures = 0;
      const conn = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
      ready(conn);
      publish({ kind: 'ready', conn });
    });
    es.addEventListener('card', (msg) => {
      const e = parseCardEvent((msg as MessageEvent<string>).data);
      if (!e) return;
      apply(e);
      publish({ kind: 'card', event: e });
    });
    es.addEventListener('error', () => {
      liveConnected.value = false;
      publish({ kind: 'down' });
      // a refused stream (401, 5xx) is not retried by the browser: try again later
      if (es.readyState === EventSource.CLOSED && !stopped) {
        es.close();
        const delay = REOPEN_DELAY_MS[Math.min(failures, REOPEN_DELAY_MS.length - 1)];
        failures++;
        retry = setTimeout(open, delay);
      }
    });
  };
  open();
  return {
    stop() {
      stopped = true;
      clearTimeout(retry);
      source?.close();
      source = null;
      liveConnected.value = false;
    },
  };
}

/** Leader election over Web Locks; the leader holds the stream, the others listen on the channel. */
function startShared(locks: LockManager): void {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  let leading = false;
  let leaderConn: string | null = null;
  const publish = (m: TabMessage) => {
    if (m.kind === 'ready') leaderConn = m.conn;
    if (m.kind === 'down') leaderConn = null;
    channel.postMessage(m);
  };
  channel.onmessage = (msg: MessageEvent<TabMessage>) => {
    const m = msg.data;
    if (!m || typeof m !== 'object') return;
    if (m.kind === 'hello') {
      if (leading && leaderConn)
        channel.postMessage({ kind: 'ready', conn: leaderConn } satisfies TabMessage);
      return;
    }
    if (leading) return; // the leader hears its own stream
    if (m.kind === 'card') apply(m.event);
    else if (m.kind === 'ready') ready(m.conn);
    else if (m.kind === 'down') liveConnected.value = false;
  };
  channel.postMessage({ kind: 'hello' } satisfies TabMessage);
  // the others stop trusting the feed until the next leader's stream is ready
  window.addEventListener('pagehide', () => {
    if (leading) channel.postMessage({ kind: 'down' } satisfies TabMessage);
  });
  // waits in line; the lock is held (and the stream open) until this page goes away
  void locks
    .request(LOCK_NAME, () => {
      leading = true;
      holdStream(publish);
      return new Promise<never>(() => {});
    })
    .catch(() => {
      // locks refused (a sandboxed frame): fall back to a stream of this tab's own
      if (!leading) startPerTab();
    });
}

/** Without Web Locks: this tab's own stream, held only while the tab is visible. */
function startPerTab(): void {
  let held: { stop(): void } | null = null;
  const sync = () => {
    if (document.visibilityState === 'hidden') {
      held?.stop();
      held = null;
    } else if (!held) {
      held = holdStream(() => {});
    }
  };
  document.addEventListener('visibilitychange', sync);
  sync();
}

/**
 * Starts the feed for this page (once; later calls do nothing). While the feed is up, `<html>`
 * carries `data-live="on"` (else "off"), for styles and tests.
 */
export function startLive(): void {
  if (started || typeof EventSource === 'undefined') return;
  started = true;
  effect(() => {
    document.documentElement.dataset.live = liveConnected.value ? 'on' : 'off';
  });
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks && typeof BroadcastChannel !== 'undefined') startShared(locks);
  else startPerTab();
}
