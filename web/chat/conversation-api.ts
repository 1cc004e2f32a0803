/**
 * The chat widget's calls to the conversation, feedback and status routes (docs/API.md
 * "Conversations", "Legacy chat history", "Feedback", `GET /api/chat/status`). Thin: each returns
 * the answer's useful part and throws ApiError (web/lib/api.ts) with the server's sentence.
 */
import { api } from '../lib/api.js';
import type { Conversation, ConversationSummary } from './chat-types.js';

const path = (id: string) => `/api/conversations/${encodeURIComponent(id)}`;

/** Whether the server has a chat endpoint configured. */
export async function chatConfigured(): Promise<boolean> {
  return (await api<{ configured: boolean }>('/api/chat/status')).configured === true;
}

/** Every conversation, most recently active first. */
export async function listConversations(): Promise<ConversationSummary[]> {
  return (await api<{ conversations: ConversationSummary[] }>('/api/conversations')).conversations;
}

/** Conversations whose title or messages contain `q` (any case, taken literally), with snippets. */
export async function searchConversations(q: string, signal?: AbortSignal): Promise<ConversationSummary[]> {
  return (
    await api<{ conversations: ConversationSummary[] }>('/api/conversations/search', { json: { q }, signal })
  ).conversations;
}

/** One conversation with its messages, oldest first. @throws ApiError 404 CONVERSATION_NOT_FOUND. */
export async function getConversation(id: string): Promise<Conversation> {
  return (await api<{ conversation: Conversation }>(path(id))).conversation;
}

/** A new, empty, untitled conversation (the server names it after its first answer). */
export async function createConversation(): Promise<Conversation> {
  return (await api<{ conversation: Conversation }>('/api/conversations', { json: {} })).conversation;
}

/** Renames a conversation; a blank title clears it. */
export async function renameConversation(id: string, title: string): Promise<Conversation> {
  return (await api<{ conversation: Conversation }>(path(id), { method: 'PATCH', json: { title } }))
    .conversation;
}

/** Deletes a conversation (the server stops a turn running in it first). */
export async function deleteConversation(id: string): Promise<void> {
  await api(path(id), { method: 'DELETE' });
}

/** Moves the legacy transcript into a conversation ("Earlier chat"); null when there was none. */
export async function foldLegacyHistory(): Promise<string | null> {
  return (await api<{ conversationId: string | null }>('/api/chat/history/fold', { method: 'POST' }))
    .conversationId;
}

/** Sends a note to the anonymous feedback log. */
export async function sendFeedback(kind: 'bug' | 'feature', intent: string): Promise<void> {
  await api('/api/feedback', { json: { kind, intent, context: 'in-app feedback form' } });
}

/** Card labels by id (`GET /api/settings/cards`), for the status line. */
export async function cardLabels(): Promise<Map<string, string>> {
  const { cards } = await api<{ cards: { id: string; label: string }[] }>('/api/settings/cards');
  return new Map(cards.map((c) => [c.id, c.label]));
}
