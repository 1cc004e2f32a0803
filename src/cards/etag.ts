/**
 * Data ETags and `If-Match` (RFC 9110 sections 8.8.3 and 13.1.1). A card's data ETag is its data
 * version (the id of its latest change set), strong: `"v42"`.
 */

import { clipGraphemes } from '../common/graphemes.js';
import { badRequest, preconditionFailed } from '../errors.js';

/** The strong ETag of a data version. */
export function dataEtag(version: number): string {
  return `"v${version}"`;
}

/**
 * A data ETag as this server writes it, possibly weakened (`W/`, as a proxy compressing the
 * answer may do): a quoted `v` and a whole number as JavaScript writes one (no leading zero, at
 * most 2^53 - 1). Any other tag, even one RFC 9110's syntax allows (`"x"`, `""`, `"v007"`), was
 * never given out here: it is a client's mistake (400), not a precondition that failed (412),
 * which would send the client reading and retrying in vain.
 */
const OUR_TAG = /^(W\/)?"v(0|[1-9]\d{0,15})"$/;
/**
 * The digest tags: the card order's (order-etag.ts, `"o-"`) and a card's whose file no change
 * records (card-etag.ts, `"c-"`), each 16 hex digits, possibly weakened.
 */
const DIGEST_TAG = /^(W\/)?"[oc]-[0-9a-f]{16}"$/;

function isOurTag(t: string): boolean {
  if (DIGEST_TAG.test(t)) return true;
  const m = OUR_TAG.exec(t);
  return m !== null && Number.isSafeInteger(Number(m[2]));
}

/**
 * Throws 412 unless `ifMatch` (the raw header, possibly a comma-separated list or `*`) holds one
 * of `current` (the tags that still describe what the client read, the first named in the 412).
 * Absent header: no precondition. Weak tags never match (If-Match uses strong comparison, RFC
 * 9110 13.1.1). `what` names what changed in the 412's message ('data', 'card', 'card order').
 * @throws 400 BAD_IF_MATCH naming `headers.if-match` for a value that is not `*` or a list of
 *   this server's tags; 412 PRECONDITION_FAILED when such a list holds none of `current`.
 */
export function assertIfMatch(
  ifMatch: string | undefined,
  current: string | readonly string[],
  what: 'data' | 'card' | 'card order' = 'data',
): void {
  if (ifMatch === undefined) return;
  const wanted = ifMatch.trim();
  if (wanted === '*') return;
  // empty list elements ("v1",) are ignored, as HTTP's list syntax asks of a recipient
  const tags = wanted
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const bad = tags.length === 0 ? '' : tags.find((t) => !isOurTag(t));
  if (bad !== undefined) {
    const got = bad === '' ? 'no tag' : clipGraphemes(bad, 40);
    throw badRequest(
      `If-Match must be * or data ETags as this server sends them, in double quotes, like "v42" (got ${got})`,
      [{ path: 'headers.if-match', message: 'must be * or a list of quoted data ETags such as "v42"' }],
      'BAD_IF_MATCH',
    );
  }
  const now = typeof current === 'string' ? [current] : current;
  if (!tags.some((t) => now.includes(t))) {
    throw preconditionFailed(
      `the ${what} changed since you read it (current ETag ${now[0]}); read it again and retry`,
    );
  }
}
