/**
 * `/summary?from=YYYY-MM-DD&to=YYYY-MM-DD&cards=a,b`: a summary for a doctor, laid out for A4 and
 * Letter so that the browser's Print (or Save as PDF) gives a clean document: per card the
 * statistics of each measured field (readings, average, min, max, with units), the readings
 * themselves, and the adherence of each scheduled medication or supplement. The controls (range,
 * cards, Print) are not printed. Data from `GET /api/summary`.
 */
import { useState } from 'preact/hooks';
import { dayOfDateTime, minuteOfDateTime } from '../../src/common/dates.js';
import type { CardSummary } from '../../src/common/summary-types.js';
import { ErrorNote, Loading } from '../components/status.js';
import { api } from '../lib/api.js';
import { addDays, today } from '../lib/dates.js';
import { zoneHeader } from '../lib/entries.js';
import { navigate } from '../lib/router.js';
import type { SettingsCard } from '../lib/types.js';
import { useResource } from '../lib/use-resource.js';
import '../styles/summary.css';
import { valueText } from '../../src/common/display-template.js';
import { csvHref, num as localNum } from '../lib/format.js';

/** A figure of the summary: whole numbers as they are, others to one decimal, in the person's locale. */
const num = (n: number) => (Number.isInteger(n) ? localNum(n) : localNum(n, 1));
const withUnit = (f: string, unit?: string) =>
  unit && unit.toLowerCase() !== f.toLowerCase() ? `${f} (${unit})` : f;

/**
 * When the summary was made, `YYYY-MM-DD HH:MM` on the browser's clock, as the page writes its
 * other dates: a printed `07/12/2026` reads as July to one doctor and December to another.
 */
