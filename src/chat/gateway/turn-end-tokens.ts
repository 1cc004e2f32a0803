/**
 * A model's end-of-turn token left in the answer text. A server whose stop tokens do not match the
 * model's template (LM Studio, Ollama with a custom Modelfile, MLX and llama.cpp servers, vLLM
 * with another chat template) passes the token on as text, "…today?<|im_end|>", and often the
 * next turn the model went on to write ("<|im_start|>user …"). The token ends the answer: it and
 * an invented next turn are no part of it.
 *
 * Streamed, nothing of a token may reach the person: the end of each piece that could be the start
 * of one is held until the next piece, and from a token on everything is held until the reply
 * ends. Then what followed the token is dropped when it is nothing, more such tokens, or a new
 * turn; anything else (prose that goes on: the token was text) is passed on after all. A token in
 * a code span (an odd number of backticks before it) is text, and so is `</s>` after an `<s>`
 * (HTML strikethrough).
 */

/** Tokens that end a model's turn (ChatML, Llama 3, Mistral, Gemma, Qwen, Phi, gpt-oss, DeepSeek, Cohere, Idefics). */
const END_TOKENS = [
  '<|im_end|>',
  '<|eot_id|>',
  '<|eom_id|>',
  '<|end_of_text|>',
  '<|endoftext|>',
  '<|end|>',
  '<|return|>',
  '</s>',
  '<end_of_turn>',
  '<eos>',
  '<|EOT|>',
  '<｜end▁of▁sentence｜>',
  '<|END_OF_TURN_TOKEN|>',
  '<end_of_utterance>',
  // Mistral's end of a call list, left behind with no list before it (a server that took the
  // calls out, or none were written): markup, never words
  '[/TOOL_CALLS]',
];

/** Tokens that open a turn: written into the answer, they start a turn the model invented. */
const START_TOKENS = [
  '<|im_start|>',
  '<|start_header_id|>',
  '<start_of_turn>',
  '[INST]',
  '<|user|>',
  '<|system|>',
  '<｜User｜>',
  '<|START_OF_TURN_TOKEN|>',
];

const TOKENS = [...END_TOKENS, ...START_TOKENS];

/** A token's own opening form: after it, the token closes markup the answer wrote (`<s>…</s>`). */
const OPENERS: Record<string, string> = { '</s>': '<s>' };

/** True when the token at `at` of `text` is written as text: in a code span, or closing its own opening form. */
function quoted(text: string, at: number, token: string): boolean {
  const before = text.slice(0, at);
  const ticks = before.match(/`/g)?.length ?? 0;
  const opener = OPENERS[token];
  return ticks % 2 === 1 || (opener !== undefined && before.includes(opener));
}

/** Where the first token of `text` that is not quoted starts (searching from `from`), or -1. */
function firstToken(text: string, from: number): number {
  let best = -1;
  for (const token of TOKENS) {
    let at = text.indexOf(token, from);
    while (at >= 0 && quoted(text, at, token)) at = text.indexOf(token, at + 1);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

/** How many characters at the end of `text` could be the start of a token still arriving. */
function partialTokenLength(text: string): number {
  let longest = 0;
  for (const token of TOKENS) {
    for (let n = Math.min(token.length - 1, text.length); n > longest; n--) {
      if (text.endsWith(token.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}

/**
 * True when `held` (the text from a token on) is only the end of the turn: tokens, whitespace, or
 * a turn the model invented after them.
 */
function onlyTurnEnd(held: string): boolean {
  let rest = held;
  for (;;) {
    rest = rest.trimStart();
    if (rest === '' || START_TOKENS.some((t) => rest.startsWith(t))) return true;
    const token = END_TOKENS.find((t) => rest.startsWith(t));
    if (token === undefined) return false;
    rest = rest.slice(token.length);
  }
}

/** A streaming filter of answer text that keeps end-of-turn tokens and what follows them out. */
export interface TurnEndCutter {
  /** Takes the next piece of answer text; returns the text to pass on now. */
  push(text: string): string;
  /** The reply ended: returns the text held back that is answer after all ('' when it was the turn's end). */
  end(): string;
  /** Forgets the answer so far (it turned out to be reasoning): quoting is judged afresh. */
  reset(): void;
  /** The token the answer ended with, once one was dropped. */
  readonly dropped: string | undefined;
}

/** Creates a cutter for one reply's answer text. */
export function createTurnEndCutter(): TurnEndCutter {
  let passed = ''; // answer text passed on so far
  let held = ''; // a possible token's start, or everything from a token on
  let cut = false;
  let dropped: string | undefined;
  return {
    push(text: string): string {
      if (text === '') return '';
      if (cut) {
        held += text;
        return '';
      }
      const all = passed + held + text;
      const at = firstToken(all, passed.length);
      let out: string;
      if (at >= 0) {
        cut = true;
        out = all.slice(passed.length, at);
        held = all.slice(at);
      } else {
        const tail = all.slice(passed.length);
        const keep = partialTokenLength(tail);
        out = tail.slice(0, tail.length - keep);
        held = tail.slice(tail.length - keep);
      }
      passed += out;
      return out;
    },
    end(): string {
      const rest = held;
      held = '';
      if (cut && onlyTurnEnd(rest)) {
        dropped = TOKENS.find((t) => rest.startsWith(t));
        return '';
      }
      passed += rest;
      return rest;
    },
    reset(): void {
      passed = '';
      held = '';
      cut = false;
    },
    get dropped() {
      return dropped;
    },
  };
}

/**
 * `text` without an end-of-turn token it ends with (and a turn invented after it, and the white
 * space before the token), read whole.
 */
export function withoutTurnEnd(text: string): { text: string; dropped?: string } {
  const cutter = createTurnEndCutter();
  const kept = cutter.push(text) + cutter.end();
  return cutter.dropped === undefined ? { text: kept } : { text: kept.trimEnd(), dropped: cutter.dropped };
}
