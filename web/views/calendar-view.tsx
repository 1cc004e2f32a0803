/**
 * The calendar (`/calendar`, `/calendar?month=YYYY-MM`): a month grid, weeks starting on the day
 * they start on in the person's language (Monday in most of Europe, Sunday in the United States),
 * whose days lead to that day's dashboard (`/day/:date`). Each card with `meta.calendar.enabled`
 * (the `day-marker` renderer, cards/day-marker.tsx) puts its glyph on every day it has an entry;
 * a day cell shows at most three glyphs and `+N` for the rest (docs/MANIFEST-SCHEMA.md "calendar",
 * `layoutDayCell`). Today is highlighted; months after the current one cannot be opened. The data
 * comes from the view's batch read and stays live (card-grid.tsx `useViewCards`).
 *
 * Dates are calendar dates throughout: the grid is built from `YYYY-MM-DD` strings in
 * UTC arithmetic, so a row dated 20 April sits in the 20 April cell in every time zone.
 */
import { useState } from 'preact/hooks';
import { layoutDayCell } from '../../src/common/calendar-marker.js';
import { utcMs } from '../../src/common/dates.js';
import { dayMarkers } from '../cards/day-marker.js';
import { ChevronLeft, ChevronRight } from '../components/icons.js';
import { ErrorNote, Loading } from '../components/status.js';
import { cardDataSignal } from '../lib/card-data.js';
import { longDate, monthTitle, today } from '../lib/dates.js';
import { weekdayHeads, weekStart } from '../lib/format.js';
import type { ViewCard } from '../lib/types.js';
import { useAllDataIn, useViewCards } from './card-grid.js';
import '../styles/views.css';

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A year as a date writes it: four digits (`0026`), as `?month=` and the days' dates need. */
function year4(y: number): string {
  return String(y).padStart(4, '0');
}

/** A month as `{y, m}` (m 1–12). */
export interface YearMonth {
  y: number;
  m: number;
}

/** The month named by `?month=YYYY-MM` in `search`, or null when absent or not a month. */
export function monthFromSearch(search: string): YearMonth | null {
  const v = new URLSearchParams(search).get('month');
  const m = v ? /^(\d{4})-(\d{2})$/.exec(v) : null;
  if (!m) return null;
  const month = Number(m[2]);
  return month >= 1 && month <= 12 ? { y: Number(m[1]), m: month } : null;
}

/** `ym` shifted by `delta` months. */
export function shiftMonth({ y, m }: YearMonth, delta: number): YearMonth {
  const i = y * 12 + (m - 1) + delta;
  return { y: Math.floor(i / 12), m: (i % 12) + 1 };
}

/**
 * The cells of a month grid whose weeks start on `first` (0 Sunday … 6 Saturday; default Monday):
 * null for the blanks before the 1st, then each date.
 */
export function monthCells({ y, m }: YearMonth, first = 1): (string | null)[] {
  // utcMs, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999
  const lead = (new Date(utcMs(y, m - 1, 1)).getUTCDay() - first + 7) % 7;
  const days = new Date(utcMs(y, m, 0)).getUTCDate();
  return [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length: days }, (_, i) => `${year4(y)}-${pad(m)}-${pad(i + 1)}`),
  ];
}

/** The glyphs of every card, by date, in card order. Reads the cards' data signals (the caller re-renders on change). */
function glyphsByDay(
  cards: ViewCard[],
  from: string,
  to: string,
): Map<string, { glyph: string; label: string }[]> {
  const out = new Map<string, { glyph: string; label: string }[]>();
  for (const card of cards) {
    const { data } = cardDataSignal(card.id).value;
    if (data === undefined) continue;
    for (const [day, glyph] of dayMarkers(card.meta, data, from, to)) {
      const list = out.get(day);
      const mark = { glyph, label: card.meta.label };
      if (list) list.push(mark);
      else out.set(day, [mark]);
    }
  }
  return out;
}

/** The glyph a card shows in the legend: its static marker, else its emoji, else `•`. */
function legendGlyph(card: ViewCard): string {
  const marker = card.viewConfig.marker;
  if (typeof marker === 'string' && marker.trim() !== '') return marker;
  return card.meta.emoji ?? '•';
}

