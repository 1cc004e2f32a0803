/**
 * URL paths with a part longer than the router takes. The router (find-my-way) will not match a
 * path parameter longer than MAX_PATH_PART_CHARS, and says so itself only when no other route
 * could take the path; the app's page fallback (`/*`) takes any GET, so an over-long card id used
 * to come back as "no route GET /api/manifests/aaaa…" (404) instead of 414 URI_TOO_LONG. The
 * fallback and the 404 handler ask here first, so every route answers an over-long part alike.
 */
import { KlebbError } from '../errors.js';
import { MAX_PATH_PART_CHARS } from '../limits.js';

/** A path part as the router reads it: %-escapes decoded (a broken one left as it is). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * 414 URI_TOO_LONG when `pathname` (the URL without its query) is an API path (`/api/…`) with a
 * part longer than MAX_PATH_PART_CHARS, else null. A page path is left to the web app, which
 * shows its own "not found". The message does not repeat the path (it may carry a secret).
 */
export function pathPartTooLong(pathname: string): KlebbError | null {
  if (!/^\/api(\/|$)/i.test(pathname)) return null;
  const long = pathname
    .split('/')
    .some((part) => part.length > MAX_PATH_PART_CHARS && decoded(part).length > MAX_PATH_PART_CHARS);
  return long ? new KlebbError(414, 'URI_TOO_LONG', PATH_PART_TOO_LONG) : null;
}

/** The words of a 414 URI_TOO_LONG, whoever finds the over-long part (the router or the fallback). */
export const PATH_PART_TOO_LONG = `a part of the URL path is longer than ${MAX_PATH_PART_CHARS} characters`;
