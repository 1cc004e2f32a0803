/**
 * Today (`/`) and any other day (`/day/:date`): every card on the dashboard, drawn for that
 * date. The date bar steps a day back or forward; under it the scrubber shows a month of days to
 * jump to, and ←/→ on the keyboard do the same. A new date re-renders every card from the data
 * already loaded (card-grid.tsx): scrubbing makes no request. The live day is the person's today
 * (their browser's calendar day); the scrubber and the keys stop there (a later day
 * still opens from its address, for cards that take entries ahead).
 */
import { useEffect, useRef } from 'preact/hooks';
import { ChevronLeft, ChevronRight } from '../components/icons.js';
import { Empty } from '../components/status.js';
import { addDays, dayMonth, dayName, isIsoDate, longDate, today } from '../lib/dates.js';
import { day as dayText } from '../lib/format.js';
import { matchRoute, navigate, route } from '../lib/router.js';
import { CardGrid, prefetchView } from './card-grid.js';
import { PhoneDiscoveryCard } from './phone-discovery-card.js';
import { TodayNudges } from './today-nudges.js';
import '../styles/views.css';

// A page opened on a day (`/`, `/day/:date`, `/widget`) asks for its cards and their data while
// the rest of the app is still loading, not after the first render.
const opening = matchRoute(route.value).name;
if (opening === 'today' || opening === 'widget') prefetchView('view');

/** How many days the scrubber shows. */
export const SCRUB_DAYS = 30;

const dayHrefFrom = (now: string) => (d: string) => (d === now ? '/' : `/day/${d}`);

export function TodayView({ date }: { date: string | null }) {
  const now = today();
  // `/day/<today>` is the live page: show it under its own address (keeping `?card=` of a
  // reminder's link, which names the day it was for)
  useEffect(() => {
    if (date === now) navigate(`/${location.search}`, { replace: true });
  }, [date, now]);
  const shown = date ?? now;
  const valid = isIsoDate(shown);
  useDayKeys(valid ? shown : null, now);
  if (!valid) {
    return (
      <Empty emoji="🗓️" title="That is not a date">
        Days are written as year-month-day, like <code>/day/{now}</code>. <a href="/">Back to today</a>
      </Empty>
    );
  }
  const live = shown === now;
  const dayHref = dayHrefFrom(now);
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
      <DayScrubber shown={shown} now={now} />
      {live && <PhoneDiscoveryCard />}
      {live && <TodayNudges />}
      <CardGrid
        view="view"
        date={shown}
        live={live}
        empty={
          <Empty emoji="🌱" title="No cards yet">
            <a href="/settings/cards/add">Pick one from the gallery</a>, or ask the chat to make one, for
            example “track my morning weight”.
          </Empty>
        }
      />
    </section>
  );
}

/** ← and → step a day while the Today view is open (not while typing in a field). */
function useDayKeys(shown: string | null, now: string): void {
  useEffect(() => {
    if (!shown) return;
    const onKey = (ev: KeyboardEvent) => {
      if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
      if (ev.key !== 'ArrowLeft' && ev.key !== 'ArrowRight') return;
      const t = ev.target as HTMLElement | null;
      // fields, forms and widgets that use the arrows themselves keep them
      if (
        t?.closest?.(
          'input, textarea, select, [contenteditable], form, dialog, .chat-slot, [role="slider"], [role="radiogroup"], [role="listbox"], [role="menu"], [role="tablist"], [role="grid"]',
        )
      )
        return;
      // the day on screen now, from the address: a second quick press may come before this
      // effect has run again for the day the first one opened
      const at = matchRoute(route.value);
      const from = at.name === 'today' ? (at.date ?? now) : shown;
      if (!isIsoDate(from)) return;
      const next = addDays(from, ev.key === 'ArrowLeft' ? -1 : 1);
      if (next > now) return;
      ev.preventDefault();
      navigate(dayHrefFrom(now)(next));
      // keep the keyboard on the scrubber's day when it had it
      if (t?.closest?.('.scrubber')) {
        requestAnimationFrame(() =>
          document.querySelector<HTMLElement>('.scrubber [aria-current="date"]')?.focus(),
        );
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shown, now]);
}

/**
 * The days a scrubber shows: `SCRUB_DAYS` days ending today, or, for a day further back, a window
 * around it (never past today). Oldest first.
 */
export function scrubWindow(shown: string, now: string, size = SCRUB_DAYS): string[] {
  let end = now;
  if (shown < addDays(now, -(size - 1))) {
    const around = addDays(shown, Math.floor(size / 2));
    end = around < now ? around : now;
  }
  return Array.from({ length: size }, (_, i) => addDays(end, i - (size - 1)));
}

/**
 * A strip of days to tap, newest first in the document (and in tab order). It opens scrolled to
 * its newest end with no script (styles/views.css: a right-to-left scroller, so the days read left
 * to right, oldest to newest), so drawing the page never waits for a layout; a shown day out of
 * view is brought to the middle in the frame after.
 */
function DayScrubber({ shown, now }: { shown: string; now: string }) {
  const days = scrubWindow(shown, now);
  const strip = useRef<HTMLOListElement>(null);
  const dayHref = dayHrefFrom(now);
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const list = strip.current;
      const cur = list?.querySelector<HTMLElement>('[aria-current="date"]');
      if (!list || !cur) return;
      const l = list.getBoundingClientRect();
      const c = cur.getBoundingClientRect();
      if (c.left >= l.left + 18 && c.right <= l.right - 18) return;
      list.scrollBy({ left: c.left + c.width / 2 - (l.left + l.width / 2) });
    });
    return () => cancelAnimationFrame(frame);
  }, [shown, now]);
  return (
    <nav class="scrubber" aria-label="Days">
      <ol ref={strip} class="scrubber-days">
        {days
          .slice()
          .reverse()
          .map((d) => {
            const first = d.endsWith('-01');
            return (
              <li key={d}>
                <a
                  class={`scrub-day${d === now ? ' scrub-today' : ''}${first ? ' scrub-month-start' : ''}`}
                  href={dayHref(d)}
                  aria-current={d === shown ? 'date' : undefined}
                  data-date={d}
                >
                  <span class="visually-hidden">{`${dayName(d, now)}, ${dayMonth(d)}`}</span>
                  <span class="scrub-weekday" aria-hidden="true">
                    {first ? dayText(d, 'month-short') : dayText(d, 'weekday-narrow')}
                  </span>
                  <span class="scrub-num" aria-hidden="true">
                    {Number(d.slice(8))}
                  </span>
                </a>
              </li>
            );
          })}
      </ol>
    </nav>
  );
}
