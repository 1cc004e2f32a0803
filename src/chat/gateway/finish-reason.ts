/**
 * The finish reason in OpenAI's words. Gateways that pass another provider's reply through
 * unchanged send that provider's spelling: Gemini's upper-case `STOP` / `MAX_TOKENS` / `SAFETY`,
 * Anthropic's and Bedrock's `end_turn` / `max_tokens` / `tool_use` / `refusal` /
 * `model_context_window_exceeded`, Cohere's `COMPLETE`, Zhipu's `sensitive` and `network_error`. Read as
 * sent, a reply cut off by the length limit looked finished (and a call cut off inside its
 * arguments was offered to a tool) and a reply stopped by a safety filter looked like a normal
 * answer. A server that ends a request it dropped with its own word (vLLM's `abort`, DeepSeek's
 * `insufficient_system_resource`) or a provider that could not finish it (Bedrock's
 * `malformed_tool_use`, Gemini's `UNEXPECTED_TOOL_CALL`, Cohere's `TIMEOUT`) means OpenAI's
 * `error`: the answer did not finish, though the stream looks complete. Unknown values are only lower-cased.
 */

import { lookupTable } from '../../common/lookup-table.js';

const SAME_AS = lookupTable<string>({
  // the answer hit the output limit
  max_tokens: 'length',
  max_output_tokens: 'length',
  model_length: 'length',
  // input and output together filled the model's context (Anthropic, Bedrock, Z.ai; Cohere's
  // older ERROR_LIMIT): cut off like an output limit
  model_context_window_exceeded: 'length',
  error_limit: 'length',
  // a natural end
  end_turn: 'stop',
  stop_sequence: 'stop',
  complete: 'stop',
  eos: 'stop',
  // the model called tools
  tool_use: 'tool_calls',
  tool_call: 'tool_calls',
  function_call: 'tool_calls',
  // a safety or policy filter stopped the answer
  safety: 'content_filter',
  recitation: 'content_filter',
  blocklist: 'content_filter',
  prohibited_content: 'content_filter',
  spii: 'content_filter',
  image_safety: 'content_filter',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
  error_toxic: 'content_filter',
  // Anthropic's models stopping their own answer for safety reasons
  refusal: 'content_filter',
  // Zhipu (GLM) and Doubao: the provider's safety review blocked the answer
  sensitive: 'content_filter',
  // the provider failed to finish the answer: the server stopped it (vLLM's `abort` when the
  // engine drops a running request, DeepSeek's `insufficient_system_resource` when the inference
  // system runs short), so what arrived is a fragment, not the answer
  malformed_function_call: 'error',
  malformed_tool_use: 'error',
  malformed_model_output: 'error',
  unexpected_tool_call: 'error',
  too_many_tool_calls: 'error',
  timeout: 'error',
  abort: 'error',
  aborted: 'error',
  insufficient_system_resource: 'error',
  // Zhipu (GLM): the model's inference failed
  network_error: 'error',
});

/** The OpenAI spelling of a non-empty finish reason (`stop`, `length`, `tool_calls`, `content_filter`, `error` ...). */
export function canonicalFinishReason(raw: string): string {
  const lower = raw.trim().toLowerCase();
  return SAME_AS[lower] ?? lower;
}
