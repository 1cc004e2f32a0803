/**
 * Which choices of a streamed reply are the reply. We never ask for several choices, yet some
 * servers and proxies send them (`n` set by a proxy or a server default): then choice 0 alone is
 * the reply, and the text and calls of the others are not ours to show or run. Other servers
 * number the choice of each chunk anew (a counter that runs 196, 197, 198 ...): there every
 * choice is the reply. The two are told apart by what the numbers do:
 * - a first chunk without choice 0 (and with one index only) is a renumbering server: every
 *   choice is the reply;
 * - otherwise choice 0 (else the lowest index of the first chunk) is the reply, and another index
 *   is held back until the stream shows which it is: several choices when one chunk carries
 *   several indices, an index comes back after another one, or the reply's choice had already
 *   finished; a renumbering counter when the stream ends without any of these, and then the held
 *   pieces are the reply's, in the order they came.
 */
import type { NormalChoice } from './chunk-normaliser.js';

/** Sorts the choices of each chunk into the reply's and the held ones. */
export interface ChoicePicker {
  /** The choices of one chunk that are the reply's now; others are held or dropped. */
  route(choices: NormalChoice[]): NormalChoice[];
  /** The end of the stream: held pieces that turned out to be the reply's, in arrival order. */
  release(): NormalChoice[];
  /** True when held pieces include a finish_reason (and may still turn out to be the reply's). */
  heldFinished(): boolean;
  /** True once the stream showed several choices. */
  readonly several: boolean;
}

/** Creates a picker for one stream. */
export function createChoicePicker(): ChoicePicker {
  let numbering: 'unknown' | 'renumbered' | 'numbered' = 'unknown';
  let primary = 0;
  let several = false;
  let primaryFinished = false;
  let last: number | undefined;
  const seen = new Set<number>();
  let held: NormalChoice[] = [];

  const decide = (indices: Set<number>) => {
    if (indices.has(0)) numbering = 'numbered';
    else if (indices.size > 1) {
      numbering = 'numbered';
      primary = Math.min(...indices);
    } else numbering = 'renumbered';
  };

  return {
    get several() {
      return several;
    },
    route(choices) {
      if (choices.length === 0) return [];
      const indices = new Set(choices.map((c) => c.index));
      if (numbering === 'unknown') decide(indices);
      if (numbering === 'renumbered') return choices;
      if (indices.size > 1) several = true;
      const now: NormalChoice[] = [];
      for (const ch of choices) {
        const i = ch.index;
        const back = seen.has(i) && last !== i;
        if (back || (i !== primary && primaryFinished)) several = true;
        if (i === primary) {
          now.push(ch);
          if (ch.finish !== null) primaryFinished = true;
        } else if (!several) held.push(ch);
        seen.add(i);
        last = i;
      }
      if (several) held = [];
      return now;
    },
    release() {
      const out = several ? [] : held;
      held = [];
      return out;
    },
    heldFinished: () => !several && held.some((c) => c.finish !== null),
  };
}
