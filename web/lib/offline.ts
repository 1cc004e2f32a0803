/**
 * Whether what the app shows came from the service worker's copy rather than the server
 * (web/public/sw.js marks such answers `x-klebb-offline: <when it was saved>`). The app shows a
 * banner while it is set; any answer straight from the server clears it.
 */
import { signal } from '@preact/signals';

/** When the shown data was saved (ISO, or 'unknown'), or null when it is live. */
export const offlineSavedAt = signal<string | null>(null);

/** Notes one answer: kept copy (`x-klebb-offline` header) or live. */
export function noteAnswer(res: Response): void {
  const saved = res.headers.get('x-klebb-offline');
  if (saved) offlineSavedAt.value = saved;
  else if (res.ok && offlineSavedAt.value !== null) offlineSavedAt.value = null;
}
