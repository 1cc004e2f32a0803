/**
 * Shown while the page shows the service worker's kept copy instead of live data
 * (web/lib/offline.ts): says so, says since when, and that nothing can be saved meanwhile.
 */
import { offlineSavedAt } from '../lib/offline.js';

function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'earlier';
  return d.toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
}

export function OfflineBanner() {
  const saved = offlineSavedAt.value;
  if (!saved) return null;
  return (
    <div class="offline-banner" role="status" data-offline="">
      <strong>Offline.</strong> Showing what Klebb last read ({when(saved)}). New entries cannot be saved
      until you are back online.
    </div>
  );
}
