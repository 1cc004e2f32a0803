/**
 * `GET /report/<name>`: a report's markdown as a standalone HTML page, for reading and printing.
 * Report text comes from documents and a model, so it is inert here: HTML inside the markdown is
 * rendered as escaped text (no HTML of the report survives as markup), link targets
 * other than http(s) and mailto are dropped, and the page's policy allows no script, no form, no
 * frame, no fetch and no outside resource at all (inline styles only).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Marked } from 'marked';
import { parseFrontMatter } from './report-catalogue.js';

/** The headers of a report page. */
export const REPORT_PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; frame-ancestors 'self'; base-uri 'none'; object-src 'none'",
  'cache-control': 'private, no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

// a long unbroken word (a lab code, a URL) breaks anywhere rather than widen the page; cells
// align to the start of their own text's direction
const STYLE = `body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;overflow-wrap:anywhere}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:start}
pre{white-space:pre-wrap;background:#f5f5f5;padding:.75rem;overflow-x:auto}
blockquote{margin:0;padding:.25rem .75rem;border-left:4px solid #c90;background:#fff8e5}
.state{font-size:.85rem;color:#555}`;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const marked = new Marked({
  gfm: true,
  renderer: {
    // the words of a link are rendered from their tokens (their raw text may hold HTML)
    link({ href, tokens }) {
      const words = this.parser.parseInline(tokens);
      return /^(https?:|mailto:)/i.test(href)
        ? `<a href="${escapeHtml(href)}" rel="noreferrer">${words}</a>`
        : words;
    },
    image({ text }) {
      return escapeHtml(text);
    },
    // embedded HTML of the report is shown as text, never parsed as markup
    html({ text }) {
      return escapeHtml(text);
    },
  },
});

/** Blocks of text the page's markdown makes (its own HTML is escaped, so these are marked's). */
const TEXT_BLOCK = /<(p|h[1-6]|li|td|th|blockquote|dt|dd)(?=[\s>])/g;

/**
 * Each block of text reads in the direction of its own first letters (`dir="auto"`): an Arabic
 * or Hebrew line runs right to left with its punctuation at the right end, an English one
 * beside it left to right, as in a report that quotes both.
 */
function ownDirections(html: string): string {
  return html.replace(TEXT_BLOCK, '<$1 dir="auto"');
}

/** The report file a page name leads to: stripped to `[A-Za-z0-9_-]`, `<name>.md` or its upper-case form, inside the folder. */
export function reportPageFile(reportsDir: string, requested: string): string | null {
  const name = requested.replace(/[^A-Za-z0-9_-]/g, '');
  if (!name) return null;
  const root = path.resolve(reportsDir);
  for (const candidate of [name, name.toUpperCase(), name.replace(/^debrief-/, 'DEBRIEF-')]) {
    const file = path.resolve(root, `${candidate}.md`);
    if (path.dirname(file) === root && fs.existsSync(file)) return file;
  }
  return null;
}

/** The page's HTML, or null when there is no such report. */
export function reportPage(reportsDir: string, requested: string): string | null {
  const file = reportPageFile(reportsDir, requested);
  if (!file) return null;
  const { fields, body } = parseFrontMatter(fs.readFileSync(file, 'utf8'));
  const html = ownDirections(marked.parse(body, { async: false }));
  const title = fields.title || /^#\s+(.+)$/m.exec(body)?.[1] || path.basename(file, '.md');
  const state = fields.status
    ? `<p class="state">Status: ${escapeHtml(fields.status)}${fields.status === 'needs checking' ? ' (the text was read by OCR and has not been checked yet)' : ''}</p>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${state}${html}</body></html>`;
}
