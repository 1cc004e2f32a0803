/**
 * A strict validator of the chat-completions request shape, as strict as the strictest gateways
 * we know: every field typed, no unknown top-level field, tool-call ids of 9 letters and digits
 * (the one form every known provider accepts) and unique in the request, arguments that parse to
 * a JSON object, every call answered by exactly one `role:"tool"` message before the next
 * non-tool message, and no tool reply without its call. Returns the problems found ([] = valid).
 */

const TOP_LEVEL = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'stream',
  'stream_options',
  'max_tokens',
  'temperature',
]);

// biome-ignore lint/suspicious/noExplicitAny: validates arbitrary JSON
type Json = any;

function validContent(content: Json): boolean {
  if (typeof content === 'string') return true;
  return (
    Array.isArray(content) &&
    content.every((p: Json) => typeof p === 'object' && p !== null && typeof p.type === 'string')
  );
}

/** Validates one parsed request body. */
export function validateChatRequest(body: Json): string[] {
  const problems: string[] = [];
  const bad = (why: string) => problems.push(why);
  if (typeof body !== 'object' || body === null) return ['the body is not an object'];
  for (const key of Object.keys(body)) if (!TOP_LEVEL.has(key)) bad(`unknown top-level field ${key}`);
  if (typeof body.model !== 'string' || body.model === '') bad('model must be a non-empty string');
  if (typeof body.stream !== 'boolean' && body.stream !== undefined) bad('stream must be a boolean');
  if (body.stream_options !== undefined && body.stream !== true) bad('stream_options without stream');
  if (body.tool_choice !== undefined && !(Array.isArray(body.tools) && body.tools.length > 0))
    bad('tool_choice without tools');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return [...problems, 'messages must be a non-empty array'];
  const seen = new Set<string>();
  let open = new Map<string, number>(); // call id -> replies so far, for the latest assistant turn
  const closeOpen = (at: number) => {
    for (const [id, n] of open) if (n !== 1) bad(`tool call ${id} answered ${n} times before message ${at}`);
    open = new Map();
  };
  for (const [i, m] of (body.messages as Json[]).entries()) {
    check(m, i);
  }
  function check(m: Json, i: number): void {
    if (typeof m !== 'object' || m === null) {
      bad(`message ${i} is not an object`);
      return;
    }
    if (m.role === 'tool') {
      if (typeof m.tool_call_id !== 'string' || !open.has(m.tool_call_id)) {
        bad(`message ${i}: tool reply ${JSON.stringify(m.tool_call_id)} answers no open call`);
        return;
      }
      open.set(m.tool_call_id, (open.get(m.tool_call_id) ?? 0) + 1);
      if (typeof m.content !== 'string') bad(`message ${i}: tool content must be a string`);
      if (m.name !== undefined && typeof m.name !== 'string') bad(`message ${i}: name must be a string`);
      return;
    }
    closeOpen(i);
    if (m.role === 'system' || m.role === 'user') {
      if (!validContent(m.content)) bad(`message ${i}: bad content`);
      return;
    }
    if (m.role !== 'assistant') {
      bad(`message ${i}: unknown role ${m.role}`);
      return;
    }
    if (m.content !== null && typeof m.content !== 'string')
      bad(`message ${i}: assistant content must be a string or null`);
    if (m.tool_calls === undefined) return;
    if (!Array.isArray(m.tool_calls) || m.tool_calls.length === 0) {
      bad(`message ${i}: tool_calls must be a non-empty array`);
      return;
    }
    for (const tc of m.tool_calls) {
      if (typeof tc.id !== 'string' || !/^[A-Za-z0-9]{9}$/.test(tc.id))
        bad(`message ${i}: tool call id ${JSON.stringify(tc.id)} is not 9 letters and digits`);
      else if (seen.has(tc.id)) bad(`message ${i}: tool call id ${tc.id} used twice`);
      else {
        seen.add(tc.id);
        open.set(tc.id, 0);
      }
      if (tc.type !== 'function') bad(`message ${i}: tool call type must be "function"`);
      const fn = tc.function;
      if (typeof fn?.name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(fn.name))
        bad(`message ${i}: bad function name ${JSON.stringify(fn?.name)}`);
      if (typeof fn?.arguments !== 'string') bad(`message ${i}: arguments must be a string`);
      else {
        try {
          const args = JSON.parse(fn.arguments);
          if (typeof args !== 'object' || args === null || Array.isArray(args))
            bad(`message ${i}: arguments must be a JSON object`);
        } catch {
          bad(`message ${i}: arguments are not JSON: ${fn.arguments.slice(0, 60)}`);
        }
      }
    }
  }
  closeOpen(body.messages.length);
  return problems;
}
