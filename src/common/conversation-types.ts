/**
 * A saved chat conversation as the lists show it (`GET /api/conversations`,
 * `POST /api/conversations/search`; docs/API.md "Conversations"), typed once for the server
 * (src/chat/conversations/) and the chat panel. No Node imports.
 */

/** A conversation as the list shows it. Times are ISO. */
export interface ConversationSummary {
  id: string;
  title: string | null;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
}

/** A search hit: the summary plus the matching line when the hit was in a message. */
export interface SearchHit extends ConversationSummary {
  snippet?: string;
}
