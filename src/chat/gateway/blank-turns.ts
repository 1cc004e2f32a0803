/**
 * Assistant turns that say nothing: no text (empty, only spaces, null) and no tool call. An API
 * client that kept an empty reply (one stopped before its first word, a model's empty answer)
 * sends one back in the transcript it posts, and strict providers refuse the whole
 * request for it: Anthropic (also behind its OpenAI-compatible endpoint, Bedrock and LiteLLM)
 * "messages.1: all messages must have non-empty content except for the optional final assistant
 * message", Gemini "contents.parts must not be empty". Every later message of that conversation
 * then failed the same way. Such a turn carries nothing for the model, so it is left out; the two
 * user turns around it then follow each other, which every provider takes except those that need
 * turns to alternate, and those are repaired by joining them (alternating-roles.ts).
 */
import type { ChatMessage } from './types.js';

/** True for an assistant turn with neither text nor a tool call. */
function saysNothing(m: ChatMessage): boolean {
  return (
    m.role === 'assistant' &&
    (m.tool_calls === undefined || m.tool_calls.length === 0) &&
    (m.content === null || m.content.trim() === '')
  );
}

/** `messages` without the assistant turns that say nothing (the same array when there are none). */
export function withoutBlankAssistantTurns(messages: ChatMessage[]): ChatMessage[] {
  return messages.some(saysNothing) ? messages.filter((m) => !saysNothing(m)) : messages;
}
