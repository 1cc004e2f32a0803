/*
 * Klebb's service worker (served as /sw.js, scope /). Plain JavaScript: it is copied as it is,
 * not bundled. What it does:
 * - push: shows the reminder a push message carries (src/push/reminder-payload.ts). A private
 *   reminder arrives with the instance name and "You have a reminder." as its text, which is what
 *   the lock screen shows. Every push shows one notification, which alerts again when it replaces
 *   an earlier one of the same reminder.
 * - notificationclick: opens the reminder's card (`/?card=<id>`, or `/day/<date>?card=<id>` for
 *   the day a dose reminder was for), same origin only: an open Klebb window is focused and moved
 *   there, else a new one opens. The tap target is remembered first
 *   (Cache Storage), because a cold start on iOS can lose the query string of the URL it opens.
 * - offline: pages fall back to the app shell last loaded (a page sent `Cache-Control: no-store`,
 *   such as a report, is never kept); /assets/ files are kept once fetched
 *   (their names change with their content); reads of the views, cards and instance are kept as
 *   last answered and served marked `x-klebb-offline: <saved at>` when the server cannot be
 *   reached, and dropped once the server answers one of them 401 (the session ended); a write
 *   without a network is answered 503 OFFLINE, so the app says nothing was saved
 *   and keeps what was typed (never a silent loss).
 */
const SHELL = 'klebb-shell-v1';
const DATA = 'klebb-data-v1';
const PENDING = '/__klebb/pending-deep-link';
const KEPT_READS = [/^\/api\/views\//, /^\/api\/instance$/, /^\/api\/manifests(\/|$)/];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((c) => c.add(new Request('/', { credentials: 'same-origin' })))
      .catch(() => {})
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== SHELL && k !== DATA).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function offlineWrite() {
  const body = {
    error:
      'You are offline: nothing was saved. What you typed is still here; save it again when you are back online.',
    code: 'OFFLINE',
  };
  return new Response(JSON.stringify(body), { status: 503, headers: { 'content-type': 'application/json' } });
}

async function page(request) {
  try {
    const res = await fetch(request);
    // only the app shell: a page sent `no-store` (a report, a health document) is never kept,
    // nor does it replace the shell the app opens with offline
    const noStore = /no-store/i.test(res.headers.get('cache-control') || '');
    if (res.ok && !noStore && (res.headers.get('content-type') || '').includes('text/html')) {
      const cache = await caches.open(SHELL);
      await cache.put('/', res.clone());
    }
    return res;
  } catch (err) {
    const cached = await caches.match('/', { cacheName: SHELL });
    if (cached) return cached;
    throw err;
  }
}

async function asset(request) {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(request);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) await cache.put(request, res.clone());
  return res;
}

/**
 * How many times a 401 dropped the kept reads since this worker started: a read sent before the
 * session ended whose answer arrives after the drop is not kept, or it would put the cards back.
 */
let sessionEnds = 0;

/**
 * The session ended (expired, signed out elsewhere, its passkey removed on another device): the
 * kept reads go, so the cards are never shown offline to whoever holds the browser next.
 */
async function dropKeptReads(cache) {
  sessionEnds++;
  for (const req of await cache.keys()) {
    if (KEPT_READS.some((re) => re.test(new URL(req.url).pathname))) await cache.delete(req);
  }
}

async function keptRead(request) {
  const cache = await caches.open(DATA);
  const ends = sessionEnds;
  try {
    const res = await fetch(request);
    if (res.status === 401) await dropKeptReads(cache);
    if (res.ok && ends === sessionEnds) {
      const copy = res.clone();
      const headers = new Headers(copy.headers);
      headers.set('x-klebb-saved-at', new Date().toISOString());
      await cache.put(request, new Response(await copy.blob(), { status: copy.status, headers }));
    }
    return res;
  } catch (err) {
    const hit = (await cache.match(request)) || (await cache.match(request, { ignoreSearch: true }));
    if (!hit) throw err;
    const headers = new Headers(hit.headers);
    headers.set('x-klebb-offline', hit.headers.get('x-klebb-saved-at') || 'unknown');
    return new Response(await hit.blob(), { status: 200, headers });
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== 'GET') {
    if (url.pathname.startsWith('/api/')) {
      event.respondWith(fetch(request).catch(() => offlineWrite()));
    }
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    event.respondWith(asset(request));
  } else if (KEPT_READS.some((re) => re.test(url.pathname))) {
    event.respondWith(keptRead(request));
  }
});

