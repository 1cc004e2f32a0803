/**
 * When a rate limit resets, from the headers that describe the limits rather than ask for a
 * wait: OpenAI's and Groq's `x-ratelimit-reset-requests` / `-tokens` (Go durations such as
 * `2m59.56s`), OpenRouter's `X-RateLimit-Reset` (epoch milliseconds, in the headers or inside the
 * error body), Anthropic's `anthropic-ratelimit-*-reset` (RFC 3339 times) and the plain
 * `RateLimit-Reset` (seconds). Many 429s carry only these, and a fixed backoff then either
 * retries long before the window rolls or calls a daily cap "try again in a minute".
 */

/** Header values as node:http gives them (lower-case names). */
export type ResetHeaderBag = Record<string, string | string[] | undefined>;

/** A window that resets, and whether its allowance is spent. */
interface Window {
  resetMs: number;
  /** true: remaining is 0; false: some is left; undefined: not said. */
  exhausted: boolean | undefined;
}

/** Epoch values past these are absolute times (ms, then s), not a number of seconds to wait. */
const EPOCH_MS_FLOOR = 1e12;
const EPOCH_S_FLOOR = 1e9;

function first(v: string | string[] | undefined): string | undefined {
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
}

/**
 * Reads one reset value as ms from `nowMs`: a duration with units (`6m0s`, `7.66s`, `20ms`,
 * `1h2m`), a plain number (seconds to wait, or epoch seconds / milliseconds when that large), or
 * a date (RFC 3339, HTTP-date). A time already past, or an unreadable value, is undefined.
 */
export function parseResetValue(value: string, nowMs: number): number | undefined {
  const v = value.trim();
  // a header repeated through a proxy arrives joined with ", ": the first copy is the server's
  const firstCopy = v.split(',')[0].trim();
  if (firstCopy !== v && Number.isNaN(Date.parse(v))) return parseResetValue(firstCopy, nowMs);
  let ms: number | undefined;
  if (/^\d+(?:\.\d+)?$/.test(v)) {
    const n = Number(v);
    ms = n >= EPOCH_MS_FLOOR ? n - nowMs : n >= EPOCH_S_FLOOR ? n * 1000 - nowMs : n * 1000;
  } else if (/^(?:\d+(?:\.\d+)?(?:h|ms|m|s))+$/i.test(v)) {
    ms = 0;
    for (const part of v.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/gi)) {
      const n = Number(part[1]);
      const unit = part[2].toLowerCase();
      ms += unit === 'h' ? n * 3_600_000 : unit === 'm' ? n * 60_000 : unit === 's' ? n * 1000 : n;
    }
  } else {
    const at = Date.parse(v);
    if (!Number.isNaN(at)) ms = at - nowMs;
  }
  return ms === undefined || ms <= 0 ? undefined : Math.round(ms);
}

/**
 * The wait until a spent rate limit resets, ms, or undefined when the headers say nothing usable.
 * Each `…reset…` header pairs with the `…remaining…` header of the same name: when some window
 * says its allowance is 0, the longest of those resets (requests and tokens are separate
 * windows, and an exhausted request window must not make us wait out an unrelated token
 * window); when none says, the shortest reset (a retry that comes too early is told again).
 */
export function rateLimitResetMs(headers: ResetHeaderBag, nowMs: number = Date.now()): number | undefined {
  const windows: Window[] = [];
  for (const [rawName, rawValue] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (!name.includes('ratelimit') || !name.includes('reset')) continue;
    const value = first(rawValue);
    const resetMs = value === undefined ? undefined : parseResetValue(value, nowMs);
    if (resetMs === undefined) continue;
    const remainingName = name.replace('reset', 'remaining');
    const remainingKey = Object.keys(headers).find((k) => k.toLowerCase() === remainingName);
    const remainingText = remainingKey === undefined ? undefined : first(headers[remainingKey]);
    const remaining = remainingText === undefined ? undefined : Number(remainingText.split(',')[0]);
    windows.push({
      resetMs,
      exhausted: remaining === undefined || Number.isNaN(remaining) ? undefined : remaining <= 0,
    });
  }
  const spent = windows.filter((w) => w.exhausted === true).map((w) => w.resetMs);
  if (spent.length > 0) return Math.max(...spent);
  const unknown = windows.map((w) => w.resetMs);
  return unknown.length > 0 ? Math.min(...unknown) : undefined;
}
