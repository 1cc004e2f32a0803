/**
 * Reasoning written inline in the answer text, by servers that leave a model's reasoning markup in
 * `content`: `<think>…</think>` (also `<thinking>`, `<reasoning>`, `<thought>`, MiniMax's
 * `<mm:think>`, ByteDance Seed's `<seed:think>`), Mistral's `[THINK]…[/THINK]`, and gpt-oss's
 * harmony channels (`<|channel|>analysis<|message|>…<|end|><|start|>assistant<|channel|>final<|message|>`,
 * or the same with the special tokens dropped: `analysis…assistantfinal…`), before the answer; or
 * only the closing tag when the chat template opened the block in the prompt. Once a block opens,
 * only its own closing form ends it, so reasoning that mentions another model's tags stays
 * reasoning. The splitter takes answer text as it streams and lets through only what follows the
 * reasoning, so reasoning never reaches the user or the stored transcript; harmony's control
 * tokens are dropped from both. A bare closing tag is only known once it arrives: the text let
 * through before it is then taken back (`retracted`), and the caller remembers that this model
 * starts inside reasoning, so later replies are held from the start until the tag.
 */

/** One way a model marks its reasoning. */
interface Markup {
  /** The opening at the start of the reply (leading whitespace allowed). */
  open: RegExp;
  /** Openings as written, to wait while one may still be arriving. */
  openers: string[];
  /** The closing form; the answer follows it. */
  close: RegExp;
  /** Closing forms as written, to hold back the end of the text while one may be arriving. */
  closers: string[];
  /** A closing form alone (the block opened in the prompt) ends reasoning too. */
  bare: boolean;
  /** Control tokens to drop from the reasoning and the answer (harmony's). */
  controls?: RegExp;
}

const tagPair = (names: string[], bare = false): Markup => ({
  open: new RegExp(`^\\s*<(?:${names.join('|')})>`),
  openers: names.map((n) => `<${n}>`),
  close: new RegExp(`</(?:${names.join('|')})>`),
  closers: names.map((n) => `</${n}>`),
  bare,
});

const HARMONY_CONTROLS = /<\|start\|>assistant|<\|channel\|>\w+|<\|(?:message|end|return|call)\|>/g;

const MARKUPS: Markup[] = [
  tagPair(['think', 'thinking'], true),
  tagPair(['reasoning', 'thought']),
  tagPair(['seed:think']),
  tagPair(['mm:think']),
  {
    open: /^\s*\[THINK\]/,
    openers: ['[THINK]'],
    close: /\[\/THINK\]/,
    closers: ['[/THINK]'],
    bare: true,
  },
  {
    open: /^\s*(?:<\|start\|>assistant)?<\|channel\|>analysis<\|message\|>/,
    openers: ['<|start|>assistant<|channel|>analysis<|message|>', '<|channel|>analysis<|message|>'],
    // the final answer ends the analysis; so does a commentary message addressed to a tool (a
    // call written as text, left for the caller to read: not consumed, and not cleaned)
    close:
      /(?:<\|end\|>)?(?:<\|start\|>assistant)?(?:<\|channel\|>final<\|message\|>|(?=<\|channel\|>commentary to=))/,
    closers: ['<|end|><|start|>assistant<|channel|>final<|message|>'],
    bare: true,
    controls: HARMONY_CONTROLS,
  },
  {
    // harmony with its special tokens dropped by the server: only the channel names remain
    open: /^analysis(?=\p{Lu})/u,
    openers: ['analysis'],
    close: /assistantfinal/,
    closers: ['assistantfinal'],
    bare: false,
  },
];

const BARE = MARKUPS.filter((m) => m.bare);

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

/** The earliest closing among `markups` in `text`, with the markup it closes. */
function firstClose(
  text: string,
  markups: Markup[],
): { at: number; length: number; markup: Markup } | undefined {
  let best: { at: number; length: number; markup: Markup } | undefined;
  for (const markup of markups) {
    const m = markup.close.exec(text);
    if (m && (best === undefined || m.index < best.at)) best = { at: m.index, length: m[0].length, markup };
  }
  return best;
}

/**
 * True when a closing form found after `before` (the answer text up to it) is quoted, not markup:
 * inside a Markdown code span or block (an odd number of backticks before it), or after its own
 * opening form (an answer explaining how a model marks its reasoning, "[THINK] and [/THINK]").
 * Reasoning opened in the prompt has neither before its closing tag.
 */
