/**
 * Today (`/`) and any other day (`/day/:date`): every card on the dashboard, drawn for that
 * date. The date bar scrubs back through past days; the live day is the person's today.
 */
import { useEffect } from 'preact/hooks';
import { ChevronLeft, ChevronRight } from '../components/icons.js';
import { Empty } from '../components/status.js';
import { addDays, dayMonth, dayName, isIsoDate, longDate, today } from '../lib/dates.js';
import { navigate } from '../lib/router.js';
import { CardGrid } from './card-grid.js';

export function TodayView({ date }: { date: string | null }) {
  const now = today();
  // `/day/<today>` is the live page: show it under its own address
  useEffect(() => {
    if (date === now) navigate('/', { replace: true });
  }, [date, now]);
  if (date !== null && !isIsoDate(date)) {
    return (
      <Empty emoji="🗓️" title="That is not a date">
        Days are written as year-month-day, like <code>/day/{now}</code>. <a href="/">Back to today</a>
      </Empty>
    );
  }
  const shown = date ?? now;
  const live = shown === now;
  const dayHref = (d: string) => (d === now ? '/' : `/day/${d}`);
  return (
    <section class="view view-today" aria-labelledby="view-title">
      <div class="date-bar">
        <a class="icon-button" href={dayHref(addDays(shown, -1))} aria-label="Previous day" rel="prev">
          <ChevronLeft />
        </a>
        <div class="date-bar-title">
          <h1 id="view-title">{dayName(shown, now)}</h1>
          <p class="muted">
            {live ? (
              longDate(shown)
            ) : (
              <>
                {dayMonth(shown)} · <a href="/">Back to today</a>
              </>
            )}
          </p>
        </div>
        {shown < now ? (
          <a class="icon-button" href={dayHref(addDays(shown, 1))} aria-label="Next day" rel="next">
            <ChevronRight />
          </a>
        ) : (
          <span class="icon-button" aria-hidden="true" />
        )}
      </div>
      <CardGrid
        view="view"
        date={shown}
        live={live}
        empty={
          <Empty emoji="🌱" title="No cards yet">
            Drop a card file into the <code>data/</code> folder of your Klebb home, or ask the chat to make
            one.
          </Empty>
        }
      />
    </section>
  );
}
