/**
 * Under a phone-fed card (`meta.ingest`): what it reads that the phone does not send, e.g. "The
 * phone sends pct; this card reads percent.", so a card that stays empty says why instead of
 * staying empty in silence (src/ingest/hae/card-fit.ts decides).
 */
import { useEffect } from 'preact/hooks';
import { cardDataSignal } from '../lib/card-data.js';
import { cardsVersion } from '../lib/live.js';
import { fitSentences } from '../lib/phone-api.js';
import { phoneFit, wantPhoneFit } from '../lib/phone-fit.js';
import '../styles/phone.css';

export function IngestFitNote({ cardId }: { cardId: string }) {
  const key = `${cardsVersion.value}|${cardId}|${cardDataSignal(cardId).value.etag ?? ''}`;
  useEffect(() => wantPhoneFit(key), [key]);
  const lines = fitSentences(phoneFit.value.get(cardId) ?? []);
  if (lines.length === 0) return null;
  return (
    <p class="ingest-fit-note" role="note" data-ingest-fit="">
      {lines.join(' ')}
    </p>
  );
}
