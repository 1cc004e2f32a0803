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

/** Tells the server the browser's time zone, once per page load. Failures are not the user's concern. */
export async function reportTimeZone(): Promise<void> {
  const tz = browserTimeZone();
  if (!tz) return;
  try {
    await api('/api/user/tz', { json: { tz } });
  } catch {
    // an unknown zone name or an offline server: the server keeps its previous zone
  }
}
