/**
 * One card on a view: its frame (emoji, label, the ⋯ menu: its rows as CSV, the doctor's summary)
 * and the renderer's body, or the placeholder.
 */
import { csvHref } from '../lib/format.js';
import type { ViewCard, ViewName } from '../lib/types.js';
import { CardBoundary } from './card-boundary.js';
import { IngestFitNote } from './ingest-fit-note.js';
import { rendererFor } from './registry.js';
import { UnknownRenderer } from './unknown-renderer.js';
import '../styles/data.css';

/** Labels longer than this many characters may be clamped on screen: their whole text is the title. */
const LONG_LABEL = 60;

export interface CardViewProps {
  card: ViewCard;
  view: ViewName;
  date: string;
  live: boolean;
}

export function CardView({ card, view, date, live }: CardViewProps) {
  const component = card.viewConfig.component;
  const Renderer = rendererFor(component);
  const wide = card.viewConfig.slot === 'top';
  // `priority` pins a card on the live Today page: an accent edge, no re-sorting
  const pinned = live && view === 'view' && typeof card.viewConfig.priority === 'number';
  return (
    <article
      class={`card${wide ? ' card-wide' : ''}${pinned ? ' card-pinned' : ''}`}
      data-card-id={card.id}
      aria-labelledby={`card-${card.id}-label`}
    >
      <header class="card-head">
        {card.meta.emoji && (
          <span class="card-emoji" aria-hidden="true">
            {card.meta.emoji}
          </span>
        )}
        <h2
          class="card-label"
          id={`card-${card.id}-label`}
          title={card.meta.label.length > LONG_LABEL ? card.meta.label : undefined}
        >
          {card.meta.label}
        </h2>
        <details class="card-menu">
          <summary aria-label={`More for ${card.meta.label}`} title="More">
            ⋯
          </summary>
          <div class="card-menu-list">
            <a href={csvHref(card.id)} download>
              Download CSV
            </a>
            <a href={`/summary?cards=${encodeURIComponent(card.id)}`}>Summary for a doctor</a>
          </div>
        </details>
      </header>
      <div class="card-body">
        {Renderer ? (
          <CardBoundary cardId={card.id} resetKey={card}>
            <Renderer card={card} view={view} date={date} live={live} />
          </CardBoundary>
        ) : (
          <UnknownRenderer component={component} />
        )}
        {card.meta.ingest !== undefined && <IngestFitNote cardId={card.id} />}
      </div>
    </article>
  );
}
