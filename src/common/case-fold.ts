/**
 * Text folded for matching that ignores case, under Unicode full case folding: a letter may fold
 * to more than one (`ß` and `ẞ` to `ss`, `ﬁ` to `fi`), the final sigma `ς` is `σ`, and a capital
 * `İ` is `i` (its dot above is the dot of the `i`, so "istanbul" finds "İstanbul"). A
 * regular expression's `i` flag folds one letter to one letter only and finds neither `straße`
 * for "STRASSE" nor `İstanbul` for "istanbul". The query and the text are folded alike, so
 * whatever either is written with, the same words meet. Text is expected in NFC.
 */

const ASCII = /^[\0-\x7f]*$/;
const COMBINING_DOT_ABOVE = '\u0307';
/** Folded forms of the non-ASCII characters met so far (at most the size of Unicode). */
const folded = new Map<string, string>();

/** The folded form of one character (a code point). */
function foldChar(ch: string): string {
  let f = folded.get(ch);
  if (f === undefined) {
    // lower, upper, lower: reaches the full folding of the letters whose one-letter lower case is
    // not it (ẞ → ß → SS → ss; İ → i̇); the dot above of a capital İ goes (see the file comment)
    f = ch
      .toLowerCase()
      .toUpperCase()
      .toLowerCase()
      .replace(/ς/g, 'σ')
      .replace(/([ij])\u0307/g, '$1');
    folded.set(ch, f);
  }
  return f;
}

/**
 * Walks `text` a code point at a time, handing `visit` each one's offset and length in `text`
 * (UTF-16 units) and its folded form. A combining dot above right after an `i` or `j` folds to
 * nothing (it is the letter's own dot, as in a decomposed `İ`).
 */
function walk(text: string, visit: (at: number, length: number, fold: string) => void): void {
  let last = '';
  for (let at = 0; at < text.length; ) {
    const cp = text.codePointAt(at) as number;
    const length = cp > 0xffff ? 2 : 1;
    const ch = text.slice(at, at + length);
    const fold =
      cp < 0x80
        ? ch.toLowerCase()
        : ch === COMBINING_DOT_ABOVE && (last === 'i' || last === 'j')
          ? ''
          : foldChar(ch);
    visit(at, length, fold);
    if (fold !== '') last = fold.slice(-1);
    at += length;
  }
}

/** `text` under full case folding (see the file comment). Plain ASCII is just lower-cased. */
export function foldCase(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = '';
  walk(text, (_at, _length, fold) => {
    out += fold;
  });
  return out;
}

/**
 * Where the match at `from` (`length` units long) in `foldCase(text)` lies in `text` itself:
 * folding can change lengths (`ß` is two letters folded), so the offsets differ past such a
 * letter. A match that begins or ends inside a letter's folding takes the whole letter.
 */
export function unfoldedSpan(text: string, from: number, length: number): { at: number; length: number } {
  if (ASCII.test(text)) return { at: from, length };
  const to = from + length;
  let pos = 0;
  let start = -1;
  let end = text.length;
  let done = false;
  walk(text, (at, units, fold) => {
    if (done) return;
    const next = pos + fold.length;
    if (start < 0 && next > from) start = at;
    if (next >= to && start >= 0) {
      end = at + units;
      done = true;
    }
    pos = next;
  });
  if (start < 0) start = text.length;
  return { at: start, length: Math.max(0, end - start) };
}
