/**
 * The filters of `GET /api/changes` (`card`, `actor`) checked for what they can be: a filter that
 * could never match (a card id with a path separator or a control character, an actor of a kind
 * that does not exist, `web:x`) is a client's mistake, refused with 400 naming it, rather than an
 * empty page that reads as "nothing happened". A well-formed value that matches nothing (a card
 * deleted long ago) is a page like any other.
 */
import { badRequest } from '../errors.js';

/** Actor kinds that name who exactly after a `:` (`token:<name>`, `chat:<conv>/<turn>`, `mcp:<who>`). */
const QUALIFIED_KINDS = ['token', 'chat', 'mcp'];
/** Actor kinds that stand alone. */
const BARE_KINDS = ['web', 'agent-token', 'hae', 'import', 'file', 'local', 'system', 'restore', 'rollback'];

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Longest card id a file name can carry. */
const MAX_FILTER_CHARS = 255;

/** What is wrong with `card` as a card id filter, or null. */
function cardProblem(card: string): string | null {
  if (card.length > MAX_FILTER_CHARS) return `must be a card id of at most ${MAX_FILTER_CHARS} characters`;
  if (CONTROL.test(card) || /[/\\]/.test(card) || card.startsWith('.'))
    return 'is not a card id (no path separators, control characters or leading ".")';
  return null;
}

/** What is wrong with `actor` as an actor filter, or null. */
function actorProblem(actor: string): string | null {
  const kinds = `${[...BARE_KINDS, ...QUALIFIED_KINDS].join(', ')}, or token:<name>, chat:<id>, mcp:<who>`;
  if (actor.length > MAX_FILTER_CHARS || CONTROL.test(actor)) return `must be an actor: ${kinds}`;
  const colon = actor.indexOf(':');
  const kind = colon < 0 ? actor : actor.slice(0, colon);
  if (colon < 0)
    return BARE_KINDS.includes(kind) || QUALIFIED_KINDS.includes(kind) ? null : `must be an actor: ${kinds}`;
  if (!QUALIFIED_KINDS.includes(kind)) return `must be an actor: ${kinds} (${kind} takes nothing after ":")`;
  return colon === actor.length - 1 ? `must name who after "${kind}:"` : null;
}

/**
 * Checks the `card` and `actor` filters (see the file comment).
 * @throws 400 BAD_REQUEST naming `query.card` or `query.actor`.
 */
export function checkChangeFilters(q: { card?: string; actor?: string }): void {
  for (const [key, problem] of [
    ['card', q.card === undefined ? null : cardProblem(q.card)],
    ['actor', q.actor === undefined ? null : actorProblem(q.actor)],
  ] as const) {
    if (problem) throw badRequest(`"${key}" ${problem}`, [{ path: `query.${key}`, message: problem }]);
  }
}
