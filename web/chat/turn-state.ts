/**
 * The turn being watched, as a value the events change: the streamed text (`token` appends, `reset` empties), what the agent is
 * doing (`status`), the outcome (`reply`, `error`, `stopped`) and whether `done` came. Event ids
 * only grow (docs/API.md "Streaming events"), so an event whose id is not above the last one
 * applied was already shown (a replay overlapping the live stream) and is ignored.
 */
import type { TurnSnapshot } from './chat-storage.js';
import type { ApprovalAsk, ReplyPayload, TurnEvent, TurnPhase } from './chat-types.js';

export type TurnOutcome =
  | { kind: 'reply'; payload: ReplyPayload }
  | { kind: 'error'; message: string; status: number }
  | { kind: 'stopped' };

export class TurnState {
  /** Id of the last event applied (undefined before the first, or after a restore without one). */
  lastEventId: number | undefined;
  text = '';
  phase: TurnPhase | null = { phase: 'thinking' };
  outcome: TurnOutcome | null = null;
  /** A destructive tool call waiting for the person's Approve or Decline. */
  approval: ApprovalAsk | null = null;
  done = false;
  /** The message this page sent to start the turn (undefined for a turn attached to). */
  sentText: string | undefined;
  /** How many stored messages the conversation had before that message. */
  storedBefore = 0;

  constructor(
    readonly conversationId: string,
    /** A voice turn: the reply's `speak` is read aloud. */
    readonly voice: boolean,
  ) {}

  /** A turn picked up from a snapshot saved before a reload. */
  static restore(s: TurnSnapshot): TurnState {
    const t = new TurnState(s.conversationId, s.voice);
    t.lastEventId = s.lastEventId;
    t.text = s.text;
    return t;
  }

  /** Applies one event. @returns false when it was already applied (or the turn is done). */
  apply(e: TurnEvent): boolean {
    if (this.done) return false;
    if (e.id !== undefined) {
      if (this.lastEventId !== undefined && e.id <= this.lastEventId) return false;
      this.lastEventId = e.id;
    }
    switch (e.type) {
      case 'status':
        this.phase = e.data;
        break;
      case 'token':
        if (typeof e.data.text === 'string') this.text += e.data.text;
        break;
      case 'reset':
        this.text = '';
        break;
      case 'approval':
        this.approval = e.data;
        break;
      case 'approval-resolved':
        if (this.approval?.id === e.data.id) this.approval = null;
        break;
      case 'reply':
        this.outcome = { kind: 'reply', payload: e.data };
        this.phase = null;
        break;
      case 'error':
        this.outcome = {
          kind: 'error',
          message: typeof e.data.error === 'string' ? e.data.error : 'The chat turn failed.',
          status: e.data.status,
        };
        this.phase = null;
        break;
      case 'stopped':
        this.outcome = { kind: 'stopped' };
        this.phase = null;
        break;
      case 'done':
        this.done = true;
        this.phase = null;
        break;
    }
    return true;
  }

  /** What to save so that a reload can reattach after the last event applied. */
  snapshot(): TurnSnapshot {
    return {
      conversationId: this.conversationId,
      lastEventId: this.lastEventId,
      text: this.text,
      voice: this.voice,
    };
  }
}
