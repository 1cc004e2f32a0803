/**
 * A transcript for a model whose chat template has no system turn (Gemma; Mistral's older
 * templates, which demand strict user/assistant alternation; OpenAI's o1-mini): the system
 * messages' text goes at the head of the first user message, separated by a blank line, and the
 * system messages are left out. Every other message stays as it was.
 */

/** Wire messages (as built for the body) without system messages, their text moved into the first user message. */
export function withoutSystemTurn(messages: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => textOf(m.content))
    .filter((t) => t.trim() !== '')
    .join('\n\n');
  const rest = messages.filter((m) => m.role !== 'system');
  if (system === '') return rest;
  const first = rest.findIndex((m) => m.role === 'user');
  if (first < 0) return [{ role: 'user', content: system }, ...rest];
  const user = rest[first];
  const content = Array.isArray(user.content)
    ? [{ type: 'text', text: system }, ...user.content]
    : `${system}\n\n${textOf(user.content)}`;
  return rest.map((m, i) => (i === first ? { ...user, content } : m));
}

/** The text of a message's content: a string, or its text parts joined with blank lines. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p) => typeof p === 'object' && p !== null && p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n\n');
}
