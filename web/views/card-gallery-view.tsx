/**
 * Settings › Cards › Add a card (`/settings/cards/add`): the ready-made cards, featured first,
 * with a search over their titles, categories, other words for them and descriptions. Choosing
 * one opens its preview under it, drawn by the real card renderers on example rows, with
 * **Add to my cards**; an added card is announced with a link to Today and the gallery stays open
 * for the next one.
 */
import { useState } from 'preact/hooks';
import { Empty, ErrorNote, Loading } from '../components/status.js';
import {
  addFromTemplate,
  CATEGORY_NAMES,
  galleryOrder,
  loadTemplates,
  matchesSearch,
  type TemplateEntry,
} from '../gallery/gallery-api.js';
import { TemplatePreview } from '../gallery/template-preview.js';
import { api } from '../lib/api.js';
import { today } from '../lib/dates.js';
import { useInFlight } from '../lib/in-flight.js';
import { cardsVersion } from '../lib/live.js';
import type { SettingsCard } from '../lib/types.js';
import { useResource } from '../lib/use-resource.js';
import '../styles/forms.css';
import '../styles/gallery.css';

export function CardGalleryView() {
  const res = useResource((signal) => loadTemplates(today(), signal), []);
  // the cards the person has, to say which templates are already on the dashboard
  const mine = useResource(
    (signal) => api<{ cards: SettingsCard[] }>('/api/settings/cards', { signal }),
    [cardsVersion.value],
  );
  const have = (t: TemplateEntry) =>
    (mine.data?.cards ?? []).some(
      (c) => c.id === t.id || (c.id.startsWith(`${t.id}-`) && /^\d+$/.test(c.id.slice(t.id.length + 1))),
    );
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  // set at the click, not at the next render: a double tap adds one card
  const { busy: adding, run } = useInFlight<string>();
  const [added, setAdded] = useState<{ label: string } | null>(null);
  const [problem, setProblem] = useState<{ id: string; message: string } | null>(null);

  const shown = res.data ? galleryOrder(res.data.filter((t) => matchesSearch(t, query))) : [];

  function add(t: TemplateEntry) {
    return run(t.id, async () => {
      setProblem(null);
      setAdded(null);
      try {
        // "Add another" asks for a copy; a plain add never makes a second card by accident
        const card = await addFromTemplate(t.id, have(t));
        setAdded({ label: card.label });
        setOpen(null);
      } catch (err) {
        setProblem({ id: t.id, message: (err as Error).message });
      }
    });
  }

  return (
    <section class="view view-gallery" aria-labelledby="view-title">
      <p class="gallery-back">
        <a href="/settings">‹ Settings</a>
      </p>
      <h1 class="view-title" id="view-title">
        Add a card
      </h1>
      <p class="gallery-intro">
        Pick something to keep track of. You can switch a card off in Settings at any time; its entries are
        kept.
      </p>
      <div class="panel gallery-search">
        <label for="gallery-search" class="visually-hidden">
          Search cards
        </label>
        <input
          id="gallery-search"
          type="search"
          placeholder="Search: sleep, coffee, pulse…"
          value={query}
          onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)}
          autoComplete="off"
        />
      </div>
      <p class="gallery-status" role="status" aria-live="polite">
        {added ? (
          <>
            {added.label} is on your dashboard. <a href="/">See it on Today</a>
          </>
        ) : (
          ''
        )}
      </p>
      {!res.data ? (
        res.error ? (
          <ErrorNote error={res.error} onRetry={res.reload} />
        ) : (
          <Loading />
        )
      ) : shown.length === 0 ? (
        <Empty emoji="🔎" title="No card matches">
          Try another word, or ask the chat to make a card for what you want to track.
        </Empty>
      ) : (
        <ul class="gallery-list">
          {shown.map((t) => {
            const isOpen = open === t.id;
            return (
              <li
                key={t.id}
                class={`gallery-item${isOpen ? ' gallery-item-open' : ''}`}
                data-template-id={t.id}
              >
                <button
                  type="button"
                  class="gallery-tile"
                  aria-expanded={isOpen}
                  aria-controls={isOpen ? `gallery-detail-${t.id}` : undefined}
                  onClick={() => setOpen(isOpen ? null : t.id)}
                >
                  <span class="gallery-emoji" aria-hidden="true">
                    {t.emoji ?? '🗂️'}
                  </span>
                  <span class="gallery-text">
                    <span class="gallery-title">{t.title}</span>
                    <span class="gallery-description">{t.description}</span>
                    <span class="gallery-tags">
                      {t.category && (
                        <span class="gallery-category">{CATEGORY_NAMES[t.category] ?? t.category}</span>
                      )}
                      {have(t) && <span class="gallery-have">On your dashboard</span>}
                    </span>
                  </span>
                </button>
                {isOpen && (
                  <div class="gallery-detail" id={`gallery-detail-${t.id}`}>
                    <TemplatePreview template={t} />
                    <div class="gallery-actions">
                      <button
                        type="button"
                        class="button button-primary"
                        disabled={adding !== null}
                        onClick={() => void add(t)}
                      >
                        {adding === t.id ? 'Adding…' : have(t) ? 'Add another' : 'Add to my cards'}
                      </button>
                      {problem?.id === t.id && (
                        <p class="setting-error" role="alert">
                          {problem.message}
                        </p>
                      )}
                    </div>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
