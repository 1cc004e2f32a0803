/**
 * Wording that means the allowance is used up rather than a momentary rate limit ("budget has
 * been exceeded", "insufficient_quota", "quota exceeded", "余额不足"): such a failure is never
 * retried.
 */
const BUDGET_MARKERS: RegExp[] = [
  /budget (?:has been |was )?exceeded/i,
  /exceeded (?:your |the )?(?:max(?:imum)? )?budget/i,
  /budget_exceeded/i,
  /insufficient[_ ]quota/i,
  /quota (?:has been |was )?exceeded/i,
  /exceeded (?:your |the )?(?:current )?quota/i,
  /insufficient (?:credits|balance|funds)/i,
  // SiliconFlow: "Your paid balance is insufficient. Please top up"; Zhipu: "no resource package.
  // Please recharge."
  /(?:balance|credits?|funds) (?:is|are) (?:insufficient|exhausted|used up)/i,
  /no resource package/i,
  // Anthropic (also behind relays): 400 "Your credit balance is too low to access the Anthropic
  // API", "You have reached your specified API usage limits. You will regain access on …"
  /credit balance is too low/i,
  /reached your specified (?:api )?usage limits?/i,
  // OpenAI: 429 billing_not_active "Your account is not active, please check your billing
  // details", 400 billing_hard_limit_reached "Billing hard limit has been reached": no request is
  // answered until someone pays, however long it waits
  /billing[_ ]not[_ ]active/i,
  /billing[_ ]hard[_ ]limit/i,
  /account is not active\W+please check your billing/i,
  // OpenRouter: 429 "Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free
  // model requests per day": the free models' daily allowance, back the next day, not a burst
  /free-models-per-day/i,
  // OpenRouter: 403 "Key limit exceeded (daily limit)", "(total limit)": the key's own spending cap
  /key limit exceeded \((?:daily|weekly|monthly|total) limit\)/i,
  /please (?:recharge|top up)/i,
  // one-api and new-api relays: their codes for the relay token's quota used up and the user's
  // balance too small (pre_consume_token_quota_failed, token_quota_exhausted,
  // insufficient_user_quota), said with 401 or 403
  /pre[_ ]consume[_ ]token[_ ]quota[_ ]failed|token[_ ]quota[_ ]exhausted|insufficient[_ ]user[_ ]quota/i,
  // Chinese providers (Zhipu, Moonshot, DeepSeek on their .cn endpoints) and relays: balance
  // insufficient, account in arrears, please recharge, quota used up or exhausted (one-api's
  // "该令牌额度已用尽", the token's quota is exhausted), quota insufficient
  /余额不足|欠费|请充值|额度不足|额度已用完|额度已用尽|配额已用完|配额不足/,
];

/** True when the text carries budget/quota wording (see BUDGET_MARKERS). */
export function hasBudgetMarker(text: string): boolean {
  return BUDGET_MARKERS.some((re) => re.test(text));
}

/**
 * Wording of an allowance counted per day (OpenRouter's "free-models-per-day", "Key limit exceeded
 * (daily limit)"): its reset, when the provider sends one (X-RateLimit-Reset), is when it comes
 * back, and can be told. Other budgets' rate-limit headers say when a burst limit resets, not the
 * spent balance, so they are not read.
 */
export function isDailyAllowance(text: string): boolean {
  return /free-models-per-day|\(daily limit\)|\bper[- ]day\b|\bdaily (?:limit|quota|allowance)\b/i.test(text);
}
