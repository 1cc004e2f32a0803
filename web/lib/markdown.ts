/**
 * Markdown to safe HTML, for markdown cards (`markdown-doc`, `data: {markdown}`) and the chat
 * widget's replies: text from card files, agents and language models is untrusted.
 *
 * One pipeline, two layers:
 * 1. `marked` (GFM) turns the text into HTML, with raw HTML written in the text shown as text
 *    (escaped) rather than passed through, and pictures from other sites turned into links (the
 *    page's Content-Security-Policy would block them anyway, and they would track the reader).
 * 2. `DOMPurify` (its own instance, so its hooks touch nothing else) keeps only the tags and
 *    attributes markdown produces: no scripts, frames, forms, SVG or MathML, no `style`, `class`
 *    or `id` attributes (no styling or DOM-clobbering tricks), no event handlers, and only
 *    http(s), mailto and tel links or paths on this site (`javascript:` in any spelling goes:
 *    DOMPurify reads the decoded attribute, with entities, case and whitespace undone). Every
 *    link gets `rel="noopener noreferrer"`; links to other sites open in a new tab.
 *
 * Callers insert the returned string as it is (`dangerouslySetInnerHTML`, or `innerHTML`), never
 * wrapped in or joined with other HTML afterwards (re-parsing joined output can mutate into
 * live markup). For streamed text, render the whole accumulated text each time.
 */
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';

/** Tags markdown produces; everything else is removed (its text kept where it is harmless). */
const ALLOWED_TAGS = [
  'a',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'img',
  'input',
  'li',
  'ol',
  'p',
  'pre',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];

/** Attributes markdown produces (`align` on table cells, `start` on lists, task-list checkboxes). */
const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'align', 'start', 'type', 'checked', 'disabled'];

/** Links and picture sources: http(s), mailto, tel, or a scheme-less (relative) address. */
const ALLOWED_URI = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `s` with the five HTML-special characters escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** True for a picture the page may show: a path on this site or an inline `data:image/…`. */
function isLocalPicture(href: string): boolean {
  const h = href.trim();
  return (h.startsWith('/') && !h.startsWith('//')) || /^data:image\/(?:png|gif|jpeg|webp);/i.test(h);
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // raw HTML in the text is shown as text, never passed to the page
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(text);
    },
    image({ href, title, text }: Tokens.Image): string | false {
      if (isLocalPicture(href)) return false; // marked's own <img>, then sanitised
      const label = escapeHtml(text || href);
      const t = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href)}"${t}>🖼 ${label}</a>`;
    },
  },
});

let purifier: ReturnType<typeof DOMPurify> | null = null;

function getPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      const a = node as HTMLAnchorElement;
      if (!a.hasAttribute('href')) return;
      a.setAttribute('rel', 'noopener noreferrer');
      let external = false;
      try {
        external = new URL(a.getAttribute('href') ?? '', location.href).origin !== location.origin;
      } catch {
        external = false;
      }
      if (external) a.setAttribute('target', '_blank');
      else a.removeAttribute('target');
    } else if (node.nodeName === 'INPUT') {
      // only GFM task-list ticks, and never editable
      if (node.getAttribute('type') !== 'checkbox') node.parentNode?.removeChild(node);
      else node.setAttribute('disabled', '');
    }
  });
  purifier = p;
  return p;
}

/** `html` reduced to what markdown may produce (see the file comment). Usable for any HTML. */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: ALLOWED_URI,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    RETURN_TRUSTED_TYPE: false,
  });
}

/**
 * Markdown `text` as sanitised HTML, ready to insert as it is. A non-string (a card whose data is
 * not what it should be) gives ''. Never throws: text marked cannot parse comes back escaped.
 */
export function renderMarkdown(text: unknown): string {
  if (typeof text !== 'string' || text === '') return '';
  let html: string;
  try {
    html = marked.parse(text, { async: false }) as string;
  } catch {
    html = `<p>${escapeHtml(text)}</p>`;
  }
  return sanitizeHtml(html);
}
