/**
 * Combined-view suggestions: when three or more switched-on cards share a category (sleep,
 * vitals, …), a combination card showing them together is suggested. Cards already shown by a
 * combination card (its sources) and combination cards themselves do not count, nor does the
 * welcome card. A suggestion the person dismissed stays away until its set of cards changes.
 */

import type { CardContext } from '../cards/card-context.js';
import { compareCards } from '../cards/card-crud.js';
import { isKnownCategory } from '../cards/categories.js';
import { WELCOME_CARD_ID } from '../cards/welcome-auto-hide.js';

/** Cards sharing a category before a combined view is suggested. */
export const SUGGEST_MIN_CARDS = 3;

/** One suggestion: the category and its cards (ids and labels, in dashboard order). */
export interface CombinationSuggestion {
  category: string;
  cardIds: string[];
  labels: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The key a dismissal of this set is kept under: the category and the sorted card ids. */
export function suggestionKey(category: string, cardIds: string[]): string {
  return `${category}::${[...cardIds].sort().join(',')}`;
}

/** The ids every combination card reads from. */
function donorIds(ctx: CardContext): Set<string> {
  const donors = new Set<string>();
  for (const card of ctx.registry.all()) {
    const view = card.manifest.meta.view;
    if (!isObject(view) || view.component !== 'combination-card' || !Array.isArray(view.combines)) continue;
    for (const c of view.combines) if (isObject(c) && typeof c.sourceId === 'string') donors.add(c.sourceId);
  }
  return donors;
}

/** The suggestions of the cards now loaded, minus the `dismissed` keys. */
export function combinationSuggestions(ctx: CardContext, dismissed: Set<string>): CombinationSuggestion[] {
  const donors = donorIds(ctx);
  const byCategory = new Map<string, { id: string; label: string }[]>();
  for (const card of ctx.registry.all().sort(compareCards)) {
    const meta = card.manifest.meta;
    const view = meta.view;
    if (meta.enabled === false || card.id === WELCOME_CARD_ID || donors.has(card.id)) continue;
    if (isObject(view) && view.component === 'combination-card') continue;
    if (!isKnownCategory(meta.category)) continue;
    const list = byCategory.get(meta.category) ?? [];
    list.push({ id: card.id, label: String(meta.label) });
    byCategory.set(meta.category, list);
  }
  const out: CombinationSuggestion[] = [];
  for (const [category, cards] of byCategory) {
    if (cards.length < SUGGEST_MIN_CARDS) continue;
    const cardIds = cards.map((c) => c.id);
    if (dismissed.has(suggestionKey(category, cardIds))) continue;
    out.push({ category, cardIds, labels: cards.map((c) => c.label) });
  }
  return out;
}
