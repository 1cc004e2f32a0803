/**
 * Gemma 4's string-quote token, `<|"|>` (also seen as `<|">`), left in a call's JSON arguments by a
 * server or relay that did not detokenize the model's call cleanly: in place of the quotes,
 * `{"channels": [<|">discord<|">]}` (Kimi-family models through a hosted gateway,
 * https://github.com/tinyhumansai/tinyagents/pull/68), or around a value inside its quotes,
 * `{"location": "<|"|>hanoi<|"|>"}` (https://github.com/google-ai-edge/LiteRT-LM/issues/2172).
 * The token only ever delimits a string, so each pair is read as the quotes it stands for.
 */

/** Both spellings of the token. */
const TOKEN = /<\|"\|?>/g;
const WRAPPED = /^<\|"\|?>([\s\S]*)<\|"\|?>$/;

/** `raw` with each `<|"|>…<|"|>` pair written as the JSON string it delimits; undefined when it has none or a pair stays open. */
export function quoteTokensAsJson(raw: string): string | undefined {
  const parts = raw.split(TOKEN);
  if (parts.length < 3 || parts.length % 2 === 0) return undefined;
  return parts.map((part, i) => (i % 2 === 0 ? part : JSON.stringify(part))).join('');
}

/** `value` with every string wrapped whole in the token pair unwrapped, at any depth. */
export function withoutQuoteTokens(value: unknown): unknown {
  if (typeof value === 'string') return WRAPPED.exec(value)?.[1] ?? value;
  if (Array.isArray(value)) return value.map(withoutQuoteTokens);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutQuoteTokens(v)]));
}
