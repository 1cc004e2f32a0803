/**
 * A template drawn as it will look: the real renderer of each page it shows on (Today, Trends,
 * Reports), fed the template's example rows through the shared data cache under a preview id
 * (`template:<id>`, which no card can have; `primePreviews`), in a card frame without the menu. The preview takes
 * no entries: the manifest's write settings, prompt and reminders are left out of it.
 */
import { CardBoundary } from '../cards/card-boundary.js';
import { rendererFor } from '../cards/registry.js';
import { UnknownRenderer } from '../cards/unknown-renderer.js';
import { primeCard } from '../lib/card-data.js';
import { today } from '../lib/dates.js';
import type { CardMeta, ViewCard, ViewConfig, ViewName } from '../lib/types.js';
import type { TemplateEntry } from './gallery-api.js';

/** The pages a preview draws, with the name a person sees. */
const PAGES: [ViewName, string][] = [
  ['view', 'Today'],
  ['trends', 'Trends'],
  ['reports', 'Reports'],
];

const isViewConfig = (v: unknown): v is ViewConfig =>
  v !== null &&
  typeof v === 'object' &&
  (v as ViewConfig).enabled === true &&
  typeof (v as ViewConfig).component === 'string';

/** The id the preview of template `id` is cached under. */
export const previewId = (id: string) => `template:${id}`;

/** The preview's card meta: the template's, minus what would let it take entries or send reminders. */
function previewMeta(t: TemplateEntry): CardMeta {
  const { writeable: _w, prompt: _p, notifications: _n, ...meta } = t.preview.meta;
  return { ...meta, id: previewId(t.id) };
}

/** Puts the example data of every template into the data cache (call when the gallery is read, not while drawing). */
export function primePreviews(list: TemplateEntry[]): void {
  for (const t of list) primeCard(previewId(t.id), t.preview.data, null);
}

export function TemplatePreview({ template }: { template: TemplateEntry }) {
  const id = previewId(template.id);
  const meta = previewMeta(template);
  const date = today();
  const pages = PAGES.filter(([view]) => isViewConfig(meta[view]));
  return (
    <div class="gallery-preview" data-preview-of={template.id}>
      {pages.map(([view, name]) => {
        const viewConfig = meta[view] as ViewConfig;
        const card: ViewCard = { id, meta, viewConfig };
        const Renderer = rendererFor(viewConfig.component);
        return (
          <figure key={view} class="gallery-preview-page" data-preview-view={view}>
            <figcaption class="gallery-preview-caption">On {name}</figcaption>
            <article
              class={`card${viewConfig.slot === 'top' ? ' card-wide' : ''}`}
              aria-label={`${meta.label}, preview`}
            >
              <header class="card-head">
                {meta.emoji && (
                  <span class="card-emoji" aria-hidden="true">
                    {meta.emoji}
                  </span>
                )}
                <h3 class="card-label">{meta.label}</h3>
              </header>
              <div class="card-body">
                {Renderer ? (
                  <CardBoundary cardId={id} resetKey={card}>
                    <Renderer card={card} view={view} date={date} live={view === 'view'} />
                  </CardBoundary>
                ) : (
                  <UnknownRenderer component={viewConfig.component} />
                )}
              </div>
            </article>
          </figure>
        );
      })}
      {template.views.includes('calendar') && (
        <p class="gallery-preview-note">It also marks the days you log on the Calendar.</p>
      )}
    </div>
  );
}
