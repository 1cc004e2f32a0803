/**
 * A quiet note in the top bar while the live feed is down (web/lib/live.ts): the server went away,
 * or the network did. Without it a page would look current while changes made elsewhere no
 * longer reach it ("the UI says so rather than spinning forever"). It appears only
 * after the feed has been down for `LIVE_DOWN_GRACE_MS` (a reconnect usually takes a moment), and
 * goes as soon as the feed is back; the page then re-reads what it shows.
 */
import { useSignalEffect } from '@preact/signals';
import { useState } from 'preact/hooks';
import { liveConnected } from '../lib/live.js';
import '../styles/views.css';

/** How long the feed may be down before the note shows, ms. */
export const LIVE_DOWN_GRACE_MS = 5_000;

export function LiveStatus() {
  const [down, setDown] = useState(false);
  useSignalEffect(() => {
    if (liveConnected.value) {
      setDown(false);
      return;
    }
    const timer = setTimeout(() => setDown(true), LIVE_DOWN_GRACE_MS);
    return () => clearTimeout(timer);
  });
  if (!down) return null;
  return (
    <span
      class="live-status"
      role="status"
      title="Changes made elsewhere will show once the connection is back."
    >
      <span class="live-status-dot" aria-hidden="true" />
      Offline
    </span>
  );
}
