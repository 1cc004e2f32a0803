/**
 * `markdown-doc` (docs/MANIFEST-SCHEMA.md, built-in renderers): a card whose data is one document,
 * `{"markdown": "..."}` (a plain string is read as the markdown too). The text goes through the
 * one markdown pipeline (web/lib/markdown.ts: marked, then DOMPurify) and the sanitised result is
 * inserted as it is, its headings two levels down (h1 → h3: the card's label is the h2). A long
 * document is shown folded, with a button to read the rest.
 *
 * The pipeline (marked and DOMPurify, about 20 KB gzipped) is loaded with `import()` the first
 * time a note is drawn, so a dashboard without notes does not pay for it on its first page; the
 * chat panel, itself loaded on demand, shares the same chunk.
 */
import { signal } from '@preact/signals';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { demoteHeadings } from '../../src/common/demote-headings.js';
import { useCardData } from '../lib/card-data.js';
import type { RendererProps } from './registry.js';
import { RendererNote } from './renderer-note.js';
import '../styles/cards/markdown-doc.css';

type Pipeline = typeof import('../lib/markdown.js');

/** The markdown pipeline once loaded; `failed` holds why it could not be. */
const pipeline = signal<{ mod: Pipeline | null; failed: string | null }>({ mod: null, failed: null });
let pipelineLoading = false;

function loadPipeline(): void {
  if (pipelineLoading || pipeline.value.mod) return;
  pipelineLoading = true;
  import('../lib/markdown.js').then(
    (mod) => {
      pipeline.value = { mod, failed: null };
    },
    (err: unknown) => {
      pipelineLoading = false; // a later note tries again
      pipeline.value = { mod: null, failed: err instanceof Error ? err.message : String(err) };
    },
  );
}

/** The markdown of a data block: `data.markdown`, or the data itself when it is a string. */
export function markdownOf(data: unknown): string | null {
  if (typeof data === 'string') return data;
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const md = (data as Record<string, unknown>).markdown;
    return typeof md === 'string' ? md : null;
  }
  return null;
}

export function MarkdownDoc({ card }: RendererProps) {
  const { data, loading, error } = useCardData(card.id);
  const md = markdownOf(data);
  const { mod, failed } = pipeline.value;
  useEffect(() => {
    if (!mod && md) loadPipeline();
  }, [mod, md]);
  // headings sit under the card's label (h2): `# Title` becomes h3, never a second h1 on the page
  const html = useMemo(() => (md && mod ? demoteHeadings(mod.renderMarkdown(md)) : ''), [md, mod]);
  const body = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [long, setLong] = useState(false);

  // fold only when the document is really taller than the folded height
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    const check = () => setLong(el.scrollHeight > el.clientHeight + 24);
    check();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(check);
    ro.observe(el);
    return () => ro.disconnect();
  }, [html, open]);

  if (data === undefined) {
    if (loading) return <RendererNote>Loading…</RendererNote>;
    return (
      <RendererNote tone="problem">Could not load this note{error ? `: ${error.message}` : '.'}</RendererNote>
    );
  }
  if (md === null) {
    return data === null || (Array.isArray(data) && data.length === 0) ? (
      <RendererNote>This note is empty.</RendererNote>
    ) : (
      <RendererNote tone="problem">
        This note's text is not in the shape it needs, so it cannot be shown. Ask the chat to fix it.
      </RendererNote>
    );
  }
  if (!mod && md.trim() !== '') {
    return failed ? (
      <RendererNote tone="problem">This note could not be shown: {failed}</RendererNote>
    ) : (
      <RendererNote>Loading…</RendererNote>
    );
  }
  if (html.trim() === '') return <RendererNote>This note is empty.</RendererNote>;
  return (
    <div class={`markdown-doc${open ? ' is-open' : ''}${long && !open ? ' is-folded' : ''}`}>
      <div
        ref={body}
        class="markdown-body"
        id={`md-${card.id}`}
        // the output of renderMarkdown is sanitised HTML, inserted as it is (web/lib/markdown.ts)
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {(long || open) && (
        <button
          type="button"
          class="markdown-more"
          aria-expanded={open}
          aria-controls={`md-${card.id}`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Show less' : 'Show more'}
        </button>
      )}
    </div>
  );
}
