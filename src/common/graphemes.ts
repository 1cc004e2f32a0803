/**
 * Counting and cutting text by user-perceived characters (grapheme clusters). JavaScript
 * `length` and `slice` count UTF-16 units, so a cut can leave half an emoji (a lone surrogate that
 * renders as "�" and that strict parsers reject), split a ZWJ family (👨‍👩‍👧), a flag (🇳🇿), a
 * skin tone (👍🏽) or a combining accent (é written as e + U+0301). Shared by the server and the
 * browser: no Node imports.
 *
 * Uses `Intl.Segmenter` with granularity 'grapheme' (Node 16+, every current browser); where it is
 * missing, a regular expression that keeps the same clusters together (marks, variation selectors,
 * skin tones, tags, ZWJ sequences, regional-indicator pairs, CRLF).
 */

/** The ellipsis appended by `truncateGraphemes` (one character, U+2026). */
export const ELLIPSIS = '…';

let segmenter: Intl.Segmenter | null | undefined;

function getSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    segmenter =
      typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function'
        ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
        : null;
  }
  return segmenter;
}

/**
 * Fallback cluster pattern: CRLF; a pair of regional indicators (a flag); otherwise one code point
 * followed by any marks (includes variation selectors), skin-tone modifiers, tag characters (the
 * subdivision flags), or ZWJ plus the next code point.
 */
const CLUSTER_RE =
  /\r\n|\p{Regional_Indicator}{2}|.(?:\p{M}|\p{Emoji_Modifier}|[\u{E0020}-\u{E007F}]|\u200D.)*/gsu;

/** Grapheme clusters of `s` by the regular-expression fallback (exported for tests). */
export function splitGraphemesFallback(s: string): string[] {
  return s.match(CLUSTER_RE) ?? [];
}

/** UTF-16 units segmented at once (see clusters). */
const SEGMENT_WINDOW = 256;
/** Units kept after the last cluster taken from a window (twice MAX_UNITS_PER_CHARACTER), so what follows it was seen. */
const SEGMENT_LOOKAHEAD = 32;

/**
 * The clusters of `s`, in order. V8's Intl.Segmenter spends time on each cluster in proportion
 * to the length of the whole text (Node 20: 100 000 emoji took minutes), so a long text is
 * segmented a window at a time: the clusters that end well inside a window are taken, and the next
 * window starts where the first one not taken starts. A cluster starts afresh at a boundary (the
 * rules look back only within a cluster), so the clusters are the ones the whole text gives.
 */
function* clusters(s: string): Generator<string> {
  const seg = getSegmenter();
  if (!seg) {
    yield* splitGraphemesFallback(s);
    return;
  }
  let from = 0;
  while (s.length - from > SEGMENT_WINDOW) {
    let next = from;
    for (const part of seg.segment(s.slice(from, from + SEGMENT_WINDOW))) {
      if (part.index + part.segment.length > SEGMENT_WINDOW - SEGMENT_LOOKAHEAD) break;
      yield part.segment;
      next = from + part.index + part.segment.length;
    }
    if (next === from) {
      // one cluster longer than a window (a letter under many marks): the first of the rest
      const first = seg.segment(s.slice(from)).containing(0)?.segment ?? s.slice(from);
      yield first;
      next = from + first.length;
    }
    from = next;
  }
  for (const part of seg.segment(from === 0 ? s : s.slice(from))) yield part.segment;
}

/** The user-perceived characters of `s`, in order ('' gives []). */
export function splitGraphemes(s: string): string[] {
  return [...clusters(s)];
}

/** How many user-perceived characters `s` has ("legs ok 🏃" is 9; "👨‍👩‍👧" is 1). */
export function graphemeLength(s: string): number {
  let n = 0;
  for (const _ of clusters(s)) n++;
  return n;
}

/**
 * Most UTF-16 units a text may spend per user-perceived character of its limit: a text limited to
 * `max` characters holds at most `max ×` this many units. The longest clusters people write are
 * far shorter (a ZWJ family is 11 units, a subdivision flag 14), while a count of clusters alone
 * lets one "character" through that is a letter under ten thousand combining marks, megabytes
 * of text that still counts as one.
 */
