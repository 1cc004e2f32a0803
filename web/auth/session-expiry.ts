/**
 * What the app does when the server answers 401: the session ended (signed out
 * elsewhere, its passkey removed, 30 days passed), so the page goes to the sign-in page and
 * comes back here afterwards. On the sign-in pages themselves a 401 is just an answer.
 */
import { isSignInPath } from './sign-in-paths.js';

let leaving = false;
const beforeLeaving: Array<() => void> = [];

/**
 * Runs `keep` just before the page leaves for the sign-in page (open forms keep what was typed
 * in them, entry-draft.ts).
 */
export function whenSignedOut(keep: () => void): void {
  beforeLeaving.push(keep);
}

/** Sends the browser to `/login?next=<here>` (once). */
export function onSignedOut(): void {
  if (leaving || isSignInPath(location.pathname)) return;
  leaving = true;
  for (const keep of beforeLeaving) {
    try {
      keep();
    } catch {
      // what could not be kept is lost, as before; the sign-in still comes first
    }
  }
  const here = location.pathname + location.search + location.hash;
  location.assign(`/login?next=${encodeURIComponent(here)}`);
}
