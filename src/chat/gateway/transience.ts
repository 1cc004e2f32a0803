/**
 * Whether a provider failure is worth sending the same request again for. One rule for both
 * places a failure can come from: the status line of a non-2xx response, and an error object
 * inside a 200 reply (a stream that has already started can only report an upstream failure as
 * an `error` event, with the status it would have had as `code`). So an overloaded upstream, a
 * 429 or a 5xx is transient wherever it shows up, and a request the model can never take (its
 * context is too small, a field is invalid, the allowance is spent) is final wherever it shows up.
 */

import { hasBudgetMarker } from './budget-wording.js';
import { refusesImageInput } from './image-refusal.js';
import { runnerStopped } from './runner-stopped.js';
import { isTemplateFailure } from './template-failure.js';

/** What a failure says about itself. */
export interface FailureSigns {
  /** The HTTP status, or the numeric `code` of an in-stream error (502, 529, ...). */
  status?: number;
  /** The provider's error code and type strings ('server_error', 'overloaded_error', ...). */
  types: readonly string[];
  /** The provider's message ('' when none). */
  message: string;
  /**
   * The error body itself says when to ask again (a retry delay, "Please retry in 26s"): an
   * allowance that comes back after a stated wait is a rate limit, not a spent budget (Gemini
   * words its per-minute quota as "You exceeded your current quota").
   */
  waitStated?: boolean;
  /** The error carries the model's output the provider could not read (`failed_generation`). */
  failedGeneration?: boolean;
}

/**
 * - 'budget': the allowance is used up; sending again cannot help until it resets.
 * - 'too_large': the request is longer than the model or the provider's limit takes.
 * - 'unfit': the model does not fit in the memory of the machine serving it; asking again loads
 *   it again and fails the same way until memory is freed or a smaller model is chosen.
 * - 'unsupported': the model's server cannot run this model at all (its version does not know the
 *   model's architecture); asking again fails the same way until the server is updated.
 * - 'template': the model's chat template on its server failed to render the request
 *   (template-failure.ts); the same request fails the same way until the template changes.
 * - 'model_slip': the model's output was malformed (a tool call the provider could not parse,
 *   Groq's 400 `tool_use_failed`); the request was fine and a new answer may well be readable.
 * - 'invalid': the request itself was refused (validation, 4xx).
 * - 'transient': overload, rate limit, timeout, upstream failure; the same request may succeed.
 * - 'unknown': nothing says which (an in-stream error with no code, type or telling words).
 */
export type FailureClass =
  | 'budget'
  | 'too_large'
  | 'unfit'
  | 'unsupported'
  | 'template'
  | 'model_slip'
  | 'invalid'
  | 'transient'
  | 'unknown';

/**
 * Provider error codes/types after which the same request may be sent again, compared without
 * case or separators, so `overloaded_error`, `OverloadedError` and `overloaded-error` are one;
 * exception class names that proxies put in `type` (LiteLLM, SGLang) are among them.
 */
const TRANSIENT_TYPES = new Set(
  [
    'provider_unavailable',
    'server_error',
    'internal_error',
    'internal_server_error',
    'api_error',
    'overloaded',
    'overloaded_error',
    'server_is_overloaded',
    'service_unavailable',
    'service_unavailable_error',
    'unavailable',
    'timeout',
    'timeout_error',
    'api_timeout_error',
    'request_timeout',
    'gateway_timeout',
    'bad_gateway',
    'upstream_error',
    'api_connection_error',
    'rate_limit_exceeded',
    'rate_limit_error',
    'rate_limited',
    'resource_exhausted',
    'too_many_requests',
    'engine_overloaded',
    'model_overloaded',
    'capacity_exceeded',
  ].map(squash),
);

/**
 * Types some servers put on every error that is not a 400 (Ollama's OpenAI-compatible endpoint
 * says `api_error` for a model never pulled, 404, and a refused key, 401) or on any failure of
 * their own: they say nothing the status does not, so they never make a 4xx transient.
 */
const CATCH_ALL_TYPES = new Set(
  ['api_error', 'server_error', 'internal_error', 'internal_server_error', 'upstream_error'].map(squash),
);

