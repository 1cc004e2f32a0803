/**
 * Reasoning written inline in the answer text: `<think>…</think>` (or `<thinking>`) before the
 * answer, or only the closing tag when the chat template opened the block in the prompt. The
 * splitter takes answer text as it streams and lets through only what follows the reasoning, so
 * reasoning never reaches the user or the stored transcript. A bare closing tag is only known
 * once it arrives: the text let through before it is then taken back (`retracted`), and the
 * caller remembers that this model starts inside reasoning, so later replies are held from the
 * start until the tag.
 */

const OPEN = /^\s*<(think|thinking)>/;
const CLOSE = /<\/(think|thinking)>/;
/** Longest closing tag: this many trailing characters are held back in case a tag is split. */
const HOLD = '</thinking>'.length;

/** What one piece of text turned into. */
export interface SplitPiece {
  /** Answer text to pass on now. */
  answer: string;
  /** Reasoning text found. */
  reasoning: string;
  /** True when the answer text passed on so far turned out to be reasoning and must be taken back. */
  retracted: boolean;
}

/** A streaming splitter of answer text and inline reasoning. */
export interface ReasoningSplitter {
  push(text: string): SplitPiece;
  /** The end of the reply: whatever was held back. */
  end(): SplitPiece;
  /** How the reply carried inline reasoning. */
  readonly seen: 'none' | 'tagged' | 'bare';
}

/**
 * Creates a splitter. `startsInside`: the model is known to open its reasoning in the prompt, so
 * everything up to the first closing tag is reasoning (a reply without one is all answer).
 */
export function createReasoningSplitter(startsInside = false): ReasoningSplitter {
  let state: 'start' | 'inside' | 'answer' = startsInside ? 'inside' : 'start';
  let held = ''; // text not yet decided
  let passed = ''; // answer text passed on so far (taken back on a bare closing tag)
  let seen: ReasoningSplitter['seen'] = 'none';

  const piece = (answer = '', reasoning = '', retracted = false): SplitPiece => {
    passed += answer;
    return { answer, reasoning, retracted };
  };

  const step = (): SplitPiece => {
    if (state === 'start') {
      const lead = held.trimStart();
      if (lead === '') return piece();
      const open = OPEN.exec(held);
      if (open) {
        state = 'inside';
        seen = 'tagged';
        held = held.slice(open[0].length);
        return step();
      }
      if (['<think>', '<thinking>'].some((tag) => tag.startsWith(lead))) return piece(); // a tag may be arriving
      state = 'answer';
    }
    if (state === 'inside') {
      const close = CLOSE.exec(held);
      if (!close) {
        if (seen === 'none') return piece(); // not known yet whether a closing tag will come: hold
        const keep = Math.min(held.length, HOLD);
        const reasoning = held.slice(0, held.length - keep);
        held = held.slice(held.length - keep);
        return piece('', reasoning);
      }
      const reasoning = held.slice(0, close.index);
      held = held.slice(close.index + close[0].length).replace(/^\s+/, '');
      state = 'answer';
      if (seen === 'none') seen = 'bare';
      const rest = step();
      return { answer: rest.answer, reasoning: reasoning + rest.reasoning, retracted: rest.retracted };
    }
    // answer: watch for a bare closing tag
    const close = CLOSE.exec(held);
    if (close && seen === 'none') {
      const reasoning = passed + held.slice(0, close.index);
      const retracted = passed !== '';
      passed = '';
      seen = 'bare';
      held = held.slice(close.index + close[0].length).replace(/^\s+/, '');
      const rest = step();
      return {
        answer: rest.answer,
        reasoning: reasoning + rest.reasoning,
        retracted: retracted || rest.retracted,
      };
    }
    const lt = held.lastIndexOf('<');
    const keep = seen === 'none' && lt >= 0 && held.length - lt < HOLD ? held.length - lt : 0;
    const answer = held.slice(0, held.length - keep);
    held = held.slice(held.length - keep);
    return piece(answer);
  };

  return {
    get seen() {
      return seen;
    },
    push(text: string): SplitPiece {
      held += text;
      return step();
    },
    end(): SplitPiece {
      const rest = held;
      held = '';
      if (state === 'inside') {
        // an opened block never closed is all reasoning; held text without any tag is the answer
        return seen === 'tagged' ? piece('', rest) : piece(rest);
      }
      return piece(rest);
    },
  };
}
