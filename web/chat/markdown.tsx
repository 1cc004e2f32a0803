/**
 * Model text shown as sanitised markdown, with the app's one pipeline (web/lib/markdown.ts:
 * marked, raw HTML shown as text, DOMPurify allow-list, safe links). The whole text is rendered
 * again when it changes, which is what makes markup split across streamed tokens harmless.
 */
import { useMemo } from 'preact/hooks';
import { renderMarkdown } from '../lib/markdown.js';

export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class="chat-md" dangerouslySetInnerHTML={{ __html: html }} />;
}