function quoted(before: string, markup: Markup): boolean {
  const ticks = before.match(/`/g)?.length ?? 0;
  return ticks % 2 === 1 || markup.openers.some((o) => before.includes(o));
}

/**
 * The earliest bare closing form in `held` that is not quoted (see `quoted`), `passed` being the
 * answer text let through before it.
 */
function bareClose(passed: string, held: string): { at: number; length: number; markup: Markup } | undefined {
  for (let from = 0; from < held.length; ) {
    const found = firstClose(held.slice(from), BARE);
    if (!found) return undefined;
    const at = from + found.at;
    if (!quoted(passed + held.slice(0, at), found.markup)) return { ...found, at };
    from = at + Math.max(1, found.length);
  }
  return undefined;
}

/**
 * How many characters at the end of `text` may be the start of one of `forms` (or, with harmony's
 * control tokens, of a token still arriving): they are held back until the next piece says.
 */
function pendingTail(text: string, forms: string[], controls: boolean): number {
  let keep = 0;
  for (const form of forms) {
    for (let n = Math.min(form.length - 1, text.length); n > keep; n--) {
      if (text.endsWith(form.slice(0, n))) {
        keep = n;
        break;
      }
    }
  }
  if (controls) {
    const lt = text.lastIndexOf('<|');
    const tail = lt >= 0 ? text.slice(lt) : '';
    if (/^<\|[a-z_]*(?:\|>?)?$|^<\|(?:channel|start)\|>\w*$/.test(tail)) keep = Math.max(keep, tail.length);
  }
  return keep;
}

/** `text` without `markup`'s control tokens. */
function clean(text: string, markup: Markup | undefined): string {
  return markup?.controls ? text.replace(markup.controls, (t) => (t === '<|end|>' ? '\n' : '')) : text;
}

/**
 * Creates a splitter. `startsInside`: the model is known to open its reasoning in the prompt, so
 * everything up to the first closing tag is reasoning (a reply without one is all answer).
 */
export function createReasoningSplitter(startsInside = false): ReasoningSplitter {
  let state: 'start' | 'inside' | 'answer' = startsInside ? 'inside' : 'start';
  let markup: Markup | undefined; // the markup of the block, once known
  let held = ''; // text not yet decided
  let passed = ''; // answer text passed on so far (taken back on a bare closing tag)
  let seen: ReasoningSplitter['seen'] = 'none';
  let raw = false; // the answer is a harmony call written as text: its markup is what says it

  const piece = (answer = '', reasoning = '', retracted = false): SplitPiece => {
    const shown = raw ? answer : clean(answer, markup);
    passed += shown;
    return { answer: shown, reasoning: clean(reasoning, markup), retracted };
  };
  const closeIn = (text: string) => firstClose(text, markup ? [markup] : BARE);

  const step = (): SplitPiece => {
    if (state === 'start') {
      const lead = held.trimStart();
      if (lead === '') return piece();
      const opened = MARKUPS.find((m) => m.open.test(held));
      if (opened) {
        state = 'inside';
        seen = 'tagged';
        markup = opened;
        held = held.slice((opened.open.exec(held) as RegExpExecArray)[0].length);
        return step();
      }
      // a tag may be arriving
      if (MARKUPS.some((m) => m.openers.some((o) => o.startsWith(lead)))) return piece();
      state = 'answer';
    }
    if (state === 'inside') {
      const close = closeIn(held);
      if (!close) {
        if (seen === 'none') return piece(); // not known yet whether a closing tag will come: hold
        const keep = pendingTail(held, markup?.closers ?? [], markup?.controls !== undefined);
        const reasoning = held.slice(0, held.length - keep);
        held = held.slice(held.length - keep);
        return piece('', reasoning);
      }
      markup ??= close.markup;
      const reasoning = held.slice(0, close.at);
      held = held.slice(close.at + close.length).replace(/^\s+/, '');
      state = 'answer';
      const out = piece('', reasoning);
      raw = held.startsWith('<|channel|>commentary to=');
      if (seen === 'none') seen = 'bare';
      const rest = step();
      return { answer: rest.answer, reasoning: out.reasoning + rest.reasoning, retracted: rest.retracted };
    }
    // answer: watch for a bare closing tag
    const close = seen === 'none' && !raw ? bareClose(passed, held) : undefined;
    // harmony's call written as text, with no analysis before it: no closing tag, markup kept
    if (close && held.startsWith('<|channel|>commentary to=', close.at + close.length)) raw = true;
    else if (close) {
      markup = close.markup;
      const reasoning = clean(passed, markup) + held.slice(0, close.at);
      const retracted = passed !== '';
      passed = '';
      seen = 'bare';
      held = held.slice(close.at + close.length).replace(/^\s+/, '');
      const out = piece('', reasoning);
      const rest = step();
      return {
        answer: rest.answer,
        reasoning: out.reasoning + rest.reasoning,
        retracted: retracted || rest.retracted,
      };
    }
    const keep =
      seen === 'none'
        ? pendingTail(
            held,
            BARE.flatMap((m) => m.closers),
            true,
          )
        : pendingTail(held, [], markup?.controls !== undefined);
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
