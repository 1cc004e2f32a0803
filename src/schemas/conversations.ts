/**
 * Stored conversations and the legacy transcript (docs/API.md "Conversations", "Legacy chat
 * history"): the shapes of their bodies. What a message may hold (roles, sizes, counts) is
 * checked by src/chat/conversations/conversation-store.ts, which names each field it refuses.
 */
import { Type } from '@sinclair/typebox';

const Title = Type.Unknown({ description: `a string (cut to the title limit), or null for none` });
const Messages = Type.Unknown({ description: 'the messages: [{role: "user"|"assistant", content}]' });

/** `:id` of a conversation. */
export const ConversationParams = Type.Object({ id: Type.String({ minLength: 1 }) });

/** `POST /api/conversations`. */
export const NewConversation = Type.Object({
  title: Type.Optional(Title),
  messages: Type.Optional(Messages),
});

/** `PATCH /api/conversations/:id`: `title` is required (null clears it), checked by the route. */
export const RenameConversation = Type.Object({ title: Type.Optional(Title) });

/** `PUT /api/conversations/:id/messages` and `PUT /api/chat/history`. */
export const MessagesBody = Type.Object({ messages: Type.Optional(Messages) });

/** `POST /api/conversations/search`. */
export const SearchBody = Type.Object({
  q: Type.Optional(Type.Unknown({ description: 'the text to look for' })),
});

/** `/api/chat/turn/:conversationId`. */
export const TurnParams = Type.Object({ conversationId: Type.String({ minLength: 1 }) });

/** `GET /api/chat/turn/:conversationId?after=`: replay events after this number (or Last-Event-ID). */
export const TurnQuery = Type.Object({ after: Type.Optional(Type.String()) });