/**
 * Codes of a model's malformed output, said with a 400 although the request was fine: Groq's
 * `tool_use_failed` (a tool call its parser could not read, or one to a tool not offered) and
 * `json_validate_failed` (its JSON-mode twin).
 */
const MODEL_SLIP_TYPES = new Set(['tool_use_failed', 'json_validate_failed'].map(squash));

/** Exception class names meaning the request itself was refused. */
const REFUSED_TYPES = new Set(
  ['bad_request_error', 'unprocessable_entity_error', 'not_found_error'].map(squash),
);

/** A code or type without case or separators. */
function squash(t: string): string {
  return t.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Wording of a request longer than the model's context: "exceeds the available context size"
 * (llama.cpp), "prompt is too long" (Anthropic), "maximum context length" (OpenAI, vLLM); the input
 * or prompt said to exceed or be longer than a limit ("The input token count (1200293) exceeds the
 * maximum number of tokens allowed" from Gemini, "The decoder prompt (length 21535) is longer than
 * the maximum model length" from vLLM, "The input (61709 tokens) is longer than the model's context
 * length" from SGLang); xAI's "maximum prompt length is"; Moonshot's "Your request exceeded model
 * token limit" and "model max length exceeded"; DashScope's "Range of input length should be [1,
 * 204800]"; Zhipu's "Prompt 超长" and other Chinese wordings (输入长度超过, 超出最大长度); LM Studio's "loaded with context length of
 * only 4096 tokens" and "Reached context length"; TGI's "`inputs` tokens + `max_new_tokens` must be
 * <= 4096"; LM Studio's "The number of tokens to keep from the initial prompt is greater than the
 * context length" and "Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)". The input said to exceed anything but the model's maximum or context (a remaining
 * allowance, input tokens per minute) is a rate limit, not among them.
 */
