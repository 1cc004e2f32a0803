/**
 * The chat's starter chips: questions taken from `meta.chat.starterPrompts` of the switched-on
 * cards, one card after the other (each card's first, then each card's second, …) so that one
 * card with many prompts does not fill the row; the card to start with moves on by one each day.
 * When the cards give too few: "Show me my <label> data" for cards with entries, then general
 * first steps for a home with nothing logged yet.
 */

import type { CardContext } from '../cards/card-context.js';
import { compareCards } from '../cards/card-crud.js';
import { WELCOME_CARD_ID } from '../cards/welcome-auto-hide.js';
import { isolateText } from '../common/isolate-text.js';

/** Chips offered at most. */
export const MAX_STARTER_PROMPTS = 4;
/** Longest prompt text taken from a card, characters (longer ones are skipped). */
export const MAX_STARTER_PROMPT_CHARS = 200;

/** One chip: its text (sent as the message), its kind, and the card it came from (none for a general one). */
export interface StarterPrompt {
  text: string;
  kind: 'data' | 'tweak';
  cardId?: string;
}

/** The chips of a home with no card to ask about. */
export const GENERAL_PROMPTS: StarterPrompt[] = [
  { text: 'What can you help me track?', kind: 'tweak' },
  { text: 'Make me a card for my sleep', kind: 'tweak' },
  { text: 'Make me a mood diary', kind: 'tweak' },
];

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The valid starter prompts a card declares, in its order. */
function promptsOf(meta: Record<string, unknown>, cardId: string): StarterPrompt[] {
  const list = isObject(meta.chat) ? meta.chat.starterPrompts : undefined;
  if (!Array.isArray(list)) return [];
  const out: StarterPrompt[] = [];
  for (const p of list) {
    if (!isObject(p) || typeof p.text !== 'string') continue;
    const text = p.text.trim();
    if (text === '' || text.length > MAX_STARTER_PROMPT_CHARS) continue;
    out.push({ text, kind: p.kind === 'tweak' ? 'tweak' : 'data', cardId });
  }
  return out;
}

/**
 * Up to `max` chips for the cards now loaded. `day` (days since 1970, default today's) picks the
 * card to start with.
 */
export function starterPrompts(ctx: CardContext, opts: { max?: number; day?: number } = {}): StarterPrompt[] {
  const max = opts.max ?? MAX_STARTER_PROMPTS;
  const cards = ctx.registry
    .all()
    .filter((c) => c.manifest.meta.enabled !== false && c.id !== WELCOME_CARD_ID)
    .sort(compareCards);
  const lists = cards.map((c) => promptsOf(c.manifest.meta, c.id)).filter((l) => l.length > 0);
  const out: StarterPrompt[] = [];
  const seen = new Set<string>();
  const push = (p: StarterPrompt) => {
    if (out.length >= max || seen.has(p.text.toLowerCase())) return;
    seen.add(p.text.toLowerCase());
    out.push(p);
  };
  const start = lists.length ? (opts.day ?? Math.floor(Date.now() / 86_400_000)) % lists.length : 0;
  const rotated = [...lists.slice(start), ...lists.slice(0, start)];
  for (let round = 0; out.length < max && rotated.some((l) => l.length > round); round++) {
    for (const l of rotated) if (l[round]) push(l[round]);
  }
  const withData = cards.filter(
    (c) => promptsOf(c.manifest.meta, c.id).length === 0 && ctx.store.state(c.id).rowCount > 0,
  );
  for (const c of withData)
    push({
      text: `Show me my ${isolateText(String(c.manifest.meta.label))} data`,
      kind: 'data',
      cardId: c.id,
    });
  if (out.length === 0) for (const p of GENERAL_PROMPTS) push(p);
  return out;
}
