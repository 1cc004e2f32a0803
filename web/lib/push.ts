/**
 * The browser side of reminders (docs/API.md "Notifications"): the service worker
 * (web/public/sw.js), this device's push subscription, and the deep links a tapped reminder
 * opens (`/?card=<id>`).
 * - `startServiceWorker()` registers /sw.js, keeps a subscription alive (a heartbeat each load;
 *   subscribing again when the server forgot it or its VAPID key changed) and follows the
 *   worker's "open this card" messages.
 * - `enablePush()` / `disablePush()` are the Settings › Notifications switch for this device.
 */
import { signal } from '@preact/signals';
import { ApiError, api } from './api.js';
import { navigate } from './router.js';

/** What this browser can do: push works, needs the app on the Home Screen first (iOS), or none. */
export type PushSupport = 'supported' | 'needs-install' | 'unsupported';

/** This device's state as the settings page shows it. */
export const deviceSubscribed = signal<boolean | null>(null);

const KEY_ID = 'klebb.push.keyId';

/** True on iPhone and iPad (iPadOS reports itself as a Mac with touch). */
export function isIos(): boolean {
  const ua = navigator.userAgent;
  return /iPhone|iPad|iPod/.test(ua) || (ua.includes('Macintosh') && navigator.maxTouchPoints > 1);
}

/** True when the app runs installed (Home Screen / standalone window). */
export function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as { standalone?: boolean }).standalone === true
  );
}

/** Whether Web Push can work here. On iOS it needs the app added to the Home Screen (iOS 16.4+). */
export function pushSupport(): PushSupport {
  const has = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (isIos() && !isStandalone()) return 'needs-install';
  return has ? 'supported' : 'unsupported';
}

/** `p`, or a rejection with `message` after `ms` (a browser's push service can hang without a network). */
function within<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

function keyBytes(b64url: string): Uint8Array<ArrayBuffer> {
  const raw = atob(b64url.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/**
 * Whether `sub` was made with another VAPID key than the server's `key` (base64url, id `keyId`):
 * its push service then refuses every reminder signed with the server's key. The subscription's
 * own key (`options.applicationServerKey`) tells it where the browser gives it; the key id kept
 * in localStorage does not always: a browser that clears the site's storage (iOS, after weeks
 * unused) leaves a subscription of an old key that was then kept, and no reminder arrived.
 * Without the subscription's key, the kept id is compared; `noKeptId` is the answer when none is
 * kept either.
 */
function madeWithOtherKey(sub: PushSubscription, key: string, keyId: string, noKeptId: boolean): boolean {
  const own = sub.options?.applicationServerKey;
  if (own) {
    const a = new Uint8Array(own);
    const b = keyBytes(key);
    return a.length !== b.length || a.some((byte, i) => byte !== b[i]);
  }
  const kept = localStorage.getItem(KEY_ID);
  return kept === null ? noKeptId : kept !== keyId;
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  return (await navigator.serviceWorker.getRegistration('/')) ?? null;
}

/** This device's push subscription, or null. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription() : null;
}

async function sendSubscription(sub: PushSubscription): Promise<void> {
  await api('/api/push/subscribe', { json: sub.toJSON() });
}

/**
 * Asks for permission, subscribes this device and tells the server.
 * @throws Error with a sentence for the person (permission refused, no support).
 */
export async function enablePush(): Promise<void> {
  if (pushSupport() !== 'supported') throw new Error('This browser cannot receive notifications.');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new Error(
      'Notifications are blocked for this site: allow them in the browser settings, then try again.',
    );
  }
  const reg = await within(
    navigator.serviceWorker.ready,
    10_000,
    'The app’s service worker is not running: reload the page and try again.',
  );
  const { key, keyId } = await api<{ key: string; keyId: string }>('/api/push/vapid-public-key');
  let sub = await reg.pushManager.getSubscription();
  if (sub && madeWithOtherKey(sub, key, keyId, true)) {
    await sub.unsubscribe();
    sub = null;
  }
  try {
    sub ??= await within(
      reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }),
      15_000,
      'The browser’s push service did not answer.',
    );
  } catch (err) {
    throw new Error(
      `This browser could not sign up for notifications (${(err as Error).message}). Check the connection and try again.`,
    );
  }
  await sendSubscription(sub);
  localStorage.setItem(KEY_ID, keyId);
  deviceSubscribed.value = true;
}

