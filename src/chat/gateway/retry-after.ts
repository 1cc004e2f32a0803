/**
 * How long a rate-limited gateway asks us to wait: the largest of `Retry-After`
 * (delta-seconds or an HTTP-date, RFC 9110 §10.2.3), `retry-after-ms`, and a
 * "try again in 5.289s" phrase in the message; without any of them, when the spent limit
 * resets by its `…ratelimit…reset…` headers (rate-limit-reset.ts).
 */
import { parseRetryAfter } from '../../http/retry-after-value.js';
import { rateLimitResetMs } from './rate-limit-reset.js';

/** Header values as node:http gives them. */
export type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Parses a `Retry-After` value: whole or fractional seconds, or an HTTP-date relative to
 * `nowMs` (epoch ms). Returns ms (never negative), or undefined when absent or unreadable
 * (src/http/retry-after-value.ts).
 */
export function parseRetryAfterHeader(
  value: string | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  return parseRetryAfter(value, nowMs);
}

/** A number and its unit of time, short or spelt out: `5.289s`, `750ms`, `2h`, `43 seconds`, `1 minute`. */
const AMOUNT = String.raw`\d+(?:\.\d+)?\s*(?:ms|milliseconds?|h(?:ours?|rs?)?|m(?:in(?:ute)?s?)?|s(?:ec(?:ond)?s?)?)(?![a-z])`;
/** A wait in words: "try again in", "retry in", "retry after", "wait" (for) and amounts of time. */
const WAIT_PHRASE = new RegExp(
  String.raw`(?:try again|retry|wait)(?:\s+(?:in|after|for))?\s+((?:${AMOUNT}[\s,]*(?:and\s+)?)+)`,
  'i',
);

/**
 * Reads a wait from a provider message: "try again in 5.289s" / "in 1m30.5s" / "in 750ms" /
 * "in 2h3m" (Groq, OpenAI), "Please retry in 7.3s" (Gemini), "Please retry after 20 seconds"
 * (Azure OpenAI), "wait 30 seconds". Returns ms, or undefined.
 */
export function parseTryAgainIn(message: string): number | undefined {
  const m = WAIT_PHRASE.exec(message);
  if (!m) return undefined;
  let total = 0;
  for (const part of m[1].matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/gi)) {
    const n = Number(part[1]);
    const unit = part[2].toLowerCase();
    total +=
      unit === 'ms' || unit.startsWith('milli')
        ? n
        : unit[0] === 'h'
          ? n * 3_600_000
          : unit[0] === 'm'
            ? n * 60_000
            : n * 1000;
  }
  return Math.round(total);
}

/**
 * The wait a 429 asks for, ms: max(`statedMs` (a wait the error body gives in a field of its
 * own), Retry-After, retry-after-ms, "try again in"); when none of
 * them is present, the reset of the spent limit (rateLimitResetMs); else undefined. An explicit
 * wait wins over a reset time because it is what the server asks of this request. Jitter is
 * added by the caller.
 */
export function retryAfterMs(
  headers: HeaderBag,
  message: string,
  nowMs: number = Date.now(),
  statedMs?: number,
): number | undefined {
  const candidates = [
    statedMs,
    parseRetryAfterHeader(header(headers, 'retry-after'), nowMs),
    (() => {
      const raw = header(headers, 'retry-after-ms');
      return raw !== undefined && /^\d+(\.\d+)?$/.test(raw.trim())
        ? Math.round(Number(raw.trim()))
        : undefined;
    })(),
    parseTryAgainIn(message),
  ].filter((n): n is number => n !== undefined);
  return candidates.length ? Math.max(...candidates) : rateLimitResetMs(headers, nowMs);
}

/**
 * Detects a rate-limit message saying the single request is bigger than the whole window
 * ("Limit 15000, Used 11972, Requested 16000"): waiting can never help.
 * Returns {requested, limit} when Requested > Limit, else undefined.
 */
export function requestExceedsLimit(message: string): { requested: number; limit: number } | undefined {
  const limit = /\blimit[:\s]+(\d+)/i.exec(message);
  const requested = /\brequested[:\s]+(\d+)/i.exec(message);
  if (!limit || !requested) return undefined;
  const l = Number(limit[1]);
  const r = Number(requested[1]);
  return r > l ? { requested: r, limit: l } : undefined;
}