function generatedText(iso: string): string {
  const day = dayOfDateTime(iso);
  const minute = minuteOfDateTime(iso);
  if (day === null || minute === null) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${day} ${two(Math.floor(minute / 60))}:${two(minute % 60)}`;
}

function params() {
  const q = new URLSearchParams(location.search);
  // the last 30 days up to the person's today (not UTC's, which is tomorrow on a Californian evening)
  const to = q.get('to') ?? today();
  const from = q.get('from') ?? addDays(to, -29);
  const cards = q.get('cards');
  // `cards=` with nothing in it is a list with nothing ticked, not "every card"
  return {
    from,
    to,
    cards:
      cards === null
        ? null
        : cards
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean),
  };
}

type Summary = { from: string; to: string; generatedAt: string; cards: CardSummary[] };

/**
 * One value of the readings table: a number as the stats above it are written (the reader's
 * locale: 1.234,5 in German), a list or an object by what it holds ("fasting, morning",
 * `{"hdl":55}`), never "[object Object]"; nothing for a missing value.
 */
function readingText(v: unknown): string {
  return typeof v === 'number' ? localNum(v) : valueText(v);
}

export function SummaryView() {
  const [p, setP] = useState(params);
  const [draft, setDraft] = useState(p);
  const all = useResource((signal) => api<{ cards: SettingsCard[] }>('/api/settings/cards', { signal }), []);
  const noneTicked = p.cards !== null && p.cards.length === 0;
  const res = useResource(
    (signal) =>
      noneTicked
        ? Promise.resolve<Summary>({ from: p.from, to: p.to, generatedAt: '', cards: [] })
        : api<Summary>(
            `/api/summary?from=${p.from}&to=${p.to}${p.cards ? `&cards=${encodeURIComponent(p.cards.join(','))}` : ''}`,
            // "today" of the adherence is this device's, as the range's default end is
            { signal, headers: zoneHeader() },
          ),
    [p.from, p.to, p.cards?.join(',')],
  );
  // a card named in the address that is no longer a card (deleted or renamed since the link was
  // saved) is not ticked, so Show leaves it out instead of asking for it again
  const known = all.data ? new Set(all.data.cards.map((c) => c.id)) : null;
  const chosen = new Set(
    (draft.cards ?? (all.data?.cards ?? []).filter((c) => c.enabled).map((c) => c.id)).filter(
      (id) => !known || known.has(id),
    ),
  );
  const nothingChosen = draft.cards !== null && chosen.size === 0;
  const show = (e: Event) => {
    e.preventDefault();
    if (nothingChosen) return;
    const next = { ...draft, cards: draft.cards === null ? null : [...chosen] };
    const q = `from=${next.from}&to=${next.to}${next.cards ? `&cards=${encodeURIComponent(next.cards.join(','))}` : ''}`;
    navigate(`/summary?${q}`, { replace: true });
    setDraft(next);
    setP(next);
  };
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setDraft({ ...draft, cards: [...next] });
  };
  return (
    <section class="view view-summary" aria-labelledby="view-title">
      <form class="summary-controls panel" onSubmit={show}>
        <label>
          From{' '}
          <input
            type="date"
            value={draft.from}
            onInput={(e) => setDraft({ ...draft, from: (e.currentTarget as HTMLInputElement).value })}
          />
        </label>
        <label>
          To{' '}
          <input
            type="date"
            value={draft.to}
            onInput={(e) => setDraft({ ...draft, to: (e.currentTarget as HTMLInputElement).value })}
          />
        </label>
        <fieldset class="summary-cards">
          <legend>Cards</legend>
          {(all.data?.cards ?? []).map((c) => (
            <label key={c.id}>
              <input
                type="checkbox"
                checked={chosen.has(c.id)}
                onChange={(e) => toggle(c.id, (e.currentTarget as HTMLInputElement).checked)}
              />{' '}
              {c.label}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="button button-primary" disabled={nothingChosen}>
          Show
        </button>
        {nothingChosen && (
          <p class="summary-none" role="status">
            Tick at least one card to show.
          </p>
        )}
        <button type="button" class="button" onClick={() => window.print()}>
          Print
        </button>
      </form>
      <h1 class="view-title summary-title" id="view-title">
        Health summary, {p.from} to {p.to}
      </h1>
      {res.error && <ErrorNote error={res.error} />}
      {noneTicked && (
        <p class="state" role="status">
          No card is ticked: tick the cards to show, then Show.
        </p>
      )}
      {!res.data && !res.error && <Loading />}
      {res.data?.cards.map((c) => (
        <article class="summary-card" key={c.id} data-summary-card={c.id}>
          <h2>
            {c.emoji ? `${c.emoji} ` : ''}
            {c.label}
          </h2>
          {c.stats.length > 0 && (
            <table class="summary-table summary-stats">
              <thead>
                <tr>
                  <th scope="col">Measure</th>
                  <th scope="col">Readings</th>
                  <th scope="col">Average</th>
                  <th scope="col">Min</th>
                  <th scope="col">Max</th>
                </tr>
              </thead>
              <tbody>
                {c.stats.map((s) => (
                  <tr key={s.field}>
                    <th scope="row">
                      {withUnit(s.field, s.unit)}
                      {s.per === 'day' ? ', daily total' : ''}
                    </th>
                    <td>{s.per === 'day' ? `${s.count} ${s.count === 1 ? 'day' : 'days'}` : s.count}</td>
                    <td>{num(s.avg)}</td>
                    <td>{num(s.min)}</td>
                    <td>{num(s.max)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {c.adherence.length > 0 && (
            <table class="summary-table summary-adherence">
              <thead>
                <tr>
                  <th scope="col">Medication</th>
                  <th scope="col">Doses scheduled</th>
                  <th scope="col">Taken</th>
                  <th scope="col">Adherence</th>
                </tr>
              </thead>
              <tbody>
                {c.adherence.map((a) => (
                  <tr key={a.name}>
                    <th scope="row">{a.name}</th>
                    <td>{a.scheduled}</td>
                    <td>{a.taken}</td>
                    <td>{a.rate === null ? '—' : `${Math.round(a.rate * 100)}%`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {c.rows.length > 0 && (
            <table class="summary-table summary-readings">
              <caption>
                {c.total > c.rows.length
                  ? `The latest ${c.rows.length} of ${c.total} readings`
                  : `${c.total} ${c.total === 1 ? 'reading' : 'readings'}`}
              </caption>
              <thead>
                <tr>
                  {c.columns.map((col) => (
                    <th scope="col" key={col.field}>
                      {withUnit(col.field, col.unit)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {c.rows.map((r, i) => (
                  <tr key={i}>
                    {c.columns.map((col) => (
                      <td key={col.field}>{readingText(r[col.field])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {c.rows.length === 0 && c.adherence.length === 0 && (
            <p class="summary-none">Nothing recorded in this range.</p>
          )}
          <p class="summary-csv">
            <a href={csvHref(c.id)} download>
              All rows as CSV
            </a>
          </p>
        </article>
      ))}
      {res.data && <p class="summary-footer">Generated {generatedText(res.data.generatedAt)} by Klebb.</p>}
    </section>
  );
}