/** Unsubscribes this device here and at the server. */
export async function disablePush(): Promise<void> {
  const sub = await currentSubscription();
  if (sub) {
    await api('/api/push/unsubscribe', { json: { endpoint: sub.endpoint } }).catch(() => {});
    await sub.unsubscribe();
  }
  deviceSubscribed.value = false;
}

/** Each load: tell the server this subscription is alive; subscribe again if it forgot it or the key changed. */
async function keepAlive(): Promise<void> {
  const sub = await currentSubscription();
  deviceSubscribed.value = sub !== null;
  if (!sub || Notification.permission !== 'granted') return;
  try {
    const { key, keyId } = await api<{ key: string; keyId: string }>('/api/push/vapid-public-key');
    if (madeWithOtherKey(sub, key, keyId, false)) {
      await enablePush();
      return;
    }
    await api('/api/push/subscribe/heartbeat', { json: { endpoint: sub.endpoint } });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'SUBSCRIPTION_NOT_FOUND')
      await sendSubscription(sub).catch(() => {});
  }
}

/**
 * Brings the card of `?card=<id>` into view and focus once it is on the page (Today draws its
 * cards after its data arrives), with `action=log` opening its entry form when it has one.
 */
export function focusDeepLinkedCard(): void {
  const params = new URLSearchParams(location.search);
  const id = params.get('card');
  if (!id) return;
  const until = Date.now() + 10_000;
  const look = () => {
    const el = document.querySelector<HTMLElement>(`main .card[data-card-id="${CSS.escape(id)}"]`);
    if (!el) {
      if (Date.now() < until) setTimeout(look, 100);
      return;
    }
    el.classList.add('card-deep-linked');
    el.scrollIntoView({ block: 'start' });
    const heading = el.querySelector<HTMLElement>('.card-label') ?? el;
    heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
    if (params.get('action') === 'log') {
      el.querySelector<HTMLElement>('button.card-log, [data-action="log"]')?.click();
    }
  };
  look();
}

/** Opens a same-origin deep link inside the app. */
function openDeepLink(url: unknown): void {
  if (typeof url !== 'string') return;
  const target = new URL(url, location.origin);
  if (target.origin !== location.origin) return;
  navigate(target.pathname + target.search);
  focusDeepLinkedCard();
}

/** A tap target the worker remembered and no page has opened yet (cold start on iOS). */
async function pendingDeepLink(): Promise<void> {
  if (!('caches' in window)) return;
  const cache = await caches.open('klebb-data-v1');
  const hit = await cache.match('/__klebb/pending-deep-link');
  if (!hit) return;
  await cache.delete('/__klebb/pending-deep-link');
  if (location.search.includes('card=')) return;
  const { url, at } = (await hit.json()) as { url?: unknown; at?: number };
  if (typeof at === 'number' && Date.now() - at < 60_000) openDeepLink(url);
}

/** Registers the service worker and follows its messages. Call once per page load. */
export function startServiceWorker(): void {
  focusDeepLinkedCard();
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (ev) => {
    const data = ev.data as { type?: string; url?: unknown } | null;
    if (data?.type !== 'klebb-deep-link') return;
    openDeepLink(data.url);
    // handled here: a later load must not open it again
    void caches?.open('klebb-data-v1').then((c) => c.delete('/__klebb/pending-deep-link'));
  });
  navigator.serviceWorker
    .register('/sw.js', { scope: '/' })
    .then(() => Promise.all([keepAlive(), pendingDeepLink()]))
    .catch(() => {
      // no worker (an old browser, a private window): the app works, reminders and offline do not
    });
}
