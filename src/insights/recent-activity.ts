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
import { rowDay } from '../cards/write-policy.js';
import { daysBetween, todayIn } from '../common/dates.js';
import { addsUpDay, isRunningTotal, sumEntries } from '../common/day-total.js';
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

/** How a card's rows are compared by lastNDelta. */
export interface DeltaRule {
  /** The card's date field (default `date`). */
  dateField?: string;
  /** The person's today: rows of a later day (planned ahead) are not compared. */
  today?: string;
  /** The person's zone, where instants are filed. */
  timeZone?: string;
  /** The card adds up its day (`aggregate: "sum"`): days' totals are compared, not single entries. */
  addsUpDay?: boolean;
  /** A day whose total is only so far (today, on a running total): not compared. */
  unfinished?: string;
}

/** last − previous, only when both share exactly one numeric field. */
function deltaOf(last: unknown, prev: unknown): number | null {
  const shared = numericKeys(last).filter((k) => numericKeys(prev).includes(k));
  if (shared.length !== 1) return null;
  const [a, b] = [last, prev] as Record<string, number>[];
  return cleanDelta(a[shared[0]], b[shared[0]]);
}

/**
 * last − previous of the newest rows (`newestFirst`, in row order), only when the two share
 * exactly one numeric field. Rows of a day after `rule.today` (planned ahead) are passed over,
 * as for the latest entry date. On a card that adds up its day the two latest days' totals are
 * compared (a glass of water against the glass before says nothing), leaving out a day still
 * going (`rule.unfinished`); null when `newestFirst` may not hold the whole of the second day.
 */
export function lastNDelta(newestFirst: unknown[], rule: DeltaRule = {}): number | null {
  const field = rule.dateField ?? 'date';
  const dayOf = (row: unknown) => rowDay(row, field, rule.timeZone);
  const rows =
    rule.today === undefined
      ? newestFirst
      : newestFirst.filter((r) => {
          const d = dayOf(r);
          return d === null || d <= (rule.today as string);
        });
  if (!rule.addsUpDay) return rows.length < 2 ? null : deltaOf(rows[0], rows[1]);
  const days: { day: string; rows: Record<string, unknown>[] }[] = [];
  for (const r of rows) {
    const d = dayOf(r);
    if (d === null || d === rule.unfinished || r === null || typeof r !== 'object') continue;
    const last = days.at(-1);
    if (last?.day === d) last.rows.push(r as Record<string, unknown>);
    else if (days.length < 3) days.push({ day: d, rows: [r as Record<string, unknown>] });
  }
  // a third day seen means the second was read whole
  if (days.length < 3 && newestFirst.length >= DELTA_WINDOW_SUM) return null;
  if (days.length < 2) return null;
  const total = (g: { rows: Record<string, unknown>[] }) =>
    sumEntries([...g.rows].reverse(), [field, 'time']);
  return deltaOf(total(days[0]), total(days[1]));
}

/** Newest rows lastNDelta reads of a card that adds up its day (several days of entries). */
const DELTA_WINDOW_SUM = 256;
/** Newest rows it reads of another card (the newest two, past a few planned ahead). */
const DELTA_WINDOW = 32;

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
    const meta = card.manifest.meta;
    const sums = addsUpDay(view, meta);
    const rule = {
      dateField: dateFieldOf(card),
      today,
      timeZone,
      addsUpDay: sums,
      unfinished: isRunningTotal(view, meta) ? today : undefined,
    };
    delta = lastNDelta(ctx.store.newestRows(card.id, sums ? DELTA_WINDOW_SUM : DELTA_WINDOW), rule);
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
