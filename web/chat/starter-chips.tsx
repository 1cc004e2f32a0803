/**
 * Starter chips under the empty conversation: questions the person's cards suggest
 * (`GET /api/prompts`: their `chat.starterPrompts`, one card after the other, with general first
 * steps on a new home). A chip sends its text as the first message. Re-read when cards change.
 */
import { api } from '../lib/api.js';
import { cardsVersion } from '../lib/live.js';
import { useResource } from '../lib/use-resource.js';
import { sendMessage } from './conversation-actions.js';
import { turnActive } from './turn-runner.js';

interface StarterPrompt {
  text: string;
  kind: 'data' | 'tweak';
  cardId?: string;
}

export function StarterChips() {
  const res = useResource(
    (signal) => api<{ prompts: StarterPrompt[] }>('/api/prompts', { signal }),
    [cardsVersion.value],
  );
  const prompts = res.data?.prompts ?? [];
  if (prompts.length === 0) return null;
  return (
    <ul class="chat-chips" aria-label="Suggestions" data-chat-chips="">
      {prompts.map((p) => (
        <li key={p.text}>
          <button
            type="button"
            class="chat-chip"
            data-kind={p.kind}
            disabled={turnActive.value}
            onClick={() => void sendMessage(p.text)}
          >
            {p.text}
          </button>
        </li>
      ))}
    </ul>
  );
}
