/** Model text shown as sanitised markdown (render-markdown.ts); re-rendered only when the text changes. */
import { useMemo } from 'preact/hooks';
import { renderMarkdown } from './render-markdown.js';

export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class="chat-md" dangerouslySetInnerHTML={{ __html: html }} />;
}
