/**
 * Where streamed markdown can be cut into finished blocks:
 * text up to a blank line that is outside a code fence, and followed by the start of a plain
 * paragraph, cannot be changed by anything that arrives later, so it can be rendered once. A
 * blank line followed by an indented line, a list item, a quote or a table row is not a cut: that
 * line may continue a list or a block above it. What comes after the last cut (the open block) is
 * rendered again as it grows. The settled answer is rendered whole, so these cuts only ever shape
 * the streaming view.
 */

/** Lines that open or close a fenced code block (CommonMark: three or more ` or ~). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A line that may continue what is above a blank line rather than start something new. */
const CONTINUES = /^(?:[ \t]|[-*+>|]|\d+[.)])/;

/**
 * The last safe cut in `text` at or after `from` (an earlier cut, outside any fence), or `from`
 * when there is none yet. Costs the length of `text` after `from`.
 */
export function lastCut(text: string, from: number): number {
  let cut = from;
  let inFence = false;
  let fenceMark = '';
  let lineStart = from;
  let prevBlank = false;
  while (lineStart < text.length) {
    const nl = text.indexOf('\n', lineStart);
    if (nl === -1) break; // the last line is still being written
    const line = text.slice(lineStart, nl);
    const blank = line.trim() === '';
    if (!inFence && prevBlank && !blank && !CONTINUES.test(line)) cut = lineStart;
    const fence = FENCE.exec(line);
    if (fence) {
      if (!inFence) {
        inFence = true;
        fenceMark = fence[1][0];
      } else if (fence[1][0] === fenceMark) inFence = false;
    }
    prevBlank = blank && !inFence;
    lineStart = nl + 1;
  }
  // the line being written also counts once its first character is known
  if (!inFence && prevBlank && lineStart < text.length && !CONTINUES.test(text.slice(lineStart)))
    cut = lineStart;
  return cut;
}
