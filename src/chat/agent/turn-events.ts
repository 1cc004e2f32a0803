/**
 * What a turn tells its listeners, in order: `status`, `token`, `reset`, `approval` and
 * `approval-resolved` (a destructive call waiting for the person), `reply`, `error`, `stopped`,
 * `done` (always last). The SSE adapter writes each as one
 * event; the buffered adapter keeps only the final payload.
 */
import type { ApprovalDecision, ApprovalEvent } from '../approvals/approval-hub.js';
import type { AppliedWrite } from './writes.js';

/** The final answer of a turn: the same object buffered mode returns (reply, speak?, followup?, capped?). */
export interface ReplyPayload {
  reply: string;
  /** Voice mode: the text to read aloud. */
  speak?: string;
  /** A suggested next message for the last card the turn created or edited (a follow-up chip). */
  followup?: string;
  /** The round-trip cap or the turn deadline stopped the loop; "keep going" resumes. */
  capped?: boolean;
  /** One step ran past its budget (CHAT_ITER_TIMEOUT_MS) and was abandoned. */
  timedOut?: boolean;
  /** What the turn's tools changed, as one change set the person can undo (absent: nothing written). */
  changeSet?: { id: number; summary: string };
}

/** One event of a turn. */
export type TurnEvent =
  | { type: 'status'; data: { phase: 'thinking' } | { phase: 'tool'; tool: string; id?: string } }
  | { type: 'token'; data: { text: string } }
  | { type: 'reset'; data: Record<string, never> }
  | { type: 'reply'; data: ReplyPayload }
  | { type: 'error'; data: { error: string; status: number } }
  | { type: 'stopped'; data: Record<string, never> }
  /** The turn waits for the person to approve a destructive tool call (docs/CHAT-AGENT.md "Approvals"). */
  | { type: 'approval'; data: ApprovalEvent }
  /** That request was answered (or expired, or the turn stopped); the turn goes on. */
  | { type: 'approval-resolved'; data: { id: string; decision: ApprovalDecision } }
  | { type: 'done'; data: Record<string, never> };

/** Why a turn ended: a value, not a string match on copy (STYLE "The turn as a job"). */
export type TurnEndReason = 'answered' | 'capped' | 'iter_timeout' | 'deadline' | 'stopped' | 'gateway_error';

/** What runTurn returns. `status` is the HTTP status buffered mode answers with. */
export interface TurnResult {
  reason: TurnEndReason;
  status: number;
  /** The reply (answered, capped, timed out) — absent for stopped and gateway errors. */
  payload?: ReplyPayload;
  /** The classified failure copy (gateway errors). */
  error?: string;
  /** Gateway round-trips made. */
  roundTrips: number;
  /** What the turn's tools changed, in order (set by runTurn). */
  writes?: AppliedWrite[];
  /**
   * The provider's content filter refused the request's messages at the first round-trip, before
   * any tool ran: the new message itself was refused, and sending it again is refused the same way.
   */
  refusedMessage?: boolean;
}
