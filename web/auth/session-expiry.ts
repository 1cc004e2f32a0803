/**
 * What the app does when the server answers 401: the session ended (signed out
 * elsewhere, its passkey removed, 30 days passed), so the page goes to the sign-in page and
 * comes back here afterwards. On the sign-in pages themselves a 401 is just an answer.
 */
import { isSignInPath } from './sign-in-paths.js';

let leaving = false;

/** Sends the browser to `/login?next=<here>` (once). */
export function onSignedOut(): void {
  if (leaving || isSignInPath(location.pathname)) return;
  leaving = true;
  const here = location.pathname + location.search + location.hash;
  location.assign(`/login?next=${encodeURIComponent(here)}`);
}
