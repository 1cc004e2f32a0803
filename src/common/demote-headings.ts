/**
 * Headings inside a card's markdown sit under the card's own label (an `<h2>`), so a document's
 * `# Title` must not become a second `<h1>` on the page: each heading is moved down `by` levels
 * (h1 → h3, h2 → h4 with the default 2), capped at h6. Works on sanitised HTML (DOMPurify's
 * output: lower-case tags; a `<` in text is always escaped), so a plain pattern is enough.
 */

const HEADING_TAG = /<(\/?)h([1-6])(?=[\s>/])/g;

/** `html` with every `<hN>` / `</hN>` moved down `by` levels, at most to h6. */
export function demoteHeadings(html: string, by = 2): string {
  return html.replace(HEADING_TAG, (_m, slash: string, level: string) => {
    return `<${slash}h${Math.min(6, Number(level) + by)}`;
  });
}
