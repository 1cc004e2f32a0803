/**
 * `schedule-timeline` (docs/MANIFEST-SCHEMA.md "Reports-view config": `windowDays`, `showPast`,
 * `showFuture`; also on Trends with `groupBy`/`itemsPath`): a read-only dot grid, one row per
 * scheduled item (in the card's groups), one column per day around today. A filled dot is a day
 * whose doses were all taken, a half one some, a red ring a missed day, a plain ring a day still
 * to come. Window and cell states come from src/common/schedule-timeline.ts; the words for them
 * from the config's `vocab` (src/common/schedule-vocab.ts: "done" and "skipped" for a training
 * plan).
 */
import { useMemo } from 'preact/hooks';
import { groupReportItems, reportItems } from '../../src/common/schedule-groups.js';
import { type TimelineCell, timelineCells, timelineDays } from '../../src/common/schedule-timeline.js';
import { type ScheduleVocab, scheduleVocab } from '../../src/common/schedule-vocab.js';
import { useCardData } from '../lib/card-data.js';
import { today as todayDate } from '../lib/dates.js';
import { day as dayText } from '../lib/format.js';
import type { RendererProps } from './registry.js';
import { RendererNote } from './renderer-note.js';
import '../styles/cards/schedule-timeline.css';

/** What a cell says, in the card's words. */
function stateText(c: TimelineCell, v: ScheduleVocab): string {
  switch (c.state) {
    case 'none':
      return v.notDue;
    case 'extra':
      return `${v.notDue}, ${c.taken} ${v.taken}`;
    case 'taken':
      return c.due === 1 ? v.taken : `all ${c.due} ${v.taken}`;
    case 'partial':
      return `${c.taken} of ${c.due} ${v.taken}`;
    case 'missed':
      return c.due === 1 ? v.missed : `${c.due} ${v.missed}`;
    case 'due':
      return c.due === 1 ? `${v.due} today` : `${c.due} ${v.due} today`;
    default:
      return c.due === 1 ? v.due : `${c.due} ${v.due}`;
  }
}

export function ScheduleTimeline({ card, date }: RendererProps) {
  const { data, loading, error } = useCardData(card.id);
  const cfg = card.viewConfig;
  // the window is around the day shown; taken, missed and upcoming are seen from the real today
  const today = todayDate();
  const days = useMemo(() => timelineDays(cfg, date), [cfg, date]);
  const vocab = useMemo(() => scheduleVocab(cfg), [cfg]);
  const groups = useMemo(() => {
    const items = reportItems(data, { itemsPath: cfg.itemsPath, meta: card.meta });
    return groupReportItems(data, items);
  }, [data, cfg, card.meta]);

  if (data === undefined) {
    if (loading) return <RendererNote>Loading…</RendererNote>;
    return (
      <RendererNote tone="problem">
        Could not load this timeline{error ? `: ${error.message}` : '.'}
      </RendererNote>
    );
  }
  if (groups.length === 0) {
    return data === null || (Array.isArray(data) && data.length === 0) ? (
      <RendererNote>No scheduled items yet.</RendererNote>
    ) : (
      <RendererNote tone="problem">
        Nothing with a schedule on this card yet: add a medicine or supplement with the days it is due, or ask
        the chat to.
      </RendererNote>
    );
  }
  const grid = { '--days': String(days.length) };
  return (
    <div class="timeline" data-days={days.length} data-first={days[0]} data-last={days[days.length - 1]}>
      <div class="timeline-row timeline-head" style={grid} aria-hidden="true">
        {days.map((d) => (
          <span key={d} class={`timeline-day${d === today ? ' is-today' : ''}`}>
            <span class="timeline-wd">{dayText(d, 'weekday-narrow')}</span>
            <span class="timeline-dn">{Number(d.slice(8))}</span>
          </span>
        ))}
      </div>
      {groups.map((g) => (
        <section key={g.id || 'rest'} class="timeline-group" aria-label={g.label ?? card.meta.label}>
          {g.label && <h3 class="timeline-group-title">{g.label}</h3>}
          {g.items.map((it) => {
            const cells = timelineCells(it.ref.item, days, today);
            return (
              <div key={it.name} class="timeline-item" data-item={it.name}>
                <p class="timeline-name">
                  {it.name}
                  {it.dose && <span class="timeline-dose"> · {it.dose}</span>}
                </p>
                <ol class="timeline-row" style={grid}>
                  {cells.map((c) => {
                    const text = `${dayText(c.date, 'short-weekday')}: ${stateText(c, vocab)}`;
                    return (
                      <li
                        key={c.date}
                        class={`timeline-cell${c.date === today ? ' is-today' : ''}`}
                        data-date={c.date}
                        data-state={c.state}
                        title={text}
                      >
                        <span class={`timeline-dot dot-${c.state}`} aria-hidden="true" />
                        <span class="visually-hidden">{text}</span>
                      </li>
                    );
                  })}
                </ol>
              </div>
            );
          })}
        </section>
      ))}
      <ul class="timeline-key" aria-label="Key">
        <li>
          <span class="timeline-dot dot-taken" aria-hidden="true" /> {vocab.taken}
        </li>
        <li>
          <span class="timeline-dot dot-partial" aria-hidden="true" /> some
        </li>
        <li>
          <span class="timeline-dot dot-missed" aria-hidden="true" /> {vocab.missed}
        </li>
        <li>
          <span class="timeline-dot dot-upcoming" aria-hidden="true" /> {vocab.due}
        </li>
      </ul>
    </div>
  );
}
