/**
 * `schedule-timeline` (docs/MANIFEST-SCHEMA.md "Reports-view config": `windowDays`, `showPast`,
 * `showFuture`; also on Trends with `groupBy`/`itemsPath`): a read-only dot grid, one row per
 * scheduled item (in the card's groups), one column per day around today. A filled dot is a day
 * whose doses were all taken, a half one some, a red ring a missed day, a plain ring a day still
 * to come. Window and cell states come from src/common/schedule-timeline.ts.
 */
import { useMemo } from 'preact/hooks';
import { groupReportItems, reportItems } from '../../src/common/schedule-groups.js';
import { type TimelineCell, timelineCells, timelineDays } from '../../src/common/schedule-timeline.js';
import { useCardData } from '../lib/card-data.js';
import { today as todayDate } from '../lib/dates.js';
import { day as dayText } from '../lib/format.js';
import type { RendererProps } from './registry.js';
import { RendererNote } from './renderer-note.js';
import '../styles/cards/schedule-timeline.css';

const STATE_TEXT: Record<TimelineCell['state'], (c: TimelineCell) => string> = {
  none: () => 'not due',
  extra: (c) => `not due, ${c.taken} taken`,
  taken: (c) => (c.due === 1 ? 'taken' : `all ${c.due} taken`),
  partial: (c) => `${c.taken} of ${c.due} taken`,
  missed: (c) => (c.due === 1 ? 'missed' : `${c.due} missed`),
  due: (c) => (c.due === 1 ? 'due today' : `${c.due} due today`),
  upcoming: (c) => (c.due === 1 ? 'due' : `${c.due} due`),
};

export function ScheduleTimeline({ card, date }: RendererProps) {
  const { data, loading, error } = useCardData(card.id);
  const cfg = card.viewConfig;
  // the window is around the day shown; taken, missed and upcoming are seen from the real today
  const today = todayDate();
  const days = useMemo(() => timelineDays(cfg, date), [cfg, date]);
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
                    const text = `${dayText(c.date, 'short-weekday')}: ${STATE_TEXT[c.state](c)}`;
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
          <span class="timeline-dot dot-taken" aria-hidden="true" /> taken
        </li>
        <li>
          <span class="timeline-dot dot-partial" aria-hidden="true" /> some
        </li>
        <li>
          <span class="timeline-dot dot-missed" aria-hidden="true" /> missed
        </li>
        <li>
          <span class="timeline-dot dot-upcoming" aria-hidden="true" /> due
        </li>
      </ul>
    </div>
  );
}
