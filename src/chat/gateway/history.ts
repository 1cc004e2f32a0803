/**
 * The transcript as the gateway must see it: assistant messages replayed with their tool calls,
 * tool replies carrying `name` and the same id as their call,
 * never an empty `tool_call_id`, arguments as canonical strings.
 */
import { GatewayError } from './gateway-error.js';
import type { AssistantMessage, ChatMessage, GatewayResult, GatewayToolCall, ToolMessage } from './types.js';

/**
 * The assistant history message for a result: its text (null when blank) and, when it was a
 * tool-call turn, every call with its (possibly generated) id and canonical argument string and
 * the reply's reasoning text (sent back only where the provider needs it); the reply's structured
 * reasoning items and thinking blocks when it had any.
 */
export function assistantMessageFor(result: GatewayResult): AssistantMessage {
  const msg: AssistantMessage = {
    role: 'assistant',
    content: result.text.trim() === '' ? null : result.text,
  };
  if (result.toolCalls.length > 0) {
    msg.tool_calls = result.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
      ...(c.extras ? { extras: c.extras } : {}),
    }));
    if (result.reasoning !== '') msg.reasoning_content = result.reasoning;
  }
  if (result.reasoningDetails && result.reasoningDetails.length > 0)
    msg.reasoning_details = result.reasoningDetails;
  if (result.thinkingBlocks && result.thinkingBlocks.length > 0) msg.thinking_blocks = result.thinkingBlocks;
  return msg;
}

/** The `role:tool` reply to `call`, with its id and function name. */
export function toolResultMessage(call: GatewayToolCall, content: string): ToolMessage {
  return { role: 'tool', tool_call_id: call.id, name: call.name, content };
}

/**
 * Checks the transcript before it is sent ("check that the history is consistent").
 * Throws GatewayError 'failed' / 'bad_history' (nothing sent) when an assistant tool call has
 * an empty id or name or repeats an id, when a tool reply has an empty `tool_call_id` or answers
 * no earlier call, or when a call is left without exactly one reply before the next
 * non-tool message. Returns the call names by id (used to fill `name`).
 */
export function checkHistory(messages: ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  const bad = (why: string) =>
    new GatewayError('failed', `inconsistent chat history: ${why}`, { reason: 'bad_history' });
  let open = new Set<string>();
  const closeOpen = () => {
    if (open.size > 0) throw bad(`tool call ${[...open].join(', ')} has no tool reply`);
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      const id = typeof m.tool_call_id === 'string' ? m.tool_call_id.trim() : '';
      if (id === '') throw bad('a tool reply has an empty tool_call_id');
      if (!names.has(id)) throw bad(`tool reply ${id} answers no earlier assistant tool call`);
      if (!open.delete(id)) throw bad(`tool call ${id} has more than one reply or its reply is out of place`);
      continue;
    }
    closeOpen();
    if (m.role === 'assistant' && m.tool_calls) {
      open = new Set();
      for (const tc of m.tool_calls) {
        const id = typeof tc.id === 'string' ? tc.id.trim() : '';
        const name = typeof tc.function?.name === 'string' ? tc.function.name.trim() : '';
        if (id === '') throw bad('an assistant tool call has an empty id');
        if (name === '') throw bad(`assistant tool call ${id} has no function name`);
        if (names.has(id)) throw bad(`tool call id ${id} is used twice`);
        names.set(id, name);
        open.add(id);
      }
    }
  }
  closeOpen();
  return names;
}
