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
 * Throws 412 unless `ifMatch` (the raw header, possibly a comma-separated list or `*`) matches
 * `current`. Absent header: no precondition. Weak tags never match (If-Match uses strong
 * comparison, RFC 9110 13.1.1).
 */
export function assertIfMatch(ifMatch: string | undefined, current: string): void {
  if (ifMatch === undefined) return;
  const wanted = ifMatch.trim();
  if (wanted === '*') return;
  const tags = wanted.split(',').map((t) => t.trim());
  // entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE (RFC 9110 8.8.3): anything else is a client mistake
  const bad = tags.find((t) => !/^(W\/)?"[^"]*"$/.test(t));
  if (bad !== undefined) {
    throw badRequest(
      `If-Match must hold entity tags in double quotes, like "v42" (got ${clipGraphemes(bad, 40)})`,
      [{ path: 'headers.if-match', message: 'must be * or a list of quoted entity tags' }],
      'BAD_IF_MATCH',
    );
  }
  if (!tags.includes(current)) {
    throw preconditionFailed(
      `the data changed since you read it (current ETag ${current}); read it again and retry`,
    );
  }
}
