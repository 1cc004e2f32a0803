/**
 * A provider's content filter or moderation refusing what it was sent: Azure OpenAI's 400
 * `content_filter` ("The response was filtered due to the prompt triggering Azure OpenAI's content
 * management policy", with innererror ResponsibleAIPolicyViolation, also relayed inside a stream
 * or by LiteLLM as ContentPolicyViolationError), OpenRouter's 403 "… requires moderation on …
 * Your input was flagged for \"self-harm\"", OpenAI's reasoning models' "your prompt was flagged
 * as potentially violating our usage policy" and "rejected as a result of our safety system";
 * DeepSeek's, Moonshot's, DashScope's and Zhipu's filters in their words (below).
 * The same words are refused again however often they are sent, and neither the key nor the
 * model name is wrong (OpenRouter says it with 403, which otherwise means a refused key): the
 * person must put the question differently, or use a model without that filter. A health
 * dashboard meets these filters more than most (self-harm, medication doses, sexual health).
 */
import type { FailureSigns } from './transience.js';

/** Code and type strings of a content filter's refusal, compared without case or separators. */
const CONTENT_REFUSAL_TYPES = new Set(
  [
    'content_filter',
    'content_filtered',
    'content_policy_violation',
    'content_policy_violation_error',
    'responsible_ai_policy_violation',
    'moderation_error',
    'moderation_blocked',
    // DashScope (Qwen): DataInspectionFailed
    'data_inspection_failed',
  ].map(squash),
);

/**
 * Wording of a content filter's refusal, for providers whose code or type says nothing of it;
 * beside the ones above, DeepSeek's 400 "Content Exists Risk", Moonshot's "The request was rejected
 * because it was considered high risk", DashScope's "Input or output data may contain
 * inappropriate content", Zhipu's 1301 "…可能包含不安全或敏感内容…".
 */
const CONTENT_REFUSAL_WORDING =
  /content exists risk|rejected because it was considered high risk|data may contain inappropriate content|不安全或敏感|敏感内容|含有违规|content management policy|content ?policy ?violation|requires moderation\b[\s\S]{0,200}?\bflagged\b|\b(?:input|prompt|request|message) (?:was|has been|is) flagged\b|flagged as potentially violating|rejected as a result of (?:our|the) safety system|blocked by (?:the |our )?(?:content|safety|moderation) (?:filter|system|policy)/i;

/** A code or type without case or separators. */
function squash(t: string): string {
  return t.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * True when `signs` describe a content filter or moderation refusing the request: by its code or
 * type strings (`content_filter`, `ContentPolicyViolationError`, ...) or by its words. Such a
 * refusal is final (never asked again) and is no fault of the key or the model name.
 */
export function isContentRefusal(signs: FailureSigns): boolean {
  return (
    signs.types.map(squash).some((t) => CONTENT_REFUSAL_TYPES.has(t)) ||
    CONTENT_REFUSAL_WORDING.test(signs.message)
  );
}
