/**
 * The discovery card on Today: metrics the phone sent (Health Auto Export) that no card shows,
 * each with "Add a card" and "Hide"; the card's × hides all of them (they stay listed under
 * Hidden in Settings › Health Auto Export, where they can be shown again). Absent when there is
 * nothing new. Re-read when cards change (a new card takes its metric off the list).
 */
import { useState } from 'preact/hooks';
import { cardsVersion } from '../lib/live.js';
import { hideMetric, newMetrics, readDiscoveries } from '../lib/phone-api.js';
import { useResource } from '../lib/use-resource.js';
import { NewMetricsList } from './phone-view.js';
import '../styles/auth.css';
import '../styles/phone.css';

/** Metrics listed on the card before "And N more". */
const SHOWN = 4;

export function PhoneDiscoveryCard() {
  const found = useResource((signal) => readDiscoveries(signal), [cardsVersion.value]);
  const [closing, setClosing] = useState(false);
  const fresh = newMetrics(found.data);
  if (!found.data || fresh.length === 0) return null;
  async function hideAll() {
    setClosing(true);
    try {
      for (const d of fresh) await hideMetric(d.metric, true);
    } finally {
      setClosing(false);
      found.reload();
    }
  }
  return (
    <aside class="card phone-discovery" aria-labelledby="phone-discovery-title">
      <header class="card-head">
        <span class="card-emoji" aria-hidden="true">
          📲
        </span>
        <h2 class="card-label" id="phone-discovery-title">
          New from your phone
        </h2>
        <button
          type="button"
          class="icon-button phone-discovery-close"
          aria-label="Hide these suggestions"
          title="Hide"
          disabled={closing}
          onClick={() => void hideAll()}
        >
          ×
        </button>
      </header>
      <p class="panel-hint">
        {fresh.length === 1
          ? 'Your phone sends this, but no card shows it yet.'
          : 'Your phone sends these, but no card shows them yet.'}
      </p>
      <NewMetricsList found={found.data} onChange={found.reload} limit={SHOWN} />
    </aside>
  );
}
