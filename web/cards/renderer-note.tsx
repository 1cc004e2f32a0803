/**
 * The calm line a renderer shows instead of its content: loading, an empty card, or data in a
 * shape it cannot draw (never a blank card or a console error). `tone` "problem" is for data the
 * person or an agent should fix; "quiet" for the ordinary empty state.
 */
import type { ComponentChildren } from 'preact';
import '../styles/cards/renderer-note.css';

export function RendererNote({
  tone = 'quiet',
  children,
}: {
  tone?: 'quiet' | 'problem';
  children: ComponentChildren;
}) {
  return (
    <p class={`renderer-note renderer-note-${tone}`} data-renderer-note={tone}>
      {children}
    </p>
  );
}
