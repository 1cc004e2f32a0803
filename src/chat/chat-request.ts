/**
 * The body of `POST /api/chat` (`{messages, voiceMode?, viewedCardId?,
 * stream?, conversationId?}`), checked field by field: a bad body is a 400 naming the field.
 */
import { showsSomething } from '../common/control-characters.js';
import { overLimit } from '../common/graphemes.js';
import { badRequest } from '../errors.js';
import { MAX_CHAT_MESSAGE_CHARS } from '../limits.js';
import type { ChatMessage } from './gateway/types.js';

/**
 * One message of the client's transcript: a user or assistant turn, `refused` when the provider's
 * content filter refused it (kept in a stored conversation with the mark, never sent to the model).
 */
export type TranscriptMessage = (
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string }
) & { refused?: true };

/** A checked chat request. Messages are the client's transcript (user and assistant turns). */
export interface ChatRequest {
  messages: TranscriptMessage[];
  voiceMode: boolean;
  viewedCardId?: string;
  stream: boolean;
  conversationId?: string;
}

/** What a turn runs on: the request with the messages that go to the model. */
export type TurnRequest = Omit<ChatRequest, 'messages'> & { messages: ChatMessage[] };

/** `req` as a turn runs it: the messages not marked refused, without the mark. */
export function turnRequest(req: ChatRequest): TurnRequest {
  const messages = req.messages.filter((m) => !m.refused).map(({ role, content }) => ({ role, content }));
  return { ...req, messages };
}

/**
 * Checks a request body.
 * @throws 400 when `messages` is missing, empty, or holds anything but `{role: "user" |
 *   "assistant", content: string}` (the last one must be from the user, and show something: not
 *   empty, spaces or invisible characters only), or a flag has the wrong type; a content over
 *   MAX_CHAT_MESSAGE_CHARS user-perceived characters (overLimit) is 400 too, and so is a
 *   `refused` that is not true or false, or the new (last) message marked refused: it would not
 *   be sent to the model, which would then answer an earlier message or nothing.
 */
export function parseChatRequest(body: unknown): ChatRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('the body must be a JSON object with messages', [
      { path: '', message: 'must be an object' },
    ]);
  }
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b.messages) || b.messages.length === 0) {
    throw badRequest('messages is required: a non-empty array of {role, content}', [
      { path: 'messages', message: 'must be a non-empty array' },
    ]);
  }
  const messages = b.messages.map((m, i) => parseMessage(m, i));
  checkNewMessage(messages);
  for (const key of ['voiceMode', 'stream'] as const) {
    if (b[key] !== undefined && typeof b[key] !== 'boolean') {
      throw badRequest(`${key} must be true or false`, [{ path: key, message: 'must be a boolean' }]);
    }
  }
  for (const key of ['viewedCardId', 'conversationId'] as const) {
    if (b[key] !== undefined && b[key] !== null && typeof b[key] !== 'string') {
      throw badRequest(`${key} must be a string`, [{ path: key, message: 'must be a string' }]);
    }
  }
  return {
    messages,
    voiceMode: b.voiceMode === true,
    stream: b.stream === true,
    viewedCardId: typeof b.viewedCardId === 'string' ? b.viewedCardId : undefined,
    conversationId: typeof b.conversationId === 'string' ? b.conversationId : undefined,
  };
}

/** One message of the transcript, message `i`. @throws 400 naming `messages[i].<field>`. */
function parseMessage(m: unknown, i: number): TranscriptMessage {
  const msg = m as Record<string, unknown> | null;
  if (msg && typeof msg === 'object' && msg.refused !== undefined) {
    if (typeof msg.refused !== 'boolean')
      throw badRequest(`messages[${i}].refused must be true or false`, [
        { path: `messages[${i}].refused`, message: 'must be true or false' },
      ]);
  }
  if (!msg || typeof msg !== 'object' || (msg.role !== 'user' && msg.role !== 'assistant')) {
    throw badRequest(`messages[${i}].role must be "user" or "assistant"`, [
      { path: `messages[${i}].role`, message: 'must be user or assistant' },
    ]);
  }
  if (typeof msg.content !== 'string') {
    throw badRequest(`messages[${i}].content must be a string`, [
      { path: `messages[${i}].content`, message: 'must be a string' },
    ]);
  }
  // characters as a person counts them: a message of emoji or of Chinese, Japanese or Korean
  // text written with characters outside the BMP takes two UTF-16 units a character (a family
  // emoji eleven), and was refused at half the length the limit says
  const over = overLimit(msg.content, MAX_CHAT_MESSAGE_CHARS);
  if (over !== null) {
    const long = over === 'too long' ? 'is too long' : `is ${over} characters long`;
    throw badRequest(`messages[${i}].content ${long}; at most ${MAX_CHAT_MESSAGE_CHARS} characters`, [
      { path: `messages[${i}].content`, message: `must be at most ${MAX_CHAT_MESSAGE_CHARS} characters` },
    ]);
  }
  const mark = msg.refused === true ? { refused: true as const } : {};
  return msg.role === 'user'
    ? { role: 'user' as const, content: msg.content, ...mark }
    : { role: 'assistant' as const, content: msg.content, ...mark };
}

/**
 * The new (last) message: from the user, showing something, not marked refused (it would not be
 * sent to the model, which would then answer an earlier message or nothing).
 */
function checkNewMessage(messages: TranscriptMessage[]): void {
  const last = messages.length - 1;
  if (messages[last].role !== 'user') {
    throw badRequest('the last message must be from the user', [
      { path: `messages[${last}].role`, message: 'must be user' },
    ]);
  }
  if (messages[last].refused) {
    throw badRequest(
      `messages[${last}].refused: the new message is marked refused, and a refused message is never sent to the model; send it without refused`,
      [{ path: `messages[${last}].refused`, message: 'must not be true on the new message' }],
    );
  }
  // a question of spaces or invisible characters would cost a model call and say nothing
  const said = messages[last].content;
  if (typeof said === 'string' && !showsSomething(said)) {
    throw badRequest(`messages[${last}].content is empty: write what to ask or tell`, [
      { path: `messages[${last}].content`, message: 'must not be empty' },
    ]);
  }
}
