/**
 * Which refusal the person can fix in the settings: a key the provider does not take ('auth'), a
 * model or address it does not know ('not_found') or a model it has retired ('model_retired'). A status line says so with 401, 403, 404 or
 * 405; an error sent with a success status (a stream that had already started, a server that
 * answers every request with 200) carries the same news as its numeric `code`, its code and type
 * strings (`invalid_api_key`, `AuthenticationError`, `model_not_found`, `PERMISSION_DENIED`) or
 * only in words ("Incorrect API key provided", `model "x" not found`). One reading for both, so
 * the person is told to check CHAT_API_KEY or CHAT_MODEL whichever way the provider said it.
 */
import type { FailureSigns } from './transience.js';

/**
 * A refusal fixed in the settings: the key, the model or address, or where the request comes from
 * (a provider that does not serve this server's country, a firewall that blocks its network).
 */
export type RefusalReason =
  | 'auth'
  | 'not_found'
  | 'model_retired'
  | 'model_not_allowed'
  | 'no_model_loaded'
  | 'api_disabled'
  | 'location_refused'
  | 'not_chat_model'
  | 'routing_policy'
  | 'api_version';

/**
 * Wording of a key whose project may not use the model: OpenAI's 403 "Project `proj_…` does not
 * have access to model `gpt-4o-mini`" (code `model_not_found`; each project has its own list of
 * allowed models), "Your account does not have access to model x", "… is not allowed to use this
 * model". The key and the name are both right; the model must be allowed or another chosen.
 */
