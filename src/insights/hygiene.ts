/**
 * The dashboard health check: report-only findings, never
 * a mutation. `stale` is opt-in per card (`meta.cadence.expectDays`); `growth` flags very long
 * cards; `orphaned-input` flags declared inputs that no row has ever carried. Disabled cards are
 * skipped.
 */
import type { CardContext } from '../cards/card-context.js';
import type { Card } from '../cards/card-registry.js';
import { todayIn } from '../common/dates.js';
import { GROWTH_ROWS, STALE_MIN_ROWS } from '../limits.js';
import { cardActivity } from './recent-activity.js';

/** One finding. */
export interface Finding {
  cardId: string;
  kind: 'stale' | 'growth' | 'orphaned-input';
  severity: 'info' | 'warn';
  detail: string;
  /** `stale` only: whole days since the latest entry, and the card's `cadence.expectDays`. */
  ageDays?: number;
  expectDays?: number;
}

function inputKeys(card: Card): string[] {
  const meta = card.manifest.meta;
  const w = meta.writeable as { inputs?: { key?: unknown }[] } | undefined;
  const legacy = (meta.view as { inputs?: { name?: unknown }[] } | undefined)?.inputs;
  const keys = [...(w?.inputs ?? []).map((i) => i?.key), ...(legacy ?? []).map((i) => i?.name)];
  return [...new Set(keys.filter((k): k is string => typeof k === 'string' && k !== ''))];
}

function dateFieldOfCard(card: Card): string {
  const view = card.manifest.meta.view as { dateField?: unknown } | undefined;
  return typeof view?.dateField === 'string' ? view.dateField : 'date';
}

/** Scans every enabled card. `kinds` limits the scan (the ambient nudge asks for 'stale' only). */
export function hygieneScan(
  ctx: CardContext,
  opts: { timeZone?: string; kinds?: Finding['kind'][] } = {},
): Finding[] {
  const want = new Set(opts.kinds ?? ['stale', 'growth', 'orphaned-input']);
  const today = todayIn(opts.timeZone);
  const findings: Finding[] = [];
  for (const card of ctx.registry.all()) {
    const meta = card.manifest.meta;
    if (meta.enabled === false) continue;
    const act = cardActivity(ctx, card, today, opts.timeZone);
    const expect = (meta.cadence as { expectDays?: unknown } | undefined)?.expectDays;
    const writeable = (meta.writeable as { fromWebapp?: unknown } | undefined)?.fromWebapp === true;
    // stale needs at least three rows with real dates (undated rows say nothing about recency)
    if (
      want.has('stale') &&
      typeof expect === 'number' &&
      writeable &&
      act.staleSource === 'rows' &&
      ctx.store.countDated(card.id, dateFieldOfCard(card), STALE_MIN_ROWS) >= STALE_MIN_ROWS &&
      act.ageDays !== null &&
      act.ageDays > expect
    ) {
      findings.push({
        cardId: card.id,
        kind: 'stale',
        severity: act.ageDays > 2 * expect ? 'warn' : 'info',
        detail: `last entry ${act.lastEntryDate}, ${act.ageDays} days ago; expected every ${expect} days`,
        ageDays: act.ageDays,
        expectDays: expect,
      });
    }
    if (want.has('growth') && act.rowCount > GROWTH_ROWS) {
      findings.push({ cardId: card.id, kind: 'growth', severity: 'info', detail: `${act.rowCount} rows` });
    }
    if (want.has('orphaned-input') && ctx.store.state(card.id).shape === 'array' && act.rowCount > 0) {
      const orphans = inputKeys(card).filter((k) => !ctx.store.anyRowHas(card.id, k));
      if (orphans.length) {
        findings.push({
          cardId: card.id,
          kind: 'orphaned-input',
          severity: 'info',
          detail: `inputs never filled in any row: ${orphans.join(', ')}`,
        });
      }
    }
  }
  return findings;
}
