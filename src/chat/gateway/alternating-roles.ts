/**
 * A transcript for a provider that takes user and assistant turns only in strict alternation
 * after the system messages (DeepSeek's reasoner, Perplexity, Anthropic behind some proxies, chat
 * templates of Mistral and Llama 2). A conversation keeps a question whose turn got no answer, so
 * two user messages can follow each other; a conversation's window can begin with an answer whose
 * question fell outside it. Here each run of user messages becomes one message (their texts
 * joined by a blank line, or their parts in order), so does each run of assistant messages that
 * call no tools, and an assistant message before the first user message is left out. Tool calls
 * and tool results are never joined or moved.
 */

type WireMessage = Record<string, unknown>;

/** True for an assistant message that calls tools (its calls and their results keep their places). */
function callsTools(m: WireMessage): boolean {
  return Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
}

/** The role a message takes part in alternation with, or undefined when it does not (system, tool, a tool caller). */
function turnRole(m: WireMessage): 'user' | 'assistant' | undefined {
  if (m.role === 'user') return 'user';
  if (m.role === 'assistant' && !callsTools(m)) return 'assistant';
  return undefined;
}

/** A content as parts, for joining with parts: text becomes one text part, nothing none. */
function asParts(content: unknown): unknown[] {
  if (Array.isArray(content)) return content;
  if (typeof content === 'string' && content !== '') return [{ type: 'text', text: content }];
  return [];
}

/** Two contents as one: texts joined by a blank line; parts (either side) one after the other. */
function joinContent(a: unknown, b: unknown): unknown {
  if (a === null || a === undefined || a === '') return b;
  if (b === null || b === undefined || b === '') return a;
  if (typeof a === 'string' && typeof b === 'string') return `${a}\n\n${b}`;
  return [...asParts(a), ...asParts(b)];
}

/** True when `messages` (wire messages) has two turns of one role in a row, or an answer before the first question. */
export function breaksAlternation(messages: readonly WireMessage[]): boolean {
  let previous: 'user' | 'assistant' | undefined;
  let seenUser = false;
  for (const m of messages) {
    const role = turnRole(m);
    if (role === 'assistant' && !seenUser) return true;
    if (role !== undefined && role === previous) return true;
    if (m.role === 'user') seenUser = true;
    previous = role ?? (m.role === 'system' ? previous : undefined);
  }
  return false;
}

/** `messages` (wire messages, as built for the body) in strict user/assistant alternation (see above). */
export function alternatingRoles(messages: readonly WireMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  let seenUser = false;
  for (const m of messages) {
    const role = turnRole(m);
    // an answer whose question is not in the transcript: nothing to alternate with
    if (role === 'assistant' && !seenUser) continue;
    if (m.role === 'user') seenUser = true;
    const last = out[out.length - 1];
    if (role !== undefined && last !== undefined && turnRole(last) === role) {
      out[out.length - 1] = { ...last, content: joinContent(last.content, m.content) };
      continue;
    }
    out.push(m);
  }
  return out;
}