const MODEL_NOT_ALLOWED_WORDING =
  /\bdoes(?: not|n't) have access to (?:the )?model\b|\b(?:key|project|organi[sz]ation|account|team|user) (?:is )?not (?:allowed|authori[sz]ed|permitted) to (?:use|access) (?:the |this )?model\b/i;

/**
 * Wording of a local server with no model loaded: LM Studio's "No models loaded. Please load a
 * model in the developer page or use the `lms load` command." (400, or 404 on some versions;
 * also after a model crashed and was unloaded). The name may be right; a model must be loaded
 * where the server runs, or its just-in-time loading turned on.
 */
const NO_MODEL_LOADED_WORDING = /\bno models? (?:is |are )?(?:currently )?loaded\b/i;

/**
 * Wording of an API not switched on for the project the key belongs to: Google's 403
 * PERMISSION_DENIED "Generative Language API has not been used in project 123 before or it is
 * disabled. Enable it by visiting https://console.developers.google.com/… then retry" (reason
 * SERVICE_DISABLED, older accessNotConfigured), met with keys made in the Cloud console. The key is
 * right; the API must be enabled for its project.
 */
const API_DISABLED_WORDING =
  /\bAPI has not been used in project\b[\s\S]{0,80}?\bor it is disabled\b|\bSERVICE_DISABLED\b|\baccessNotConfigured\b/i;

/** Code and type strings of a model its provider has retired. */
const RETIRED_TYPES = new Set(['model_decommissioned', 'model_deprecated', 'model_retired'].map(squash));

/**
 * Wording of a model its provider has retired: Groq's "The model `llama-3.1-70b-versatile` has
 * been decommissioned and is no longer supported" (400 `model_decommissioned`), OpenAI's "The
 * model `text-davinci-003` has been deprecated" (said with 404 `model_not_found`), "… has reached
 * its end of life". The name was right once; another model must be chosen.
 */
const RETIRED_WORDING =
  /\bmodel\b(?!'s)(?:[^.;\n]|\.(?!\s)){0,160}?\b(?:has been|was) (?:now )?(?:decommissioned|deprecated|retired|discontinued|sunset)\b|\bmodel\b(?!'s)(?:[^.;\n]|\.(?!\s)){0,160}?\b(?:has )?reached (?:its )?end[- ]of[- ]life\b/i;

/**
 * Wording of a router whose account settings allow none of the model's providers: OpenRouter's
 * "No endpoints found matching your data policy", "No endpoints available matching your guardrail
 * restrictions and data policy" (both pointing at its privacy settings), "No allowed providers are
 * available for the selected model" (a provider allow-list). Said with 404, but the model exists.
 */
const ROUTING_POLICY_WORDING =
  /no (?:endpoints?|providers?) (?:were )?(?:found|available) matching your (?:guardrail|data|privacy|provider)|no allowed providers (?:are )?available/i;

/** Code and type strings of a refused location. */
const LOCATION_TYPES = new Set(['unsupported_country_region_territory'].map(squash));

/**
 * Wording of a request refused for where it comes from, not for its key: OpenAI's "Country,
 * region, or territory not supported", Gemini's "User location is not supported for the API use",
 * Cloudflare's block and challenge pages in front of a relay ("Attention Required! | Cloudflare",
 * "Sorry, you have been blocked", "Just a moment..."), and its bare access errors: "error code:
 * 1010" (the client's signature banned), 1005-1009 (a network or country banned), 1012 and 1020
 * (access denied by a rule), or their page ("… used Cloudflare to restrict access", "has banned
 * your access"). Its 1015 is a rate limit, not among them.
 */
const LOCATION_WORDING =
  /country,? region,? or territory (?:is )?not supported|user location is not supported|(?:not|isn't) (?:available|supported) in your (?:country|region|location)|unsupported (?:country|region|location)|attention required!? \| cloudflare|you have been blocked|^just a moment\.\.\.|\berror code:? 10(?:0[5-9]|1[02]|20)\b|used cloudflare to restrict access|has banned your access/i;

/**
 * Wording of a model that takes no chat requests (CHAT_MODEL names an embedding, completions-only
 * or Responses-only model): Ollama's "\"bge-m3:latest\" does not support chat" and older
 * "embedding models do not support chat", Azure OpenAI's OperationNotSupported "The chatCompletion
 * operation does not work with the specified model", OpenAI's "This is not a chat model and thus
 * not supported in the v1/chat/completions endpoint" and "This model is only supported in
 * v1/responses and not in v1/chat/completions".
 */
const NOT_CHAT_MODEL_WORDING =
  /\bdoes(?: not|n't) support chat\b|\bmodels? do(?:es)? not support chat\b|chat ?completions? operation does not work with the specified model|\bnot a chat model\b|\bnot supported in the v1\/chat\/completions endpoint|only supported in v1\/(?:responses|completions)\b/i;

/**
 * Wording of an API version the endpoint refuses (the version written in CHAT_ENDPOINT_URL's
 * query): Azure OpenAI's 400 "API version not supported" (a version it does not know, a typo, or
 * one given where its v1 path takes none), "Model o3-mini is enabled only for api versions
 * 2024-12-01-preview and later", "Unsupported api-version". The URL's version must change.
 */
const API_VERSION_WORDING =
  /\bapi[ -]?version (?:is )?not supported\b|\bunsupported api[ -]?version\b|\benabled only for api[ -]?versions?\b|\binvalid api[ -]?version\b/i;

/** Code and type strings of a refused key, compared without case or separators. */
const AUTH_TYPES = new Set(
  [
    'invalid_api_key',
    'incorrect_api_key',
    'api_key_invalid',
    'authentication_error',
    'authentication_failed',
    'invalid_authentication',
    'unauthorized',
    'unauthenticated',
    'permission_error',
    'permission_denied',
    'permission_denied_error',
    'forbidden',
  ].map(squash),
);

/** Code and type strings of an unknown model or address. */
const NOT_FOUND_TYPES = new Set(
  ['model_not_found', 'not_found', 'not_found_error', 'invalid_model'].map(squash),
);

/**
 * Wording of a refused key ("Incorrect API key provided", "Invalid API Key", "Not authenticated"),
 * or of the account behind it switched off (Anthropic's 400 "This organization has been
 * disabled.", "account has been suspended"): either way the key is what must change.
 */
const AUTH_WORDING =
  /\b(?:organi[sz]ation|account) (?:has been|is|was) (?:disabled|deactivated|suspended|banned)\b|\b(?:incorrect|invalid|wrong|missing|no|expired|revoked) (?:api[ _-]?key|bearer token|access token|auth(?:entication)? token)|api[ _-]?key (?:is |was )?(?:invalid|not valid|incorrect|missing|required|expired|revoked)|\bnot authenticated\b|authentication (?:failed|required)|\bunauthori[sz]ed\b/i;

/**
 * Wording of a model the server does not know ("model 'x' not found", "The model `x` does not
 * exist", DeepSeek's "Model Not Exist", OpenRouter's "x is not a valid model ID").
 */
const MODEL_NOT_FOUND_WORDING =
  /\bmodel\b(?:[^.;\n]|\.(?!\s)){0,120}?\b(?:not found|does not exist|doesn't exist|not exists?\b)|\b(?:unknown|no such|invalid) model\b|\bmodel[ _]not[ _]found\b|\bnot a valid model\b/i;

/**
 * Wording of a request without a model name (CHAT_MODEL unset, or a relay that lost it): OpenAI's
 * and its relays' "you must provide a model parameter", Ollama's "model is required", "Missing
 * required parameter: 'model'". The model setting is what to fix, as for an unknown model.
 */
const MODEL_MISSING_WORDING =
  /you must provide a model\b|\bmodel (?:parameter |field |name )?is required\b|missing required (?:parameter|field|argument):? ['"`]?model\b/i;

/** A code or type without case or separators. */
function squash(t: string): string {
  return t.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The settings refusal `signs` describe, or undefined: a refused location by its code or words
 * first, a model that takes no chat requests by its words, a router's settings that allow no provider
 * by its words, a retired model by its code or words, an API not enabled for the key's project, a
 * server with no model loaded or a model the key may not use by its words, then by status (401/403 'auth', 404/405 'not_found'), then by code and type strings,
 * then by wording. Callers ask only about a failure
 * that is neither transient nor a request too large for the model.
 */
export function refusalReason(signs: FailureSigns): RefusalReason | undefined {
  const { status } = signs;
  // a refused location often comes with 403, but the key is not what is wrong
  if (signs.types.map(squash).some((t) => LOCATION_TYPES.has(t)) || LOCATION_WORDING.test(signs.message))
    return 'location_refused';
  // said with 400 or 404: either way the model, not the request or the address, is what must change
  if (NOT_CHAT_MODEL_WORDING.test(signs.message)) return 'not_chat_model';
  // said with 400: the request is fine, the version the URL asks for is not
  if (API_VERSION_WORDING.test(signs.message)) return 'api_version';
  // said with 404, yet the model is known: the router's own settings leave it no provider
  if (ROUTING_POLICY_WORDING.test(signs.message)) return 'routing_policy';
  // said with 400 or 404: the name was right once, and another model must be chosen
  if (signs.types.map(squash).some((t) => RETIRED_TYPES.has(t)) || RETIRED_WORDING.test(signs.message))
    return 'model_retired';
  // said with 403, which otherwise means a refused key: the key is fine, its project lacks the API
  if (API_DISABLED_WORDING.test(signs.message)) return 'api_disabled';
  // said with 400 or 404: nothing is wrong with the name or the address, the server has no model up
  if (NO_MODEL_LOADED_WORDING.test(signs.message)) return 'no_model_loaded';
  // said with 403, which otherwise means a refused key: the key is fine, the model is not allowed
  if (MODEL_NOT_ALLOWED_WORDING.test(signs.message)) return 'model_not_allowed';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404 || status === 405) return 'not_found';
  const types = signs.types.map(squash);
  if (types.some((t) => AUTH_TYPES.has(t))) return 'auth';
  if (types.some((t) => NOT_FOUND_TYPES.has(t))) return 'not_found';
  if (AUTH_WORDING.test(signs.message)) return 'auth';
  if (MODEL_NOT_FOUND_WORDING.test(signs.message) || MODEL_MISSING_WORDING.test(signs.message))
    return 'not_found';
  return undefined;
}
