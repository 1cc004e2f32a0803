/**
 * Instance-wide state loaded once at start: the branding from `GET /api/instance`, and the
 * person's time zone reported to the server (`POST /api/user/tz`) so that "today" is their day.
 */
import { signal } from '@preact/signals';
import { api } from './api.js';
import type { InstanceInfo } from './types.js';

/** Null until `/api/instance` answered. */
export const instance = signal<InstanceInfo | null>(null);

/** The browser's IANA time zone, or undefined if it has none to offer. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** Loads the branding and sets the document title. */
export async function loadInstance(): Promise<void> {
  try {
    const info = await api<InstanceInfo>('/api/instance');
    instance.value = info;
    document.title = info.name;
  } catch {
    // the top bar keeps the default name; views show their own errors
  }
}

/** The zone last reported to the server (or being reported), so that it is sent again only when it changes. */
let reported: string | undefined;

/** Tells the server the browser's time zone. Failures are not the user's concern. */
async function reportTimeZone(): Promise<void> {
  const tz = browserTimeZone();
  if (!tz) return;
  reported = tz;
  try {
    await api('/api/user/tz', { json: { tz } });
  } catch {
    // an unknown zone name or an offline server: the server keeps its previous zone; try again later
    if (reported === tz) reported = undefined;
  }
}

/** How often an open page checks whether the browser's time zone has changed, ms. */
const ZONE_CHECK_MS = 60_000;

/**
 * Reports the zone at load and again whenever it changes while the page is open. A phone moves
 * to the zone it travels to, and the installed app can stay open for days: reported only at load,
 * reminders went on ringing at the old zone's hours and the chat's "today" stayed the old one's.
 * Checked every ZONE_CHECK_MS and when the page comes back (timers sleep in the background).
 */
export function watchTimeZone(): void {
  const check = () => {
    const tz = browserTimeZone();
    if (tz && tz !== reported) void reportTimeZone();
  };
  check();
  setInterval(check, ZONE_CHECK_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
  window.addEventListener('focus', check);
  window.addEventListener('pageshow', check);
}