export const MAX_UNITS_PER_CHARACTER = 16;

/**
 * How `s` stands against a limit of `max` user-perceived characters: null when it fits; else how
 * many characters it has; or 'too long' when it holds more than MAX_UNITS_PER_CHARACTER × `max`
 * UTF-16 units (a paste far over the limit, or characters stacked with combining marks), which
 * is not counted (segmenting a huge text one cluster at a time is slow). The one rule of every
 * text limit in characters, on the server and in the web app.
 */
export function overLimit(s: string, max: number): number | 'too long' | null {
  if (s.length <= max) return null;
  if (s.length > max * MAX_UNITS_PER_CHARACTER) return 'too long';
  const n = graphemeLength(s);
  return n > max ? n : null;
}

/** Whether `s` breaks a limit of `max` characters (see overLimit: too many characters or units). */
export function overGraphemes(s: string, max: number): boolean {
  return overLimit(s, max) !== null;
}

/**
 * `s` cut to its first `max` user-perceived characters followed by `ellipsis` (default `…`), or `s`
 * unchanged when it fits (overLimit). Never splits an emoji, a ZWJ sequence, a flag or a combining
 * mark, so the result is always well formed when `s` is ("Ran 10k in the rain, legs ok 🏃
 * but knee sore later" cut to 30 is "Ran 10k in the rain, legs ok 🏃…"); and the part kept holds
 * at most MAX_UNITS_PER_CHARACTER × `max` UTF-16 units, so a character stacked with thousands of
 * combining marks is left out whole rather than kept whole. The template language's
 * `{key:truncate(N)}` is this with the default ellipsis. `max` below 0 counts as 0.
 */
export function truncateGraphemes(s: string, max: number, ellipsis: string = ELLIPSIS): string {
  const limit = Math.max(0, Math.floor(max));
  if (!overGraphemes(s, limit)) return s;
  const units = limit * MAX_UNITS_PER_CHARACTER;
  let kept = '';
  let n = 0;
  for (const c of clusters(s)) {
    if (n === limit || kept.length + c.length > units) break;
    kept += c;
    n++;
  }
  return kept + ellipsis;
}

/**
 * `s` kept within `max` user-perceived characters in all, the ellipsis included: unchanged when it
 * fits, else its first `max - 1` characters and `…`. The one way text is cut for display, logs,
 * titles and messages, so a cut never leaves half an emoji or a lone surrogate, and never keeps
 * more than MAX_UNITS_PER_CHARACTER UTF-16 units per character.
 */
export function clipGraphemes(s: string, max: number): string {
  return overGraphemes(s, max) ? truncateGraphemes(s, Math.max(0, max - 1)) : s;
}

/** The first `max` user-perceived characters of `s`, without an ellipsis (a prefix never cut mid-character). */
export function headGraphemes(s: string, max: number): string {
  return truncateGraphemes(s, max, '');
}

/**
 * The user-perceived character of `s` that starts at UTF-16 index `i` (moved back onto the first
 * half of a surrogate pair when it points at the second), for a message naming the character found
 * somewhere: `s[i]` alone would be half an emoji. A cluster longer than MAX_UNITS_PER_CHARACTER
 * (a letter under many marks) is named by its first code point. '' past the end.
 */
export function graphemeAt(s: string, i: number): string {
  let from = Math.max(0, i);
  const unit = s.charCodeAt(from);
  const before = s.charCodeAt(from - 1);
  if (unit >= 0xdc00 && unit <= 0xdfff && before >= 0xd800 && before <= 0xdbff) from--;
  if (from >= s.length) return '';
  // one unit more than a character may have: a cluster that fits ends inside this window
  const [first = ''] = clusters(s.slice(from, from + MAX_UNITS_PER_CHARACTER + 1));
  return first.length <= MAX_UNITS_PER_CHARACTER ? first : String.fromCodePoint(s.codePointAt(from) ?? 0);
}
