/**
 * Model text to safe HTML (issue 6): `marked` (GitHub-flavoured markdown, single newlines kept as
 * line breaks) and then `DOMPurify` with a markdown-sized allow-list. Called on every frame while
 * a reply streams in, so half-written markup is as safe as finished markup.
 * - Raw HTML in the text is shown as text, never parsed (marked's `html` renderer escapes it);
 *   DOMPurify is the second wall behind that.
 * - Images become plain links: a picture the model names must not load by itself (it could carry
 *   data out in its address).
 * - Links keep only safe schemes (DOMPurify's URI check runs on the decoded value, so
 *   `&#106;avascript:` is caught like `javascript:`); links to other sites open in a new tab with
 *   `rel="noopener noreferrer"`, links within the app stay in it.
 * - No `style`, no `class`, no event handlers, no forms: the page's CSP forbids inline styles, and
 *   the chat's look comes from web/styles/chat.css.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `s` with HTML's special characters escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    image({ href, text }) {
      return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`;
    },
  },
});

const ALLOWED_TAGS = [
  'a', 'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'del', 's', 'code', 'pre',
  'blockquote', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input',
];
const ALLOWED_ATTR = ['href', 'title', 'start', 'align', 'type', 'checked', 'disabled'];

let hooked = false;

function hook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      const href = node.getAttribute('href');
      if (href === null) return;
      let url: URL | null = null;
      try {
        url = new URL(href, location.href);
      } catch {
        url = null;
      }
      if (url && url.origin === location.origin && !url.pathname.startsWith('/api/')) return;
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    } else if (node.nodeName === 'INPUT') {
      // GFM task lists: a ticked box to look at, nothing to type into
      if (node.getAttribute('type') !== 'checkbox') node.remove();
      else node.setAttribute('disabled', '');
    }
  });
}

/** The HTML for markdown `text`, sanitised. Pure apart from DOMPurify's use of the document. */
export function renderMarkdown(text: string): string {
  hook();
  const html = marked.parse(text) as string;
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  });
}
