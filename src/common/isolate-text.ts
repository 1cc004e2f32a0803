/**
 * Text a person wrote (a card's label, a row's value, a reminder's label) placed inside a sentence
 * we build ("Added 2 rows to Weight"). Such text may carry characters that change how the whole
 * sentence reads: a bidirectional override (U+202E makes everything after it run right to left),
 * embeddings, isolates and marks, or a newline or other control character that breaks the line.
 * Shared by the server and the browser: no Node imports.
 */

/** Embeddings, overrides, isolates and the directional marks (LRM, RLM, ALM). */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');

/** C0 and C1 controls (newline, tab, …) and the line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Letters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, …). */
const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE: the text takes its own direction, alone. */
const FSI = '\u2068';
const PDI = '\u2069';

/**
 * `text` made safe to place inside a sentence: directional controls removed, each run of control
 * characters (newlines included) one space, trimmed; and, when it holds right-to-left letters or
 * held directional controls, wrapped in FSI … PDI so it cannot reorder the words around it.
 * Plain left-to-right text comes back unchanged.
 */
export function isolateText(text: string): string {
  const clean = text.replace(BIDI_CONTROLS, '').replace(LINE_BREAKING, ' ').trim();
  return BIDI_CONTROL.test(text) || RTL_LETTER.test(clean) ? `${FSI}${clean}${PDI}` : clean;
}
