/**
 * The chat panel's state as signals: whether chat is configured, the conversation shown
 * and its messages, the conversation list, and a passing notice. The turn being streamed lives in
 * turn-runner.ts; the actions that change this state are in conversation-actions.ts.
 */
import { signal } from '@preact/signals';
import type { Conversation, ConversationSummary, ShownMessage, StoredMessage } from './chat-types.js';

/** `GET /api/chat/status`: null until known. */
export const configured = signal<boolean | null>(null);

/** The conversation shown. `id` null: a new one, created on the first message. */
export interface CurrentConversation {
  id: string | null;
  title: string | null;
  messages: ShownMessage[];
  /** Loading its messages. */
  loading: boolean;
}

export const current = signal<CurrentConversation>({ id: null, title: null, messages: [], loading: false });

/** The drawer's list (null until loaded). */
export const conversations = signal<ConversationSummary[] | null>(null);

/** A short message about something that went wrong outside the transcript (a failed rename). */
export const notice = signal<string | null>(null);

/** The text in the composer (a message that did not reach the server is put back here). */
export const draft = signal('');

let seq = 0;

/** A fresh list key. */
export function nextKey(): string {
  seq += 1;
  return `m${seq}`;
}

/** A stored message as shown. */
export function toShown(m: StoredMessage): ShownMessage {
  return {
    key: nextKey(),
    role: m.role,
    content: m.content,
    capped: m.capped,
    timedOut: m.timedOut,
    hasVoice: m.hasVoice,
    changeSet: m.changeSet,
    refused: m.refused,
  };
}

/** Shows `conv` with its stored messages (replacing what was shown). */
export function showConversation(conv: Conversation): void {
  current.value = { id: conv.id, title: conv.title, messages: conv.messages.map(toShown), loading: false };
}

/** Adds a message to the conversation shown, if it is still `conversationId`. */
export function appendShown(conversationId: string, m: ShownMessage): void {
  const c = current.value;
  if (c.id !== conversationId) return;
  current.value = { ...c, messages: [...c.messages, m] };
}

/** Updates the title shown and in the list. */
export function retitle(id: string, title: string | null): void {
  if (current.value.id === id) current.value = { ...current.value, title };
  if (conversations.value)
    conversations.value = conversations.value.map((c) => (c.id === id ? { ...c, title } : c));
}
