/**
 * Every place that cuts text cuts by user-perceived characters through the one helper: feedback
 * intents, generated conversation titles (and the text sent to ask for one), stored titles, error
 * snippets. A cut never leaves a lone surrogate or half of a ZWJ sequence, a flag or a skin tone.
 */
import { describe, expect, it } from 'vitest';
import { cleanTitle } from '../../src/chat/conversations/conversation-store.js';
import { cleanGeneratedTitle } from '../../src/chat/conversations/title.js';
import { clipGraphemes, headGraphemes, splitGraphemes } from '../../src/common/graphemes.js';
import { firstLine } from '../../src/common/text.js';
import { shapeFeedback } from '../../src/feedback/feedback-log.js';
import {
  MAX_CONVERSATION_TITLE_CHARS,
  MAX_FEEDBACK_INTENT_CHARS,
  MAX_GENERATED_TITLE_CHARS,
} from '../../src/limits.js';

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FAMILY = '👨‍👩‍👧';
const THUMB = '👍🏽';

/** Text of `n` ASCII letters followed by emoji sequences, so any cut near `n` lands inside one. */
const around = (n: number) => `${'a'.repeat(n - 1)}${FAMILY}${THUMB}🇳🇿${FAMILY}`;

/** `s` (an ellipsis at the end aside) is whole characters of `src`, in order, from its start. */
function wellFormed(s: string, src: string): void {
  expect(LONE.test(s)).toBe(false);
  const kept = splitGraphemes(s.endsWith('…') ? s.slice(0, -1) : s);
  expect(kept).toEqual(splitGraphemes(src).slice(0, kept.length));
}

describe('text cut at a limit', () => {
  it('clipGraphemes and headGraphemes keep whole characters', () => {
    expect(clipGraphemes(`ab${FAMILY}c`, 3)).toBe(`ab…`);
    expect(clipGraphemes(`ab${FAMILY}`, 3)).toBe(`ab${FAMILY}`);
    expect(headGraphemes(`a${THUMB}b`, 2)).toBe(`a${THUMB}`);
  });

  it('feedback intents', () => {
    for (const n of [
      MAX_FEEDBACK_INTENT_CHARS - 1,
      MAX_FEEDBACK_INTENT_CHARS,
      MAX_FEEDBACK_INTENT_CHARS + 1,
    ]) {
      const e = shapeFeedback({ kind: 'bug', intent: around(n) });
      wellFormed(e.intent, around(n));
    }
  });

  it('generated and stored conversation titles', () => {
    for (const n of [MAX_GENERATED_TITLE_CHARS - 1, MAX_GENERATED_TITLE_CHARS, MAX_GENERATED_TITLE_CHARS + 1])
      wellFormed(cleanGeneratedTitle(`x ${around(n)}`) as string, `x ${around(n)}`);
    for (const n of [MAX_CONVERSATION_TITLE_CHARS, MAX_CONVERSATION_TITLE_CHARS + 1])
      wellFormed(cleanTitle(around(n)) as string, around(n));
  });

  it('first lines', () => {
    for (const n of [9, 10, 11]) wellFormed(firstLine(around(n), 10), around(n));
  });
});
