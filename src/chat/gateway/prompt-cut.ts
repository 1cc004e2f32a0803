/**
 * Seeing, from a reply's usage, that the server read only part of the prompt. Ollama (and other
 * local servers) cut a prompt longer than the context the model was loaded with and answer 200
 * as if nothing happened: it keeps a few tokens of the start and the end, drops the middle (often
 * the system prompt and the tools) and reports the count it kept as `prompt_tokens` /
 * `prompt_eval_count`. The count kept sits at the window's edge: the context length itself (4096,
 * 4095), or half of it plus two (2050) where the server keeps half the window for the answer.
 *
 * The request's size is known here only in characters, and a token of text or JSON is about four
 * of them: a count read clearly below that estimate, and at a window's edge, is a cut prompt. The
 * edge is what tells it apart: a count that is low for another reason (a server counting only the
 * tokens its cache did not hold, an estimate off for unusual text) lands anywhere, not on 4096.
 */
import { atWindowEdge } from './context-window.js';
import type { ChatMessage, GatewayUsage, ToolDefinition } from './types.js';

/** What a cut prompt looked like: tokens read, and tokens sent as a typical estimate. */
export interface PromptCut {
  /** Input tokens the server says it read. */
  readTokens: number;
  /** Tokens sent, estimated at 4 characters a token. */
  sentTokens: number;
  /** The system prompt and the tools alone are more than the server read: its context cannot hold them. */
  instructionsCut: boolean;
}

/** Characters a token typically is, in text and in JSON (tool definitions, arguments). */
const CHARS_PER_TOKEN = 4;
/** A count read below this share of the estimate of the tokens sent is a part of the prompt. */
const READ_SHARE = 0.9;

/** Characters of what a request sends: messages and tool definitions, as JSON. */
function requestChars(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): number {
  return JSON.stringify(messages).length + (tools.length > 0 ? JSON.stringify(tools).length : 0);
}

/**
 * The prompt the server cut, or undefined when the usage shows it read all of it (or says
 * nothing). `messages` is the whole request (system prompt first), `instructions` the system
 * prompt alone; tool definitions count with the instructions. Cache hits and writes count as read.
 */
export function promptCut(
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[],
  instructions: ChatMessage,
  usage: GatewayUsage | null,
): PromptCut | undefined {
  if (!usage || usage.promptTokens <= 0) return undefined;
  const read = usage.promptTokens;
  // servers that count cache hits or writes apart from the input: what they served was read too
  const readAtMost = read + (usage.cachedTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
  const sent = requestChars(messages, tools) / CHARS_PER_TOKEN;
  if (readAtMost >= sent * READ_SHARE || !atWindowEdge(read)) return undefined;
  return {
    readTokens: read,
    sentTokens: Math.round(sent),
    instructionsCut: requestChars([instructions], tools) / CHARS_PER_TOKEN > read,
  };
}
