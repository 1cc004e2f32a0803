/**
 * The cache mark that moves with the conversation (docs/CHAT-AGENT.md "Prompt caching"). The
 * system prompt's two marks cache the prompt; without more, every round-trip of a turn sends the
 * tool results of the earlier ones again uncached, and with many cards those dwarf the prompt.
 * So the newest message is marked too, and so is the message that was newest in the previous
 * round-trip (the one just before the newest assistant message): this request writes a cache
 * entry ending at its last message, and reads the one the previous request wrote, however many
 * blocks lie between them. Marks are never put on assistant messages (their content is a string
 * or null) or on empty text (providers refuse an empty marked block).
 */
import { MAX_CACHE_MARKS } from '../../limits.js';

/** A message as it goes on the wire. */
type WireMessage = Record<string, unknown>;

const MARK = { type: 'ephemeral' } as const;

function isMarked(part: unknown): boolean {
  return typeof part === 'object' && part !== null && 'cache_control' in part;
}

/** The marks in the system messages (the prompt's own breakpoints). */
function systemMarks(messages: readonly WireMessage[]): number {
  let n = 0;
  for (const m of messages) {
    if (m.role === 'system' && Array.isArray(m.content)) n += m.content.filter(isMarked).length;
  }
  return n;
}

/** The message with its marks removed (marks a client put on its own parts are not ours to send). */
function unmarked(m: WireMessage): WireMessage {
  if (m.role === 'system' || !Array.isArray(m.content) || !m.content.some(isMarked)) return m;
  const content = m.content.map((p) => {
    if (!isMarked(p)) return p;
    const { cache_control: _dropped, ...rest } = p as Record<string, unknown>;
    return rest;
  });
  return { ...m, content };
}

/** The message with a mark on its last part (a string content becomes one text part); undefined when it cannot carry one. */
function marked(m: WireMessage): WireMessage | undefined {
  if (m.role !== 'user' && m.role !== 'tool') return undefined;
  if (typeof m.content === 'string') {
    return m.content === ''
      ? undefined
      : { ...m, content: [{ type: 'text', text: m.content, cache_control: MARK }] };
  }
  if (!Array.isArray(m.content) || m.content.length === 0) return undefined;
  const last = m.content.at(-1) as Record<string, unknown>;
  if (last.type === 'text' && last.text === '') return undefined;
  return { ...m, content: [...m.content.slice(0, -1), { ...last, cache_control: MARK }] };
}

/** Indexes to mark, most wanted first: the newest message, then the one before the newest assistant message. */
function targets(messages: readonly WireMessage[]): number[] {
  const out = [messages.length - 1];
  let assistant = messages.length - 1;
  while (assistant >= 0 && messages[assistant].role !== 'assistant') assistant--;
  if (assistant > 0 && assistant - 1 !== out[0]) out.push(assistant - 1);
  return out;
}

/**
 * Input: the wire messages of a request whose system prompt carries marks. Output: the same
 * messages with every mark outside the system messages removed, then the newest message and the
 * previous round-trip's newest marked, as far as MAX_CACHE_MARKS allows after the system's own.
 * Pure: the input is not changed.
 */
export function withMovingMarks(messages: readonly WireMessage[]): WireMessage[] {
  const out = messages.map(unmarked);
  let room = MAX_CACHE_MARKS - systemMarks(out);
  for (const i of targets(out)) {
    if (room <= 0 || i < 0) break;
    const m = marked(out[i]);
    if (!m) continue;
    out[i] = m;
    room--;
  }
  return out;
}

/** True when a system message of `messages` carries a mark: the caller asked for caching. */
export function wantsCaching(messages: readonly WireMessage[]): boolean {
  return systemMarks(messages) > 0;
}