/** What a push shows when its message cannot be read: still a notification (see below). */
const GENERIC = { title: 'Klebb', body: 'You have a reminder.', url: '/', tag: 'klebb' };

const text = (v, fallback) => (typeof v === 'string' && v !== '' ? v : fallback);

/** The words of the one notification shown for a push message. */
function notificationFor(data) {
  const items = Array.isArray(data?.items)
    ? data.items.filter((i) => i !== null && typeof i === 'object')
    : [];
  const count = items.length + (Number(data?.more) || 0);
  if (items.length === 0) return GENERIC;
  const first = items[0];
  const url = text(first.url, '/');
  const tag = text(first.tag, GENERIC.tag);
  const title = text(first.title, GENERIC.title);
  if (count === 1) return { title, body: text(first.body, GENERIC.body), url, tag };
  const anyPrivate = items.some((i) => i.privacy !== 'public');
  return {
    title: anyPrivate ? title : `${count} reminders for now`,
    body: anyPrivate ? `You have ${count} reminders.` : items.map((i) => text(i.title, '')).join(' · '),
    url,
    tag,
  };
}

/**
 * Every push shows a notification, also one whose message cannot be read: Safari takes the
 * permission away from a site whose pushes show nothing, and Chrome shows its own "updated in
 * the background" text. The tag is the reminder's, so today's reminder replaces yesterday's
 * still in the tray instead of piling up; `renotify` makes the replacement sound and vibrate
 * like a new one, which without it happens silently and the reminder goes unnoticed.
 */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  let shown = GENERIC;
  try {
    shown = notificationFor(data);
  } catch {
    shown = GENERIC;
  }
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window' }).catch(() => []);
      for (const w of windows) w.postMessage({ type: 'klebb-reminder', payload: data });
      await self.registration.showNotification(shown.title, {
        body: shown.body,
        tag: shown.tag,
        renotify: true,
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        data: { url: shown.url },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const raw = event.notification.data?.url || '/';
  let target = new URL(raw, self.location.origin);
  // a deep link leads into this app only
  if (target.origin !== self.location.origin) target = new URL('/', self.location.origin);
  const work = (async () => {
    // the tap target first, in case the tap cold-starts the app without its query string
    const cache = await caches.open(DATA);
    await cache.put(
      PENDING,
      new Response(JSON.stringify({ url: target.pathname + target.search, at: Date.now() })),
    );
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const mine = windows.find((w) => new URL(w.url).origin === self.location.origin);
    if (mine) {
      await mine.focus().catch(() => {});
      mine.postMessage({ type: 'klebb-deep-link', url: target.pathname + target.search });
      return;
    }
    await self.clients.openWindow(target.href);
  })();
  try {
    event.waitUntil(work);
  } catch {
    // an event made by script (not the browser) cannot extend its life; the work still runs
  }
});

/** A new subscription for this device, made here (a browser that renewed none itself). */
async function subscribeAgain() {
  const res = await fetch('/api/push/vapid-public-key', { credentials: 'same-origin' });
  if (!res.ok) return null;
  const { key } = await res.json();
  const raw = atob(key.replace(/-/g, '+').replace(/_/g, '/'));
  const applicationServerKey = Uint8Array.from(raw, (c) => c.charCodeAt(0));
  return self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
}

/**
 * The browser renewed or dropped this device's subscription. The new one is the one the browser
 * already made (`newSubscription`, Firefox) or one made here; the server is told which endpoint
 * it replaces (`oldSubscription`), so the device keeps its name and is not listed twice.
 */
self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(
    (async () => {
      const sub = event.newSubscription || (await subscribeAgain());
      if (!sub) return;
      const replaces = event.oldSubscription?.endpoint;
      await fetch('/api/push/subscribe', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(replaces ? { ...sub.toJSON(), replaces } : sub.toJSON()),
      });
    })().catch(() => {}),
  );
});
