/**
 * A refusal for want of credit that names what would be affordable. OpenRouter reserves credit
 * for the longest answer a request allows; a request without an output cap (Klebb sets none)
 * allows the model's whole output, so an account with credit left is refused with 402: "This
 * request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can
 * only afford 12507." The same request with a cap within that amount is answered.
 */
import { GatewayError } from './gateway-error.js';

/** "can only afford 12507" / "can only afford 12,507 tokens": the affordable output tokens. */
const AFFORD = /fewer max_tokens[\s\S]*?can only afford\s+([\d,]+)/i;
/** Share of the affordable amount asked for: the prompt's price may move it a little. */
const MARGIN = 0.9;
/** Below this an answer is too short to be worth asking for: the credit is used up. */
const MIN_OUTPUT_TOKENS = 256;

/**
 * The output cap that makes a refused request affordable, or undefined when the refusal names
 * none (or one too small to answer within, or no smaller than `current`, the cap already sent).
 */
export function affordableOutputCap(err: GatewayError, current: number | undefined): number | undefined {
  const m = AFFORD.exec(`${err.detail ?? ''} ${err.message}`);
  if (!m) return undefined;
  const cap = Math.floor(Number(m[1].replace(/,/g, '')) * MARGIN);
  if (!Number.isFinite(cap) || cap < MIN_OUTPUT_TOKENS) return undefined;
  return current === undefined || cap < current ? cap : undefined;
}

/**
 * An empty answer (`kind` 'empty', reason 'length' or 'reasoning_length') to a request capped at
 * `cap` tokens for want of credit, told as that: reason 'credit_length', `detail` the cap. The
 * limit is the account's credit, not one of the server that runs the model. Other errors as given.
 */
export function creditStop(err: GatewayError, cap: number): GatewayError {
  if (err.kind !== 'empty' || (err.reason !== 'length' && err.reason !== 'reasoning_length')) return err;
  return new GatewayError('empty', `${err.message} within the ${cap} tokens the credit affords`, {
    reason: 'credit_length',
    detail: String(cap),
  });
}
