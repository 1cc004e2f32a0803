/**
 * Gentle prompts above the cards of the live Today page, each with a way to act and a way to
 * dismiss it for good (kept on the server, so a dismissal on the phone holds on the laptop):
 * - a card that declares how often it is logged (`cadence.expectDays`) and has not been for longer
 *   (`GET /api/hygiene`): **Log now** brings the card into view;
 * - three or more cards of one kind (`GET /api/cc-suggestions`): **Ask the chat** opens the chat
 *   with a request to show them together in one card.
 * Re-read when cards change; nothing is shown while they load or when the server cannot say.
 */
import { useState } from 'preact/hooks';
import { openChatWith } from '../chat/launcher-state.js';
import { api } from '../lib/api.js';
import { currentDay } from '../lib/dates.js';
import { cardsVersion, dataVersion } from '../lib/live.js';
import { useResource } from '../lib/use-resource.js';
import '../styles/gallery.css';
import { lookupTable } from '../../src/common/lookup-table.js';

interface StaleFinding {
  cardId: string;
  label: string;
  emoji: string | null;
  ageDays?: number;
  expectDays?: number;
}

interface Suggestion {
  category: string;
  cardIds: string[];
  labels: string[];
}

/** What a category's cards are about, to finish "You have 3 cards about …". */
const ABOUT = lookupTable<string>({
  sleep: 'sleep',
  recovery: 'recovery',
  activity: 'activity',
  vitals: 'vital signs',
  body: 'your body',
  mindfulness: 'your mind',
  lifestyle: 'everyday habits',
  supplements: 'supplements',
  medication: 'medicines',
});

/** "a, b and c". */
function listText(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

function bringIntoView(cardId: string): void {
  const el = document.querySelector<HTMLElement>(`main .card[data-card-id="${CSS.escape(cardId)}"]`);
  if (!el) return;
  el.scrollIntoView({ block: 'center' });
  el.querySelector<HTMLElement>('[data-action="log"], button')?.focus({ preventScroll: true });
}

export function TodayNudges() {
  // read again on a new day too: what is due or overdue depends on the day
  const version = `${cardsVersion.value}:${dataVersion.value}:${currentDay.value}`;
  const res = useResource(
    async (signal) => {
      const [hygiene, cc] = await Promise.all([
        api<{ findings: StaleFinding[] }>('/api/hygiene', { signal }),
        api<{ suggestions: Suggestion[] }>('/api/cc-suggestions', { signal }),
      ]);
      return { stale: hygiene.findings, suggestions: cc.suggestions };
    },
    [version],
  );
  const [gone, setGone] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  if (!res.data) return null;

  async function dismiss(key: string, path: string, json: unknown) {
    setProblem(null);
    setGone((g) => [...g, key]);
    try {
      await api(path, { json });
    } catch (err) {
      setGone((g) => g.filter((k) => k !== key));
      setProblem(`That could not be dismissed: ${(err as Error).message}`);
    }
  }

  const stale = res.data.stale.filter((f) => !gone.includes(`stale:${f.cardId}`));
  const suggestions = res.data.suggestions.filter((s) => !gone.includes(`cc:${s.category}`));
  if (stale.length === 0 && suggestions.length === 0 && !problem) return null;
  return (
    <section class="nudges-wrap" aria-label="Reminders and suggestions">
      <ul class="nudges">
        {stale.map((f) => (
          <li key={`stale:${f.cardId}`} class="nudge nudge-stale" data-nudge="stale" data-card-id={f.cardId}>
            <span class="nudge-text">
              {f.emoji ? `${f.emoji} ` : ''}
              <strong>{f.label}</strong>: nothing logged for {f.ageDays} days
              {f.expectDays
                ? ` (you planned every ${f.expectDays === 1 ? 'day' : `${f.expectDays} days`})`
                : ''}
              .
            </span>
            <span class="nudge-actions">
              <button type="button" class="button button-small" onClick={() => bringIntoView(f.cardId)}>
                Log now
              </button>
              <button
                type="button"
                class="button button-small button-quiet"
                aria-label={`Dismiss the reminder about ${f.label}`}
                onClick={() =>
                  void dismiss(`stale:${f.cardId}`, `/api/hygiene/${encodeURIComponent(f.cardId)}/dismiss`, {
                    kind: 'stale',
                  })
                }
              >
                Dismiss
              </button>
            </span>
          </li>
        ))}
        {suggestions.map((s) => {
          const about = ABOUT[s.category] ?? s.category;
          return (
            <li key={`cc:${s.category}`} class="nudge" data-nudge="combine" data-category={s.category}>
              <span class="nudge-text">
                🧩 You have {s.cardIds.length} cards about {about}: {listText(s.labels)}. Show them together
                in one card?
              </span>
              <span class="nudge-actions">
                <button
                  type="button"
                  class="button button-small"
                  onClick={() => openChatWith(`Make me one card that shows ${listText(s.labels)} together.`)}
                >
                  Ask the chat
                </button>
                <button
                  type="button"
                  class="button button-small button-quiet"
                  aria-label={`Dismiss the suggestion to combine ${listText(s.labels)}`}
                  onClick={() =>
                    void dismiss(
                      `cc:${s.category}`,
                      `/api/cc-suggestions/${encodeURIComponent(s.category)}/dismiss`,
                      {
                        cardIds: s.cardIds,
                      },
                    )
                  }
                >
                  Not now
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      {problem && (
        <p class="setting-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
