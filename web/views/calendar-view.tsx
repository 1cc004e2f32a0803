/**
 * The calendar (`/calendar`): a month grid whose days lead to that day's dashboard. Cards with
 * `meta.calendar.enabled` will add their day markers to it (the `day-marker` renderer); for now
 * the view lists which cards take part.
 */
import { useState } from 'preact/hooks';
import { ChevronLeft, ChevronRight } from '../components/icons.js';
import { ErrorNote } from '../components/status.js';
import { api } from '../lib/api.js';
import { longDate, monthTitle, today } from '../lib/dates.js';
import type { ViewResponse } from '../lib/types.js';
import { useResource } from '../lib/use-resource.js';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function CalendarView() {
  const now = today();
  const [ym, setYm] = useState(() => ({ y: Number(now.slice(0, 4)), m: Number(now.slice(5, 7)) }));
  const res = useResource((signal) => api<ViewResponse>('/api/views/calendar', { signal }), []);
  const shift = (delta: number) =>
    setYm(({ y, m }) => {
      const i = y * 12 + (m - 1) + delta;
      return { y: Math.floor(i / 12), m: (i % 12) + 1 };
    });
  const first = new Date(Date.UTC(ym.y, ym.m - 1, 1));
  const lead = (first.getUTCDay() + 6) % 7; // Monday first
  const days = new Date(Date.UTC(ym.y, ym.m, 0)).getUTCDate();
  const cells: (string | null)[] = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length: days }, (_, i) => `${ym.y}-${pad(ym.m)}-${pad(i + 1)}`),
  ];
  const thisMonth = `${ym.y}-${pad(ym.m)}` >= now.slice(0, 7);
  return (
    <section class="view view-calendar" aria-labelledby="view-title">
      <div class="date-bar">
        <button type="button" class="icon-button" aria-label="Previous month" onClick={() => shift(-1)}>
          <ChevronLeft />
        </button>
        <div class="date-bar-title">
          <h1 id="view-title">{monthTitle(ym.y, ym.m)}</h1>
        </div>
        <button
          type="button"
          class="icon-button"
          aria-label="Next month"
          disabled={thisMonth}
          onClick={() => shift(1)}
        >
          <ChevronRight />
        </button>
      </div>
      <div class="month">
        {WEEKDAYS.map((d) => (
          <div key={d} class="month-weekday" aria-hidden="true">
            {d}
          </div>
        ))}
        {cells.map((date, i) =>
          date === null ? (
            <div key={`blank-${i}`} class="month-day month-blank" />
          ) : date > now ? (
            <div key={date} class="month-day month-future">
              <span class="month-num">{Number(date.slice(8))}</span>
            </div>
          ) : (
            <a
              key={date}
              aria-label={longDate(date)}
              class={`month-day${date === now ? ' month-today' : ''}`}
              href={date === now ? '/' : `/day/${date}`}
              aria-current={date === now ? 'date' : undefined}
            >
              <span class="month-num">{Number(date.slice(8))}</span>
              <span class="month-markers" data-date={date} />
            </a>
          ),
        )}
      </div>
      {res.error ? (
        <ErrorNote error={res.error} onRetry={res.reload} />
      ) : (
        res.data && (
          <div class="calendar-legend">
            {res.data.cards.length === 0 ? (
              <p class="muted">
                No card marks the calendar yet. Cards whose manifest sets <code>meta.calendar.enabled</code>{' '}
                add a mark to each day they have data.
              </p>
            ) : (
              <ul class="chips" aria-label="Cards on the calendar">
                {res.data.cards.map((c) => (
                  <li key={c.id} class="chip" data-card-id={c.id}>
                    {c.meta.emoji && <span aria-hidden="true">{c.meta.emoji}</span>} {c.meta.label}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )
      )}
    </section>
  );
}
