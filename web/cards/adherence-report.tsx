/**
 * `adherence-report` (docs/MANIFEST-SCHEMA.md "Reports-view config": `showCompliance` default true,
 * `showInventory`): per scheduled item, the share of doses taken over the last `windowDays`
 * (default 30) days, and with `showInventory` the stock left and how long it lasts. The numbers
 * come from src/common/adherence-report.ts (on the shared schedule engine); this file draws them,
 * in the words of the config's `vocab` (src/common/schedule-vocab.ts).
 */
import { useMemo } from 'preact/hooks';
import {
  adherenceReport,
  type ItemAdherence,
  type AdherenceReport as Report,
} from '../../src/common/adherence-report.js';
import { daysBetween } from '../../src/common/dates.js';
import { type ScheduleVocab, scheduleVocab } from '../../src/common/schedule-vocab.js';
import { useCardData } from '../lib/card-data.js';
import { dayMonth } from '../lib/dates.js';
import type { RendererProps } from './registry.js';
import { RendererNote } from './renderer-note.js';
import '../styles/cards/adherence-report.css';

/** "86%", or "—" when nothing was due. */
export function percent(rate: number | null): string {
  return rate === null ? '—' : `${Math.round(rate * 100)}%`;
}

/** The colour band of a rate: good from 90%, fair from 70%. */
function band(rate: number | null): 'none' | 'good' | 'fair' | 'low' {
  if (rate === null) return 'none';
  return rate >= 0.9 ? 'good' : rate >= 0.7 ? 'fair' : 'low';
}

function windowText(r: Report): string {
  if (r.countedFrom > r.from)
    return r.countedFrom === r.to
      ? 'today'
      : `the ${daysBetween(r.countedFrom, r.to) + 1} days since tracking began`;
  return r.windowDays === 1 ? 'today' : `the last ${r.windowDays} days`;
}

function stockText(it: ItemAdherence, date: string): string {
  const s = it.stock;
  if (!s) return '';
  const left = `${s.left} ${s.unit ?? (s.left === 1 ? 'dose' : 'doses')} left`;
  if (s.days === null) return `${left} · nothing due soon`;
  if (s.days === 0) return `${left} · not enough for today`;
  if (s.lastDay === date) return `${left} · lasts today only`;
  if (s.days > 730) return `${left} · lasts over two years`;
  return `${left} · lasts until ${dayMonth(s.lastDay ?? date)} (${s.days} days)`;
}

function ItemRow({
  it,
  compliance,
  inventory,
  date,
  vocab,
}: {
  it: ItemAdherence;
  compliance: boolean;
  inventory: boolean;
  date: string;
  vocab: ScheduleVocab;
}) {
  const b = band(it.rate);
  return (
    <li
      class="adh-item"
      data-item={it.name}
      data-rate={it.rate === null ? '' : String(Math.round(it.rate * 100))}
    >
      <div class="adh-item-head">
        <span class="adh-name">
          {it.name}
          {it.dose && <span class="adh-dose"> · {it.dose}</span>}
        </span>
        {compliance && <span class={`adh-pct adh-${b}`}>{percent(it.rate)}</span>}
      </div>
      {compliance && (
        <>
          <div class="adh-track" aria-hidden="true">
            <div class={`adh-fill adh-fill-${b}`} style={{ width: `${Math.round((it.rate ?? 0) * 100)}%` }} />
          </div>
          <p class="adh-detail">
            {it.scheduled === 0
              ? 'Nothing was due'
              : `${it.taken} of ${it.scheduled} ${it.scheduled === 1 ? vocab.noun : vocab.nouns} ${vocab.taken}`}
            {it.extra > 0 && ` · ${it.extra} ${vocab.extra}`}
            {it.lastTaken
              ? ` · last ${it.lastTaken === date ? 'today' : dayMonth(it.lastTaken)}`
              : ' · none logged yet'}
          </p>
        </>
      )}
      {inventory && it.stock && (
        <p class={`adh-stock${it.stock.days !== null && it.stock.days <= 7 ? ' adh-stock-low' : ''}`}>
          {stockText(it, date)}
        </p>
      )}
    </li>
  );
}

export function AdherenceReport({ card, date }: RendererProps) {
  const { data, loading, error } = useCardData(card.id);
  const cfg = card.viewConfig;
  const compliance = cfg.showCompliance !== false;
  const inventory = cfg.showInventory === true;
  const report = useMemo(() => adherenceReport(data, date, cfg, card.meta), [data, date, cfg, card.meta]);
  const vocab = useMemo(() => scheduleVocab(cfg), [cfg]);

  if (data === undefined) {
    if (loading) return <RendererNote>Loading…</RendererNote>;
    return (
      <RendererNote tone="problem">
        Could not load this report{error ? `: ${error.message}` : '.'}
      </RendererNote>
    );
  }
  const count = report.groups.reduce((n, g) => n + g.items.length, 0);
  if (count === 0) {
    return data === null || (Array.isArray(data) && data.length === 0) ? (
      <RendererNote>No scheduled items yet.</RendererNote>
    ) : (
      <RendererNote tone="problem">
        Nothing with a schedule on this card yet: add a medicine or supplement with the days it is due, or ask
        the chat to.
      </RendererNote>
    );
  }
  return (
    <div class="adh" data-window-days={report.windowDays}>
      {vocab.headline && <h3 class="adh-headline">{vocab.headline}</h3>}
      {compliance && (
        <p class="adh-summary">
          {report.overall.rate !== null && (
            <span class={`adh-overall adh-${band(report.overall.rate)}`}>{percent(report.overall.rate)}</span>
          )}
          <span class="adh-summary-text">
            {report.overall.scheduled === 0
              ? `Nothing was due in ${windowText(report)}.`
              : `of ${vocab.nouns} ${vocab.taken} in ${windowText(report)} (${report.overall.taken} of ${report.overall.scheduled}), ${dayMonth(report.countedFrom)} – ${dayMonth(report.to)}`}
          </span>
        </p>
      )}
      {report.groups.map((g) => (
        <section key={g.id || 'rest'} class="adh-group" aria-label={g.label ?? undefined}>
          {g.label && <h3 class="adh-group-title">{g.label}</h3>}
          <ul class="adh-items">
            {g.items.map((it) => (
              <ItemRow
                key={it.name}
                it={it}
                compliance={compliance}
                inventory={inventory}
                date={date}
                vocab={vocab}
              />
            ))}
          </ul>
        </section>
      ))}
      {inventory && !report.hasStock && (
        <RendererNote>
          No stock recorded. Note how many doses are on hand for an item (or ask the chat to) to see how long
          it lasts.
        </RendererNote>
      )}
    </div>
  );
}
