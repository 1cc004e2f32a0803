/**
 * A relay (one-api, new-api and the many resellers built on them) that has no channel serving the
 * requested model for the key's group answers 503 with code `model_not_found` and "No available
 * channel for model gpt-5.1 under group default (distributor)", in Chinese "当前分组 default 下对于模型
 * gpt-5.1 无可用渠道". The 503 reads as a momentary failure, but the cause is a setting: the model
 * name is not one the relay offers to this key, or its channels for it are switched off. Asking
 * again gets the same answer; CHAT_MODEL or the relay's channel settings must change.
 */

/** Wording of a relay without a channel for the model. */
const NO_CHANNEL_WORDING =
  /\bno available channels? for (?:the )?model\b|\bno channels? available for (?:the )?model\b|无可用渠道/i;

/** True when `message` says the relay has no channel that serves the requested model. */
export function relayHasNoChannel(message: string): boolean {
  return NO_CHANNEL_WORDING.test(message);
}
