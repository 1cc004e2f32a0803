/**
 * A small client-side router on the History API. `route` is the current path; `navigate()`
 * pushes a new one; clicks on same-origin `<a href>` links are taken over so that moving between
 * views never reloads the page. The server answers every client route with index.html
 * (src/http/web-routes.ts), so a reload or a shared link lands on the same view.
 */
import { signal } from '@preact/signals';

/** The current path (no query string, no trailing slash except for `/`). */
export const route = signal(normalise(location.pathname));

function normalise(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** Goes to `to` (a same-origin path). `replace` swaps the history entry instead of adding one. */
export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = new URL(to, location.href);
  if (url.origin !== location.origin) {
    location.assign(url.href);
    return;
  }
  const target = url.pathname + url.search + url.hash;
  if (target !== location.pathname + location.search + location.hash) {
    if (opts.replace) history.replaceState(null, '', target);
    else history.pushState(null, '', target);
  }
  route.value = normalise(url.pathname);
  if (!opts.replace) window.scrollTo(0, 0);
}

/** Starts following back/forward buttons and link clicks. Call once. */
export function startRouter(): void {
  window.addEventListener('popstate', () => {
    route.value = normalise(location.pathname);
  });
  document.addEventListener('click', (ev) => {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey)
      return;
    const a = (ev.target as Element | null)?.closest?.('a');
    if (!a?.href || (a.target && a.target !== '_self') || a.hasAttribute('download')) return;
    const url = new URL(a.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
    // a link to a place on this page (the skip link's #main): the browser's own jump, which
    // also moves the keyboard's focus there
    if (url.hash && url.pathname === location.pathname && url.search === location.search) return;
    ev.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
}

/** The client routes. */
export type Match =
  | { name: 'today'; date: string | null }
  | { name: 'calendar' | 'trends' | 'reports' | 'widget' | 'summary' }
  /** Settings; `section` is the part of it to bring into view (`/settings/cards`: the Cards panel). */
  | { name: 'settings'; section?: 'cards' }
  /** Settings › Security, and the sign-in pages (web/auth/). */
  | { name: 'security' | 'login' | 'setup' | 'register' }
  /** Settings › Notifications. */
  | { name: 'notifications' }
  /** Settings › Health Auto Export (connecting the phone). */
  | { name: 'phone' }
  /** Settings › Cards › Add a card (the card gallery). */
  | { name: 'gallery' }
  | { name: 'not-found' };

/**
 * Which view a path shows. `/day/:date` carries the date as written (checked by the view). A path
 * that is the parent of a route (`/day`, `/settings/cards`, which a person gets to by cutting the
 * address of a day or of Add a card) shows the view it belongs to, not "Nothing here".
 */
export function matchRoute(path: string): Match {
  if (path === '/' || path === '/day') return { name: 'today', date: null };
  const day = /^\/day\/([^/]+)$/.exec(path);
  if (day) return { name: 'today', date: decodeURIComponent(day[1]) };
  switch (path) {
    case '/calendar':
      return { name: 'calendar' };
    case '/trends':
      return { name: 'trends' };
    case '/reports':
      return { name: 'reports' };
    case '/settings':
      return { name: 'settings' };
    case '/widget':
      return { name: 'widget' };
    case '/summary':
      return { name: 'summary' };
    case '/settings/cards':
      return { name: 'settings', section: 'cards' };
    case '/settings/security':
      return { name: 'security' };
    case '/settings/notifications':
      return { name: 'notifications' };
    case '/settings/health-auto-export':
      return { name: 'phone' };
    case '/settings/cards/add':
      return { name: 'gallery' };
    case '/login':
      return { name: 'login' };
    case '/setup':
      return { name: 'setup' };
    case '/register':
      return { name: 'register' };
    default:
      return { name: 'not-found' };
  }
}
