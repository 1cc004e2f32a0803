/**
 * The card gallery's data (docs/API.md "Card gallery"): the ready-made cards with their previews,
 * a search over them, and making a card from one.
 */

import { lookupTable } from '../../src/common/lookup-table.js';
import { api } from '../lib/api.js';
import type { CardMeta } from '../lib/types.js';
import { primePreviews } from './template-preview.js';

/** Where a card shows, by page. */
export type GalleryView = 'today' | 'trends' | 'calendar' | 'reports';

/** One entry of `GET /api/templates`. */
export interface TemplateEntry {
  id: string;
  title: string;
  emoji: string | null;
  description: string;
  category: string | null;
  synonyms: string[];
  featured: boolean;
  views: GalleryView[];
  preview: { meta: CardMeta; data: unknown };
}

/** The gallery, its example rows ending on `today` (the browser's day), primed for the previews. @throws ApiError. */
export async function loadTemplates(today: string, signal?: AbortSignal): Promise<TemplateEntry[]> {
  const r = await api<{ templates: TemplateEntry[] }>(`/api/templates?today=${encodeURIComponent(today)}`, {
    signal,
  });
  primePreviews(r.templates);
  return r.templates;
}

/** The answer of `POST /api/settings/cards/from-template`. */
export interface AddedCard {
  id: string;
  label: string;
}

/**
 * Makes a card from template `templateId`; `copy` asks for another card when one from the template
 * is already there (else the server refuses 409 CARD_EXISTS). @throws ApiError with the server's reason.
 */
export function addFromTemplate(templateId: string, copy = false): Promise<AddedCard> {
  return api<AddedCard>('/api/settings/cards/from-template', {
    json: copy ? { templateId, copy } : { templateId },
  });
}

/** The words people use for the categories, searched along with the category itself. */
export const CATEGORY_NAMES = lookupTable<string>({
  sleep: 'Sleep',
  recovery: 'Recovery',
  activity: 'Activity',
  vitals: 'Vital signs',
  body: 'Body',
  mindfulness: 'Mind',
  lifestyle: 'Everyday',
  supplements: 'Supplements',
  medication: 'Medicine',
});

/** `s` lower-cased without accents, for matching ("Café" finds "cafe"). */
function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * True when every word of `query` is found in the template's title, category (its id or its
 * name), search words or description. An empty query matches everything.
 */
export function matchesSearch(t: TemplateEntry, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const category = t.category ? `${t.category} ${CATEGORY_NAMES[t.category] ?? ''}` : '';
  const hay = fold([t.title, category, ...t.synonyms, t.description].join(' \n '));
  return words.every((w) => hay.includes(w));
}

/** Featured templates first, then by title. */
export function galleryOrder(list: TemplateEntry[]): TemplateEntry[] {
  return list
    .slice()
    .sort((a, b) => Number(b.featured) - Number(a.featured) || a.title.localeCompare(b.title));
}
