/**
 * Tool-call ids that carry a thought signature. Gemini 3 refuses the next request of a tool loop
 * unless each call it made comes back with its thought signature ("Function call is missing a
 * thought_signature in functionCall parts"); LiteLLM and other relays in front of Gemini keep that
 * signature in the call's id (`call_<id>__thought__<signature>`), and read it out of the id when
 * the call comes back. Such an id is sent back as the provider gave it, not replaced by one of
 * ours: replaced, every tool loop through such a relay failed at its second request.
 */

/** LiteLLM's separator between a call's own id and the thought signature appended to it. */
const SIGNATURE_SEPARATOR = '__thought__';

/**
 * True when `id` is a call id with a thought signature appended after LiteLLM's separator (a
 * non-empty id before it, a non-empty signature after it, no white space).
 */
export function carriesThoughtSignature(id: string | undefined): id is string {
  if (id === undefined || /\s/.test(id)) return false;
  const at = id.indexOf(SIGNATURE_SEPARATOR);
  return at > 0 && at + SIGNATURE_SEPARATOR.length < id.length;
}
