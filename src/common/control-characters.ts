/**
 * The characters a name or a title must not hold, in one place: the controls that break a line
 * (newline, tab, NUL, the C1 controls, U+2028 and U+2029) and the invisible formatting
 * characters that change how a text reads without being seen: the bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069; an override makes "gpj.exe" show as
 * "exe.jpg"), the directional marks (LRM, RLM, ALM), zero-width spaces and joiners that are no
 * part of a word (U+200B, U+2060, U+FEFF), the invisible operators (U+2061–U+2064) and the
 * deprecated format characters (U+206A–U+206F, U+FFF9–U+FFFB).
 *
 * Kept apart from these: ZWJ and ZWNJ (U+200D, U+200C), which build emoji (👨‍👩‍👧) and write
 * Persian and Indic words, variation selectors and the tag characters of subdivision flags.
 *
 * A name a request sets (a card's label, a reminder's title, a token's or a device's name) that
 * holds one is refused naming the field; a text Klebb keeps by cleaning it (a conversation
 * title, a workout name) has them removed or, for the line breaks, made a space. Shared by the
 * server and the browser: no Node imports.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is found
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const INVISIBLE = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;
const ANY = new RegExp(`${LINE_BREAKING.source}|${INVISIBLE.source}`);
const LINE_BREAKING_RUNS = new RegExp(`${LINE_BREAKING.source}+`, 'g');
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'g');

/** The first line-breaking control or invisible formatting character of `text`, or undefined. */
export function firstControl(text: string): string | undefined {
  return ANY.exec(text)?.[0];
}

const hex = (ch: string) => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * How a refused character is named in a message: "a line break", "a tab", "the control character
 * U+0007", "the invisible character U+202E (it changes the direction of the text)".
 */
export function nameControl(ch: string): string {
  if (ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029') return 'a line break';
  if (ch === '\t') return 'a tab';
  if (LINE_BREAKING.test(ch)) return `the control character ${hex(ch)}`;
  const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(ch);
  return `the invisible character ${hex(ch)}${bidi ? ' (it changes the direction of the text)' : ''}`;
}

/**
 * Why `text` cannot be a one-line name, as the end of a sentence ("holds a line break", "holds
 * the invisible character U+202E (…)"), or null when it can.
 */
export function controlProblem(text: string): string | null {
  const ch = firstControl(text);
  return ch === undefined ? null : `holds ${nameControl(ch)}`;
}

/**
 * `text` as one clean line: the invisible formatting characters removed, each run of
 * line-breaking controls one space. Whitespace is left as it is (the caller trims or collapses).
 */
export function withoutControls(text: string): string {
  return text.replace(INVISIBLE_ALL, '').replace(LINE_BREAKING_RUNS, ' ');
}

const EDGE_BLANKS = new RegExp(`^(?:\\p{Zs}|${INVISIBLE.source})+|(?:\\p{Zs}|${INVISIBLE.source})+$`, 'gu');

/**
 * `text` without the spaces (any Unicode space separator) and invisible formatting characters at
 * its two ends: what a person cannot see there is no part of a name they typed or picked. Line
 * breaks and other controls are left for the caller to refuse.
 */
export function trimInvisible(text: string): string {
  return text.replace(EDGE_BLANKS, '');
}

/**
 * A character that shows something: a letter, digit, symbol (an emoji) or punctuation mark that
 * is not one Unicode marks to be drawn as nothing (Default_Ignorable_Code_Point: the joiners,
 * variation selectors, soft hyphen, tag characters, and the Hangul fillers, which are letters
 * by category), nor the blank braille pattern U+2800. A name of such characters alone reads as
 * no name at all, however it is spelled.
 */
const SHOWN = /[\p{L}\p{N}\p{S}\p{P}]/u;
const DRAWN_AS_NOTHING = /[\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Whether `text` holds a character that shows something (see SHOWN); `ignore` lists more that do not count. */
export function showsSomething(text: string, ignore = ''): boolean {
  for (const ch of text) {
    if (SHOWN.test(ch) && !DRAWN_AS_NOTHING.test(ch) && !ignore.includes(ch)) return true;
  }
  return false;
}

/** Whether `text` shows anything but dots (a file name's stem): see showsSomething. */
export function hasVisibleName(text: string): boolean {
  return showsSomething(text, '.');
}
