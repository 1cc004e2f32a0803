/** Shapes of the chat routes' answers the widget reads (docs/API.md "Chat", "Conversations"). */

import type { SearchHit } from '../../src/common/conversation-types.js';

/** One stored message of a conversation. */
export interface StoredMessage {
  role: 'user' | 'assistant';
  content: string;
  createdAt?: string;
  hasVoice?: boolean;
  capped?: boolean;
  timedOut?: boolean;
  followupText?: string;
  /** What the turn changed (its change set), offered for Undo. */
  changeSet?: ChangeSetRef;
  /** The provider's content filter refused this message; it is never sent to the model again. */
  refused?: boolean;
}

/** A change set a reply names: `POST /api/changes/:id/undo` takes it back. */
export interface ChangeSetRef {
  id: number;
  summary: string;
}

/** An `approval` event: a destructive tool call waiting for the person (docs/CHAT-AGENT.md "Approvals"). */
export interface ApprovalAsk {
  id: string;
  conversationId: string | null;
  tool: string;
  summary: string;
  digest: string;
  expiresAt: string;
}

/**
 * A conversation in the lists (`GET /api/conversations`, `POST /api/conversations/search`); a
 * search hit may carry `snippet`, the matching line of the first matching message.
 */
export type ConversationSummary = SearchHit;

/** `GET /api/conversations/:id`. */
export interface Conversation extends ConversationSummary {
  messages: StoredMessage[];
}

/** The final answer of a turn (the `reply` event). */
export interface ReplyPayload {
  reply: string;
  speak?: string;
  followup?: string;
  capped?: boolean;
  timedOut?: boolean;
  changeSet?: ChangeSetRef;
}

/** What a `status` event says the agent is doing. */
export type TurnPhase = { phase: 'thinking' } | { phase: 'tool'; tool: string; id?: string };

/** One event of a turn's stream (docs/API.md "Streaming events"), `id` as a number when it had one. */
export type TurnEvent = { id: number | undefined } & (
  | { type: 'status'; data: TurnPhase }
  | { type: 'token'; data: { text: string } }
  | { type: 'reset'; data: Record<string, never> }
  | { type: 'approval'; data: ApprovalAsk }
  | { type: 'approval-resolved'; data: { id: string; decision: string } }
  | { type: 'reply'; data: ReplyPayload }
  | { type: 'error'; data: { error: string; status: number } }
  | { type: 'stopped'; data: Record<string, never> }
  | { type: 'done'; data: Record<string, never> }
);

/**
 * A message as the panel shows it: a stored one, or a note of this page only (an error's copy,
 * "Stopped"), which the server does not keep.
 */
export interface ShownMessage {
  /** Stable key for the list. */
  key: string;
  role: 'user' | 'assistant' | 'note';
  content: string;
  capped?: boolean;
  timedOut?: boolean;
  hasVoice?: boolean;
  /** Voice replies of this page: the plain text to read aloud. */
  speak?: string;
  /** Replies: what the turn changed, with Undo. */
  changeSet?: ChangeSetRef;
  /** That change set was undone from this page. */
  undone?: boolean;
  /** Notes: an error (shown as one) or a neutral remark. */
  tone?: 'error' | 'info';
  /** A message of the person's that the provider's content filter refused. */
  refused?: boolean;
}

/** The longest message the server takes, in UTF-16 code units. */
export { MAX_CHAT_MESSAGE_CHARS as MAX_MESSAGE_CHARS } from '../../src/common/limits.js';
