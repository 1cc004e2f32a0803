/** The chat-completions gateway client: re-exports only. */
export { parseBufferedCompletion } from './buffered.js';
export { createCallAssembler } from './call-assembler.js';
export { normaliseChunk } from './chunk-normaliser.js';
export {
  classifyErrorPayload,
  classifyHttpError,
  classifyNetworkError,
  hasBudgetMarker,
} from './classify.js';
export { callGateway, type GatewayConfig } from './client.js';
export {
  GatewayError,
  type GatewayErrorInit,
  type GatewayErrorKind,
  isGatewayError,
} from './gateway-error.js';
export { assistantMessageFor, checkHistory, toolResultMessage } from './history.js';
export { refusesImageInput } from './image-refusal.js';
export { createReasoningSplitter } from './inline-reasoning.js';
export { DEFAULT_CAPABILITIES, knownCapabilities, resolveCapabilities } from './provider-capabilities.js';
export { defaultProviderMemory, ProviderMemory } from './provider-memory.js';
export { buildRequestBody, type ChatCompletionBody, flattenContent } from './request.js';
export { createStreamAssembler, type StreamAssembler, type StreamEnd } from './stream-assembler.js';
export { readToolArguments } from './tool-arguments.js';
export type * from './types.js';
export { normalizeUsage } from './usage.js';
