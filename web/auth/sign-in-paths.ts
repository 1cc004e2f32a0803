/**
 * The sign-in pages' paths and the small reads they share: where to go after signing in
 * (`?next=`, same-origin paths only), and the code of a setup or invite link (in the fragment,
 * `#code=`, which browsers never send to the server; `?code=` of older links is read too). No
 * imports: main.tsx asks `isSignInPath` before anything else loads.
 */

/** Client routes anyone may open (the server serves them without credentials). */
export const SIGN_IN_PATHS = ['/login', '/setup', '/register'] as const;

/** True on a sign-in page, where the signed-in parts of the app (instance, live feed) do not start. */
export function isSignInPath(path: string): boolean {
  const p = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return (SIGN_IN_PATHS as readonly string[]).includes(p);
}

/** Where to go after signing in: the `next` query parameter when it is a same-origin app path, else `/`. */
export function nextTarget(search: string = location.search): string {
  const next = new URLSearchParams(search).get('next');
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  try {
    const url = new URL(next, location.origin);
    if (url.origin !== location.origin || isSignInPath(url.pathname)) return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}

/**
 * The code of a setup or invite link, from `#code=` (or `?code=`), or null. A `?code=` is taken
 * out of the address bar once read, so it is not kept in history or shared by accident.
 */
export function linkCode(): string | null {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('code');
  if (fromHash) return fromHash;
  const params = new URLSearchParams(location.search);
  const fromQuery = params.get('code');
  if (fromQuery) {
    params.delete('code');
    const rest = params.toString();
    history.replaceState(
      null,
      '',
      `${location.pathname}${rest ? `?${rest}` : ''}#code=${encodeURIComponent(fromQuery)}`,
    );
  }
  return fromQuery;
}
