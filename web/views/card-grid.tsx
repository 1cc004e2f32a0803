/** The cards of one view (`GET /api/views/:view`) laid out in a grid, with load problems noted. */
import type { ComponentChildren } from 'preact';
import { CardView } from '../cards/card-view.js';
import { Empty, ErrorNote, Loading } from '../components/status.js';
import { api } from '../lib/api.js';
import { cardsVersion } from '../lib/live.js';
import type { LoadError, ViewName, ViewResponse } from '../lib/types.js';
import { useResource } from '../lib/use-resource.js';

export interface CardGridProps {
  view: ViewName;
  date: string;
  live: boolean;
  /** Shown when the view has no card. */
  empty: ComponentChildren;
}

export function CardGrid({ view, date, live, empty }: CardGridProps) {
  const version = cardsVersion.value;
  const res = useResource((signal) => api<ViewResponse>(`/api/views/${view}`, { signal }), [view, version]);
  if (!res.data) return res.error ? <ErrorNote error={res.error} onRetry={res.reload} /> : <Loading />;
  const { cards, errors } = res.data;
  return (
    <>
      {errors.length > 0 && <LoadErrors errors={errors} />}
      {cards.length === 0 ? (
        empty
      ) : (
        <div class="card-grid" data-view={view}>
          {cards.map((card) => (
            <CardView key={card.id} card={card} view={view} date={date} live={live} />
          ))}
        </div>
      )}
    </>
  );
}

function LoadErrors({ errors }: { errors: LoadError[] }) {
  const files = [...new Set(errors.map((e) => e.file))];
  return (
    <details class="notice">
      <summary>
        {files.length === 1 ? 'One card file has a problem' : `${files.length} card files have problems`}
      </summary>
      <ul>
        {errors.map((e) => (
          <li key={`${e.file}:${e.code}:${e.path ?? ''}`}>
            <code>{e.file}</code>: {e.message}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The empty state of a view, naming the manifest switch that puts a card there. */
export function EmptyView({ emoji, title, flag }: { emoji: string; title: string; flag: string }) {
  return (
    <Empty emoji={emoji} title={title}>
      Cards whose manifest sets <code>{flag}</code> appear here.
    </Empty>
  );
}