export function CalendarView() {
  const now = today();
  const current: YearMonth = { y: Number(now.slice(0, 4)), m: Number(now.slice(5, 7)) };
  const notAfterNow = (v: YearMonth | null) =>
    v && v.y * 12 + v.m <= current.y * 12 + current.m ? v : current;
  // the month is kept in the address (`?month=`), so a reload or a shared link opens the same month
  const [ym, setYm] = useState<YearMonth>(() => notAfterNow(monthFromSearch(location.search)));
  const isCurrent = ym.y === current.y && ym.m === current.m;
  const go = (next: YearMonth) => {
    const to = notAfterNow(next);
    setYm(to);
    const same = to.y === current.y && to.m === current.m;
    history.replaceState(
      history.state,
      '',
      same ? '/calendar' : `/calendar?month=${year4(to.y)}-${pad(to.m)}`,
    );
  };

  const res = useViewCards('calendar');
  const cards = res.data?.cards ?? [];
  const drawn = useAllDataIn(res.data?.cards);
  const first = weekStart();
  const cells = monthCells(ym, first);
  const firstDate = `${year4(ym.y)}-${pad(ym.m)}-01`;
  const last = cells[cells.length - 1] as string;
  const glyphs = glyphsByDay(cards, firstDate, last);

  return (
    <section class="view view-calendar" aria-labelledby="view-title">
      <div class="date-bar">
        <button
          type="button"
          class="icon-button"
          aria-label="Previous month"
          onClick={() => go(shiftMonth(ym, -1))}
        >
          <ChevronLeft />
        </button>
        <div class="date-bar-title">
          <h1 id="view-title">{monthTitle(ym.y, ym.m)}</h1>
          <p class="muted">
            {isCurrent ? (
              'This month'
            ) : (
              <a
                href="/calendar"
                onClick={(e) => {
                  e.preventDefault();
                  go(current);
                }}
              >
                Back to this month
              </a>
            )}
          </p>
        </div>
        <button
          type="button"
          class="icon-button"
          aria-label="Next month"
          disabled={isCurrent}
          onClick={() => go(shiftMonth(ym, 1))}
        >
          <ChevronRight />
        </button>
      </div>
      <div
        class="month"
        data-month={`${year4(ym.y)}-${pad(ym.m)}`}
        data-drawn={res.data && drawn ? 'true' : 'false'}
      >
        {weekdayHeads(first).map((d, i) => (
          <div key={i} class="month-weekday" aria-hidden="true">
            {d}
          </div>
        ))}
        {cells.map((date, i) =>
          date === null ? (
            <div key={`blank-${i}`} class="month-day month-blank" />
          ) : (
            <DayCell key={date} date={date} now={now} marks={glyphs.get(date) ?? []} />
          ),
        )}
      </div>
      {res.error ? (
        <ErrorNote error={res.error} onRetry={res.reload} />
      ) : !res.data ? (
        <Loading />
      ) : (
        <div class="calendar-legend">
          {cards.length === 0 ? (
            <p class="muted">
              No card marks the calendar yet. A card can put a mark on each day it has an entry: ask the chat,
              for example “mark my workouts on the calendar”.
            </p>
          ) : (
            <ul class="chips" aria-label="Cards on the calendar">
              {cards.map((c) => (
                <li key={c.id} class="chip" data-card-id={c.id}>
                  <span aria-hidden="true">{legendGlyph(c)}</span> {c.meta.label}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

function DayCell({
  date,
  now,
  marks,
}: {
  date: string;
  now: string;
  marks: { glyph: string; label: string }[];
}) {
  const { glyphs, overflow } = layoutDayCell(marks.map((m) => m.glyph));
  const num = <span class="month-num">{Number(date.slice(8))}</span>;
  const shown = (
    <span class="month-markers" data-date={date}>
      {glyphs.map((g, i) => (
        <span key={i} class="month-glyph">
          {g}
        </span>
      ))}
      {overflow > 0 && <span class="month-more">+{overflow}</span>}
    </span>
  );
  const label = `${longDate(date)}${marks.length ? `: ${marks.map((m) => `${m.label} ${m.glyph}`).join(', ')}` : ''}`;
  if (date > now) {
    return (
      <div class="month-day month-future" title={label}>
        {num}
        {shown}
      </div>
    );
  }
  return (
    <a
      aria-label={label}
      class={`month-day${date === now ? ' month-today' : ''}${marks.length ? ' month-has-marks' : ''}`}
      href={date === now ? '/' : `/day/${date}`}
      aria-current={date === now ? 'date' : undefined}
      data-date={date}
    >
      {num}
      {shown}
    </a>
  );
}
