/**
 * `welcome-card`: the card a new home starts with. Its words (`data.markdown`, drawn as
 * `markdown-doc` draws them), then a pick-a-few step: the gallery's featured cards with a tick
 * box each, **Add** for the ones ticked (one card after the other, each as the gallery adds it),
 * and a link to the whole gallery. The first card added hides the welcome card (the server's
 * rule), and the new cards take its place on Today.
 */
import { useState } from 'preact/hooks';
import { addFromTemplate, galleryOrder, loadTemplates, type TemplateEntry } from '../gallery/gallery-api.js';
import { today } from '../lib/dates.js';
import { useInFlight } from '../lib/in-flight.js';
import { useResource } from '../lib/use-resource.js';
import { MarkdownDoc } from './markdown-doc.js';
import type { RendererProps } from './registry.js';
import '../styles/forms.css';
import '../styles/gallery.css';

/** How many featured cards the welcome card offers. */
const STARTERS = 6;

/**
 * Adds the cards of `templateIds` one after the other; resolves with the labels added, the ids
 * refused and the first refusal's message, if any (the rest are still tried).
 */
async function addAll(
  templateIds: string[],
): Promise<{ added: string[]; refused: string[]; problem: string | null }> {
  const added: string[] = [];
  const refused: string[] = [];
  let problem: string | null = null;
  for (const id of templateIds) {
    try {
      added.push((await addFromTemplate(id)).label);
    } catch (err) {
      refused.push(id);
      problem ??= (err as Error).message;
    }
  }
  return { added, refused, problem };
}

function StarterPicks() {
  const res = useResource((signal) => loadTemplates(today(), signal), []);
  const [picked, setPicked] = useState<string[]>([]);
  const { busy: adding, run } = useInFlight();
  const busy = adding !== null;
  const [note, setNote] = useState<string | null>(null);
  const starters: TemplateEntry[] = galleryOrder((res.data ?? []).filter((t) => t.featured)).slice(
    0,
    STARTERS,
  );
  if (!res.data) return null;

  // Add is aria-disabled while busy or with nothing ticked, not disabled: a focused button that
  // is disabled drops the focus to the page, and a refusal must leave it on Add; the picks the
  // server refused stay ticked, so Add is there to press again
  const add = () =>
    run(true, async () => {
      setNote(null);
      const { added, refused, problem } = await addAll(picked);
      setPicked(refused);
      setNote(
        problem
          ? `${added.length ? `Added ${added.join(', ')}. ` : ''}Not everything could be added: ${problem}`
          : `Added ${added.join(', ')}.`,
      );
    });

  return (
    <div class="starters" data-starters="">
      <h4 class="starters-title">Pick a few to start with</h4>
      <ul class="starter-picks">
        {starters.map((t) => (
          <li key={t.id}>
            <label class="starter-pick" data-template-id={t.id}>
              <input
                type="checkbox"
                checked={picked.includes(t.id)}
                disabled={busy}
                onChange={(e) => {
                  const on = (e.currentTarget as HTMLInputElement).checked;
                  setPicked((p) => (on ? [...p, t.id] : p.filter((x) => x !== t.id)));
                }}
              />
              <span class="starter-pick-emoji" aria-hidden="true">
                {t.emoji ?? '🗂️'}
              </span>
              <span class="starter-pick-text">
                <span class="starter-pick-title">{t.title}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      <div class="starter-actions">
        <button
          type="button"
          class="button button-primary"
          aria-disabled={busy || picked.length === 0 ? 'true' : undefined}
          onClick={() => {
            if (!busy && picked.length > 0) void add();
          }}
        >
          {busy
            ? 'Adding…'
            : picked.length > 1
              ? `Add ${picked.length} cards`
              : picked.length === 1
                ? 'Add 1 card'
                : 'Add'}
        </button>
        <a href="/settings/cards/add">See all cards</a>
      </div>
      <p class="starter-note" role="status" aria-live="polite">
        {note ?? ''}
      </p>
    </div>
  );
}

export function WelcomeCard(props: RendererProps) {
  return (
    <div class="welcome-card">
      <MarkdownDoc {...props} />
      <StarterPicks />
    </div>
  );
}
