/**
 * Model names written for a router: LiteLLM, aider and many guides name a model with its
 * provider in front (`openai/gpt-4o`, `ollama/llama3`, `groq/llama-3.3-70b-versatile`), and that
 * name, given to the provider itself, is refused as a model it does not know (OpenAI's 404
 * `model_not_found`, Ollama's 'model "ollama/llama3" not found'). Such a name is asked for once
 * more without its prefix, and remembered; a router that knows the prefixed name (OpenRouter's
 * `openai/gpt-4o`) answers the first request and never sees the other.
 */

/** Routing prefixes of LiteLLM-style model names; a model's own name never starts with these and a slash. */
const ROUTING_PREFIX =
  /^(?:openai|azure|azure_ai|anthropic|ollama|ollama_chat|groq|gemini|vertex_ai|mistral|deepseek|together_ai|openrouter|fireworks_ai|hosted_vllm|vllm|lm_studio|bedrock|xai|cerebras|perplexity|cohere|nvidia_nim|sambanova|litellm_proxy|custom_openai|openai_compatible|text-completion-openai|dashscope|moonshot|volcengine|deepinfra|github)\//i;

/** `model` without its routing prefix, or undefined when it has none (or nothing follows it). */
export function withoutRoutingPrefix(model: string): string | undefined {
  const m = ROUTING_PREFIX.exec(model.trim());
  if (!m) return undefined;
  const rest = model.trim().slice(m[0].length);
  return rest === '' ? undefined : rest;
}

/**
 * Wording of a refusal of the model's name (not of the key or the address): OpenAI's
 * `model_not_found` and "The model `x` does not exist", Ollama's 'model "x" not found', "invalid
 * model", "unknown model", "is not a valid model ID".
 */
export const UNKNOWN_MODEL =
  /model_not_found|model\W{1,3}[^\s]{1,200}?\W{1,3}(?:not found|does not exist)|(?:invalid|unknown|unsupported) model|not a valid model|no such model|model (?:is )?not (?:found|available|supported)/i;
