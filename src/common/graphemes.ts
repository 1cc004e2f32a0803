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

function* clusters(s: string): Generator<string> {
  const seg = getSegmenter();
  if (seg) {
    for (const part of seg.segment(s)) yield part.segment;
  } else {
    yield* splitGraphemesFallback(s);
  }
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
 * `s` cut to its first `max` user-perceived characters followed by `ellipsis` (default `…`), or `s`
 * unchanged when it has at most `max`. Never splits an emoji, a ZWJ sequence, a flag or a combining
 * mark, so the result is always well formed when `s` is ("Ran 10k in the rain, legs ok 🏃
 * but knee sore later" cut to 30 is "Ran 10k in the rain, legs ok 🏃…"). The template language's
 * `{key:truncate(N)}` is this with the default ellipsis. `max` below 0 counts as 0.
 */
export function truncateGraphemes(s: string, max: number, ellipsis: string = ELLIPSIS): string {
  const limit = Math.max(0, Math.floor(max));
  let kept = '';
  let n = 0;
  for (const c of clusters(s)) {
    if (n === limit) return kept + ellipsis;
    kept += c;
    n++;
  }
  return s;
}

/**
 * `s` kept within `max` user-perceived characters in all, the ellipsis included: unchanged when it
 * fits, else its first `max - 1` characters and `…`. The one way text is cut for display, logs,
 * titles and messages, so a cut never leaves half an emoji or a lone surrogate.
 */
export function clipGraphemes(s: string, max: number): string {
  return graphemeLength(s) <= max ? s : truncateGraphemes(s, Math.max(0, max - 1));
}

/** The first `max` user-perceived characters of `s`, without an ellipsis (a prefix never cut mid-character). */
export function headGraphemes(s: string, max: number): string {
  return truncateGraphemes(s, max, '');
}

/**
 * Whether `s` has more than `max` user-perceived characters. A text over `16 × max` UTF-16 units
 * is over without being counted (no character takes more than 16 units; segmenting a huge paste
 * one cluster at a time is slow).
 */
export function overGraphemes(s: string, max: number): boolean {
  if (s.length <= max) return false;
  return s.length > max * 16 || graphemeLength(s) > max;
}