const CONTEXT_EXCEEDED =
  /exceed\w*[\s_]+(?:the\s+)?(?:available\s+|maximum\s+|max\s+)?context|context[\s_]+(?:length|size|window)[\s_]+exceeded|prompt is too long|too many (?:input )?tokens|maximum context length|input is too long|reduce the length of the messages|(?:input|prompt)(?:\s+token count|\s+length)?\s*(?:of\s+\d+\s*|\([^)]{0,30}\)\s*)?(?:exceeds|is longer than)[^.;]{0,40}?(?:maximum|context|model)|maximum prompt length|exceed\w* (?:the )?model(?:'s)? (?:token|context) limit|model max(?:imum)? length exceeded|range of input length should be|prompt\s*超长|输入长度超(?:过|出)|上下文长度超(?:过|出)|超出(?:了)?(?:模型)?最大(?:上下文)?长度|context length of only|context the overflows|reached context length|`?inputs`? (?:tokens \+ `?max_new_tokens`? must be|must have less than)|tokens to keep from the (?:initial )?prompt is (?:greater|larger|more) than the context|n_keep\W{0,3}\d+\W{0,3}>=?\W{0,3}n_ctx/i;

/**
 * Wording of a model that cannot be loaded for want of memory: Ollama's "model requires more
 * system memory (7.3 GiB) than is available (6.0 GiB)" (said with 500), "not enough memory",
 * llama.cpp's "unable to allocate backend buffer"; the GPU backend refusing the allocation as
 * Ollama's runner loads the model ("llama runner process has terminated: cudaMalloc failed: out of
 * memory", "… CUDA error: out of memory", ROCm's and other backends' alike). A bare "out of
 * memory" while serving, which may pass, is not among them.
 */
const MODEL_DOES_NOT_FIT =
  /requires more (?:system |gpu |video )?memory|(?:not enough|insufficient) (?:system |gpu |video )?memory (?:to load|for)|unable to allocate (?:\w+ )?buffer|(?:cuda|hip|rocm|metal|vulkan|sycl)\s*(?:error|malloc failed)\s*:?\s*out of memory/i;

/**
 * Wording of a model the server's version cannot run: llama.cpp's "error loading model: unknown
 * model architecture: 'mllama'" (Ollama passes it on after "llama runner process has terminated"
 * with 500, adding "Your current version of Ollama doesn't support this model architecture.
 * Consider upgrading."), "this model is not supported by your version of Ollama", "requires a
 * newer version of Ollama".
 */
const MODEL_UNSUPPORTED =
  /unknown model architecture|unsupported model architecture|(?:doesn't|does not|don't|do not) support this model(?:'s)? architecture|not supported by your version of (?:ollama|llama\.cpp|lm studio)|requires a (?:newer|more recent) version of (?:ollama|llama\.cpp|lm studio)/i;

/**
 * Wording of a momentary failure, for an error that gives no usable code: "Overloaded",
 * "temporarily unavailable", "try again later", "upstream connect error", "timed out".
 */
const TRANSIENT_WORDING =
  /overloaded|temporar(?:il)?y unavailable|(?:service|server|model|upstream|provider) (?:is )?(?:currently )?unavailable|try again later|please retry|upstream connect error|connection (?:reset|refused|closed)|timed? ?out|too many requests|rate[ _-]?limit|capacity|queue (?:is )?full/i;

/**
 * Statuses a server may answer again differently: timeout, rate limit, 5xx (not 501/505, which
 * mean "never"), and 499, which reaches us from a gateway whose own hop to the model was closed
 * before the answer came (its upstream timed out, a load balancer dropped it).
 */
function transientStatus(status: number): boolean {
  return (
    status === 408 ||
    status === 425 ||
    status === 429 ||
    status === 499 ||
    (status >= 500 && status !== 501 && status !== 505)
  );
}

/** Classifies a failure by its status or code, its code/type strings and its message (see FailureClass). */
export function classifyFailure(signs: FailureSigns): FailureClass {
  const types = signs.types.map((t) => t.toLowerCase());
  const words = `${signs.message} ${types.join(' ')}`;
  const { status } = signs;
  if (status === 402) return 'budget';
  if ((status === undefined || (status >= 400 && status < 500)) && hasBudgetMarker(words)) {
    if (!signs.waitStated) return 'budget';
    if (status === undefined || status === 429) return 'transient';
  }
  // a prompt too long for the model is refused again however often it is sent, whatever status
  // the server gives it (llama.cpp's server says 500)
  if (CONTEXT_EXCEEDED.test(words) || types.includes('context_length_exceeded')) return 'too_large';
  if (MODEL_DOES_NOT_FIT.test(signs.message)) return 'unfit';
  if (MODEL_UNSUPPORTED.test(signs.message)) return 'unsupported';
  // a model that cannot take images refuses them again, whatever status its server gives (Ollama: 500)
  if (refusesImageInput(signs.message)) return 'invalid';
  // the process running the model stopped (LM Studio says so with 400): it is started again
  if (runnerStopped(signs.message)) return 'transient';
  // said with 400 or 500, or inside a stream: rendering the same request fails the same way
  if (isTemplateFailure(signs.message)) return 'template';
  const squashed = types.map(squash);
  // before 'invalid': the provider files a malformed answer under invalid_request_error
  if (signs.failedGeneration || squashed.some((t) => MODEL_SLIP_TYPES.has(t))) return 'model_slip';
  if (types.some((t) => t.includes('validation') || t.includes('invalid'))) return 'invalid';
  if (squashed.some((t) => REFUSED_TYPES.has(t))) return 'invalid';
  if (status !== undefined && transientStatus(status)) return 'transient';
  // a client error's status beats a catch-all type: only a type that names a momentary state
  // (overloaded, rate limited, unavailable) makes a 4xx worth asking again
  const clientError = status !== undefined && status >= 400 && status < 500;
  if (squashed.some((t) => TRANSIENT_TYPES.has(t) && !(clientError && CATCH_ALL_TYPES.has(t))))
    return 'transient';
  if (status !== undefined && status >= 400 && status < 500) return 'invalid';
  if (TRANSIENT_WORDING.test(signs.message)) return 'transient';
  return 'unknown';
}

/** A 3-digit status given as a number or a numeric string ("502"), else undefined. */
export function statusOf(code: unknown): number | undefined {
  if (typeof code === 'number' && Number.isInteger(code) && code >= 100 && code <= 599) return code;
  if (typeof code === 'string' && /^\d{3}$/.test(code.trim())) return Number(code.trim());
  return undefined;
}
