/**
 * A one-pass recency summary of every card: what the
 * agent reads before "how's my tracking" answers and before authoring a card. Reads only the
 * newest rows and an indexed max(date), never a whole big card.
 */
import fs from 'node:fs';
import type { CardContext } from '../cards/card-context.js';
import { compareCards } from '../cards/card-crud.js';
import type { Card } from '../cards/card-registry.js';
import { latestRowDay } from '../cards/latest-day.js';
import { daysBetween, todayIn } from '../common/dates.js';
import { cleanNumber, decimalPlaces } from '../common/numbers.js';

/** One card's recency. `ageDays` counts whole calendar days from `lastEntryDate` to today. */
export interface CardActivity {
  id: string;
  label: string;
  renderer: string | null;
  rowCount: number;
  lastEntryDate: string | null;
  ageDays: number | null;
  lastNDelta: number | null;
  staleSource: 'rows' | 'updatedAt' | 'mtime' | null;
  enabled: boolean;
}

/** Drops float artefacts: 80.2 - 80 is 0.2, not 0.20000000000000284. */
export function cleanDelta(a: number, b: number): number {
  // rounded to the inputs' decimals: 1234567.8 - 1234567.7 is 0.1, not 0.10000000009313226
  return cleanNumber(a - b, Math.max(decimalPlaces(a), decimalPlaces(b)));
}

function numericKeys(row: unknown): string[] {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return [];
  return Object.entries(row as Record<string, unknown>)
    .filter(([, v]) => typeof v === 'number' && Number.isFinite(v))
    .map(([k]) => k);
}

/** last − previous, only when the newest two rows share exactly one numeric field. */
export function lastNDelta(newestFirst: unknown[]): number | null {
  if (newestFirst.length < 2) return null;
  const [last, prev] = newestFirst as Record<string, number>[];
  const shared = numericKeys(last).filter((k) => numericKeys(prev).includes(k));
  return shared.length === 1 ? cleanDelta(last[shared[0]], prev[shared[0]]) : null;
}

function dateFieldOf(card: Card): string {
  const view = card.manifest.meta.view as Record<string, unknown> | undefined;
  return typeof view?.dateField === 'string' ? view.dateField : 'date';
}

/**
 * The activity of one card. Write times (the store's updatedAt, a file's mtime) are turned into
 * calendar dates in `timeZone` before days are counted, like `today`.
 */
export function cardActivity(ctx: CardContext, card: Card, today: string, timeZone?: string): CardActivity {
  const st = ctx.store.state(card.id);
  const view = card.manifest.meta.view as Record<string, unknown> | undefined;
  let lastEntryDate: string | null = null;
  let delta: number | null = null;
  if (st.shape === 'array' && st.rowCount > 0) {
    // the person's day of the latest row: an instant (Z or an offset) is filed in their zone; a
    // row planned for a later day than today is not the last thing logged (nor hides staleness)
    lastEntryDate = latestRowDay(ctx, card.id, dateFieldOf(card), timeZone, today);
    delta = lastNDelta(ctx.store.newestRows(card.id, 2));
  }
  let staleSource: CardActivity['staleSource'] = null;
  let effective = lastEntryDate;
  if (lastEntryDate) staleSource = 'rows';
  else if (st.updatedAt) {
    staleSource = 'updatedAt';
    effective = todayIn(timeZone, new Date(st.updatedAt));
  } else {
    try {
      effective = todayIn(timeZone, fs.statSync(card.file).mtime);
      staleSource = 'mtime';
    } catch {
      effective = null;
    }
  }
  return {
    id: card.id,
    label: String(card.manifest.meta.label),
    renderer: typeof view?.component === 'string' ? view.component : null,
    rowCount: st.rowCount,
    lastEntryDate,
    ageDays: effective ? Math.max(0, daysBetween(effective, today)) : null,
    lastNDelta: delta,
    staleSource,
    enabled: card.manifest.meta.enabled !== false,
  };
}

/** Every card's activity, in card order. `timeZone` decides "today". */
export function recentActivity(
  ctx: CardContext,
  timeZone?: string,
): { today: string; cards: CardActivity[] } {
  const today = todayIn(timeZone);
  return {
    today,
    cards: ctx.registry
      .all()
      .sort(compareCards)
      .map((c) => cardActivity(ctx, c, today, timeZone)),
  };
}
