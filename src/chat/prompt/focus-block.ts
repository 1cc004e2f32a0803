/**
 * `## Card in focus` (the card the user is looking
 * at, from `viewedCardId`, only when it resolves). Volatile: it may change on every request, so it
 * comes after the last cache breakpoint.
 */
import { firstLine } from '../../common/text.js';
import { cardTitle } from './instance-blocks.js';

/** Largest meta JSON shown, bytes of UTF-8 (our cap; the model can read_manifest_meta for more). */
export const MAX_FOCUS_META_BYTES = 4096;

/** The card the user has open. */
export interface FocusCard {
  id: string;
  label: string;
  emoji?: string;
  meta: Record<string, unknown>;
  description?: string;
}

/**
 * Input: a meta object. Output: its compact JSON, at most MAX_FOCUS_META_BYTES bytes, and the
 * top-level keys left out to get there (largest first, ties by name), so the result is always
 * whole, parseable JSON.
 */
export function compactMeta(meta: Record<string, unknown>): { json: string; omitted: string[] } {
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
  const full = JSON.stringify(meta);
  if (bytes(full) <= MAX_FOCUS_META_BYTES) return { json: full, omitted: [] };
  const bySize = Object.keys(meta)
    .map((k) => ({ k, size: bytes(JSON.stringify(meta[k]) ?? '') }))
    .sort((a, b) => b.size - a.size || a.k.localeCompare(b.k));
  const kept = { ...meta };
  const omitted: string[] = [];
  for (const { k } of bySize) {
    delete kept[k];
    omitted.push(k);
    if (bytes(JSON.stringify(kept)) <= MAX_FOCUS_META_BYTES) break;
  }
  return { json: JSON.stringify(kept), omitted };
}

/**
 * Input: the focused card. Output: `## Card in focus` with its id and title, its first
 * description line, and its meta as compact JSON (see compactMeta; omitted keys are named, with
 * a pointer to read_manifest_meta).
 */
export function focusBlock(card: FocusCard): string {
  const { json, omitted } = compactMeta(card.meta);
  const lines = [
    '## Card in focus',
    `The user has this card open: ${card.id} (${cardTitle(card)}). "This card" and "it" most likely mean it.`,
  ];
  const desc = firstLine(card.description, 120);
  if (desc) lines.push(`Description: ${desc}`);
  lines.push(`Meta: ${json}`);
  if (omitted.length > 0) {
    lines.push(`Left out for size: ${omitted.join(', ')}. Call read_manifest_meta for them.`);
  }
  return lines.join('\n');
}
