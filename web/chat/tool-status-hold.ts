/**
 * How long a tool's status line ("Updating Migraine diary…") stays up after the tool ran.
 *
 * Tools take milliseconds, so without a hold the "Thinking…" of the next model call would
 * replace the line before anyone could read it. A line that names a card the panel does not know
 * yet (the agent created it a moment ago) is named by the card's id until its label arrives; the
 * line waits for the label a while longer, and once named by its label stays readable again.
 * Pure: the caller passes the clock (milliseconds, performance.now()) and what labels it knows.
 */
import type { TurnPhase } from './chat-types.js';

/** A tool's status line stays up at least this long (ms). */
export const TOOL_STATUS_MIN_MS = 800;
/** The longest a line naming a card by its id waits for the card's label (ms, from the tool). */
export const TOOL_LABEL_WAIT_MS = 5_000;

type ToolPhase = Extract<TurnPhase, { phase: 'tool' }>;

/** The last tool status: when it came, and when its card became known by label (if it did). */
export interface HeldTool {
  phase: ToolPhase;
  at: number;
  /** When the line could first name the card by label; undefined while it cannot. */
  namedAt?: number;
}

/** A held tool status for a `status` event that came at `now`. */
export function holdTool(phase: ToolPhase, now: number, known: (id: string) => boolean): HeldTool {
  return !phase.id || known(phase.id) ? { phase, at: now, namedAt: now } : { phase, at: now };
}

/**
 * The held tool once labels were learned at `now`: named from now when its card just became
 * known and the line is still waiting for it; unchanged otherwise (the same object).
 */
export function labelsLearned(held: HeldTool, now: number, known: (id: string) => boolean): HeldTool {
  if (held.namedAt !== undefined || !held.phase.id || !known(held.phase.id)) return held;
  if (now - held.at >= TOOL_LABEL_WAIT_MS) return held;
  return { ...held, namedAt: now };
}

/** When the hold ends (same clock as `at`): the time to look again. */
export function holdEndsAt(held: HeldTool): number {
  if (held.namedAt === undefined) return held.at + TOOL_LABEL_WAIT_MS;
  return Math.max(held.at, held.namedAt) + TOOL_STATUS_MIN_MS;
}

/**
 * The phase to show at `now`: the held tool instead of "thinking" while its hold lasts; any other
 * phase as it is.
 */
export function shownPhase(current: TurnPhase | null, held: HeldTool | null, now: number): TurnPhase | null {
  if (current?.phase === 'thinking' && held && now < holdEndsAt(held)) return held.phase;
  return current;
}
