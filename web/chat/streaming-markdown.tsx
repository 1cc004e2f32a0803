/**
 * Markdown that grows while an answer streams in: finished blocks (stream-blocks.ts)
 * are rendered once, each into its own element, and only the open block at the end is rendered
 * again on each frame, so a long answer costs the same per frame at its end as at its start.
 * Each part goes through the app's one sanitising pipeline on its own and is inserted on its own:
 * no sanitised HTML is ever joined to other HTML (web/lib/markdown.ts). A `reset` (text that no
 * longer starts with what was cut) starts over.
 */

import { useMemo, useRef } from 'preact/hooks';
import { renderMarkdown } from '../lib/markdown.js';
import { pure } from './pure.js';
import { lastCut } from './stream-blocks.js';

const Part = pure(function Part({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class="chat-md-part" dangerouslySetInnerHTML={{ __html: html }} />;
});

export function StreamingMarkdown({ text }: { text: string }) {
  const state = useRef<{ parts: string[]; cut: number }>({ parts: [], cut: 0 });
  const s = state.current;
  const stable = s.parts.join('');
  if (s.cut > text.length || !text.startsWith(stable)) {
    s.parts = [];
    s.cut = 0;
  }
  const cut = lastCut(text, s.cut);
  if (cut > s.cut) {
    s.parts.push(text.slice(s.cut, cut));
    s.cut = cut;
  }
  const tail = text.slice(s.cut);
  return (
    <div class="chat-md chat-md-stream">
      {s.parts.map((p, i) => (
        // parts never change once made: their index is their identity
        <Part key={i} text={p} />
      ))}
      {tail && <Part key="tail" text={tail} />}
    </div>
  );
}
