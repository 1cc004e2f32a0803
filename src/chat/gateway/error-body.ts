/**
 * Reading an error out of whatever a gateway sends: `{error:{...}}`, `[{error:{...}}]`
 * (Gemini), `{error:"text", error_type}` (HF TGI), vLLM's
 * `{object:"error", message, type, code}`, FastAPI's `{detail}` (also `{detail: {error: {...}}}`),
 * an error wrapped once more (`{error:{error:{...}}}`), MiniMax's `{base_resp: {status_code,
 * status_msg}}` beside no choices, API gateways' `{message}`,
 * `{statusCode, message}`, `{errors:[...]}` and `{error:[...]}`, relays' `{code, msg}`; and a short, safe summary of an
 * HTML error page (never pass raw HTML on).
 */

import { clipGraphemes, headGraphemes } from '../../common/graphemes.js';
import { GATEWAY_MAX_ERROR_DETAIL_CHARS, GATEWAY_MAX_ERROR_MESSAGE_CHARS } from '../../limits.js';
import { blankError } from './blank-error.js';
import { jsonTextValue } from './reply-envelope.js';

/** The parts of an error payload the classifier looks at. */
export interface DecodedError {
  /** Human-readable message, cleaned and capped (may be ''). */
  message: string;
  /** The whole message, flattened from whatever shape it had, capped at GATEWAY_MAX_ERROR_DETAIL_CHARS. */
  detail: string;
  /** `type`, else `status` (e.g. INVALID_ARGUMENT), else `error_type`, else a string `code`. */
  type?: string;
  /** `code` as given: a number (502) or a string ('rate_limit_exceeded'). */
  code?: string | number;
  /** `metadata.error_type` (OpenRouter: 'provider_unavailable'). */
  metadataType?: string;
  /**
   * Response headers of the upstream provider relayed inside the error (OpenRouter's
   * `metadata.headers`, which carries `X-RateLimit-Reset`), names lower-cased.
   */
  headers?: Record<string, string>;
  /**
   * The wait the body states in a field of its own, ms: Google's `RetryInfo` entry of `details`
   * (`retryDelay: "26s"`), which Gemini sends with a per-minute quota; Hugging Face's
   * `estimated_time` of a model still loading.
   */
  retryDelayMs?: number;
  /**
   * The error carries the model's own output that the provider could not read (Groq's
   * `failed_generation`, sent with a malformed tool call): the model slipped, the request was fine.
   */
  failedGeneration?: boolean;
  /** That output as the provider quoted it, when it is text. */
  generation?: string;
  /**
   * The quota the request exceeded is counted per day (Google's `QuotaFailure` entry of `details`
   * with a quotaId such as `GenerateRequestsPerDayPerProjectPerModel-FreeTier`): the retry delay
   * Google states beside it (seconds) does not bring it back; the next day does.
   */
  dailyQuota?: boolean;
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * Cleans a provider message for logs and the browser: control characters become spaces, runs
 * of whitespace collapse, the result is capped at GATEWAY_MAX_ERROR_MESSAGE_CHARS chars.
 */
export function cleanMessage(text: string): string {
  const flat = text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clipGraphemes(flat, GATEWAY_MAX_ERROR_MESSAGE_CHARS);
}

/**
 * An error message as text, whatever its shape: a string as is; a validation entry
 * (`{loc, msg}`) as `body.messages.3.name: Extra inputs are not permitted`; a list joined with
 * "; "; another object by its message-like fields (`message`, `msg`, `detail`, `error`), else as
 * JSON. Providers put the message in a string, an object or a list, and a repair needs the field
 * it names whichever it is.
 */
export function flattenErrorText(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined || depth > 4) return '';
  if (Array.isArray(value))
    return value
      .map((v) => flattenErrorText(v, depth + 1))
      .filter((t) => t !== '')
      .join('; ');
  if (typeof value !== 'object') return String(value);
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.loc) && typeof o.msg === 'string') return `${o.loc.join('.')}: ${o.msg}`;
  for (const key of ['message', 'msg', 'detail', 'error']) {
    const text = flattenErrorText(o[key], depth + 1);
    if (text !== '') return text;
  }
  return JSON.stringify(value);
}

function decoded(text: string, rest: Omit<DecodedError, 'message' | 'detail'>): DecodedError {
  return {
    message: cleanMessage(text),
    // cut by user-perceived characters so a provider's emoji or accented text is never split in half
    detail:
      text.length > GATEWAY_MAX_ERROR_DETAIL_CHARS
        ? headGraphemes(text, GATEWAY_MAX_ERROR_DETAIL_CHARS)
        : text,
    ...rest,
  };
}

/**
 * Decodes an error payload (already JSON-parsed). Returns undefined when the value carries no
 * recognisable error (then it is not an error payload). Accepts the shapes listed at the top of
 * this file ("accept {error:{...}}, [{error:{...}}], and error given as a string").
 */
export function decodeErrorPayload(payload: unknown): DecodedError | undefined {
  // an error body encoded once more as a JSON string is the error it holds
  const decodedText = jsonTextValue(payload);
  if (decodedText !== undefined) return decodeErrorPayload(decodedText);
  if (Array.isArray(payload)) {
    for (const item of payload) {
      const d = decodeErrorPayload(item);
      if (d) return d;
    }
    return undefined;
  }
  const body = asRecord(payload);
  if (!body) return undefined;
  const err = blankError(body.error) ? undefined : body.error;
  if (typeof err === 'string') {
    const rest = { type: str(body.error_type) ?? str(body.type), code: codeOf(body.code) };
    const out = innerError(err, rest) ?? decoded(err, rest);
    // Hugging Face's estimate of how long its model still takes to load, seconds
    if (typeof body.estimated_time === 'number' && body.estimated_time > 0)
      out.retryDelayMs = Math.round(body.estimated_time * 1000);
    return out;
  }
  if (Array.isArray(err) && err.length > 0) {
    // a list of errors under `error` (Cloudflare's AI Gateway): their messages, the first code
    const text = flattenErrorText(err);
    if (text !== '') return decoded(text, { code: codeOf(asRecord(err[0])?.code) });
  }
  const e = asRecord(err);
  if (e) {
    // a proxy that wrapped the provider's whole error body once more: the inner error says it
    if (asRecord(e.error) && !str(e.message) && !str(e.msg)) {
      const inner = decodeErrorPayload(e);
      if (inner && inner.message !== '') return inner;
    }
    const meta = asRecord(e.metadata);
    const code = codeOf(e.code);
    const own = flattenErrorText(e.message) || flattenErrorText(e.msg);
    const rest = {
      type:
        str(e.type) ?? str(e.status) ?? str(e.error_type) ?? (typeof code === 'string' ? code : undefined),
      code,
      metadataType: str(meta?.error_type),
    };
    const upstream = relayedProviderError(meta, rest);
    const out =
      (own !== '' && upstream ? withUpstream(own, upstream, str(meta?.provider_name)) : undefined) ??
      upstream ??
      innerError(own || flattenErrorText(e.detail), rest) ??
      decoded(own || flattenErrorText(e.detail), rest);
    const relayed = relayedHeaders(meta?.headers);
    if (relayed) out.headers = relayed;
    const delay = retryInfoDelayMs(e.details);
    if (delay !== undefined) out.retryDelayMs = Math.max(delay, out.retryDelayMs ?? 0);
    if (e.failed_generation !== undefined && e.failed_generation !== null) out.failedGeneration = true;
    if (typeof e.failed_generation === 'string' && e.failed_generation.trim() !== '')
      out.generation = e.failed_generation;
    if (quotaPerDay(e.details) || PER_DAY_QUOTA_ID.test(out.detail)) out.dailyQuota = true;
    return out;
  }
  const status = statusEnvelopeError(body);
  if (status) return status;
  // vLLM / FastAPI shapes: no `error` key at all.
  if (
    body.object === 'error' ||
    (body.message !== undefined &&
      body.message !== null &&
      (body.type !== undefined || body.code !== undefined))
  ) {
    const code = codeOf(body.code);
    return decoded(flattenErrorText(body.message) || flattenErrorText(body.detail), {
      type: str(body.type) ?? (typeof code === 'string' ? code : undefined),
      code,
    });
  }
  if (typeof body.detail === 'string' || Array.isArray(body.detail))
    return decoded(flattenErrorText(body.detail), {});
  if (asRecord(body.detail)) {
    // a FastAPI server that raised its error body as the exception's detail: `{detail: {error: {...}}}`
    const inner = decodeErrorPayload(body.detail);
    if (inner) return inner;
  }
  // API gateways in front of the model answer in their own shapes: `{message}` (Kong, AWS API
  // Gateway, also as `Message`), `{statusCode, message}` (Azure API Management), `{errors: [...]}`
  // (Cloudflare); the message is what tells the person which key or limit it is
  const gatewayText =
    flattenErrorText(body.message) ||
    flattenErrorText(body.Message) ||
    flattenErrorText(body.msg) ||
    flattenErrorText(body.errors);
  if (gatewayText !== '') return decoded(gatewayText, { code: codeOf(body.code ?? body.statusCode) });
  return undefined;
}

/**
 * The HTTP status a MiniMax `base_resp.status_code` stands for: a rate limit (requests, tokens or
 * connections per minute), a refused key, a spent balance, an invalid parameter, an internal
 * error or timeout. Other codes are passed on as they are.
 */
const STATUS_CODE_AS_HTTP: Record<number, number> = {
  1000: 500,
  1001: 504,
  1002: 429,
  1004: 401,
  1008: 402,
  1013: 500,
  1039: 429,
  1041: 429,
  2013: 400,
  2045: 429,
  2049: 401,
  2056: 402,
};

/**
 * The error a provider's own status envelope reports: MiniMax's `base_resp: {status_code,
 * status_msg}`, sent with HTTP 200 and `choices: null` when the request failed (a reply that
 * worked carries `status_code: 0`); undefined when the body has none or it says success.
 */
function statusEnvelopeError(body: Record<string, unknown>): DecodedError | undefined {
  const base = asRecord(body.base_resp);
  const code = base?.status_code;
  if (typeof code !== 'number' || code === 0) return undefined;
  return decoded(str(base?.status_msg) ?? `status ${code}`, { code: STATUS_CODE_AS_HTTP[code] ?? code });
}

/**
 * True when a payload that came with a success status is an error report rather than a reply or a
 * stream chunk: it carries an `error` (not null or false), or, holding no `choices`, it is
 * vLLM's bare `{object: "error", message, type, code}`, FastAPI's `{detail}` (text, a list of
 * validation entries, or an object), a `{message | msg, type | code}` pair (a code saying success,
 * 0 or 200, makes it a wrapper's envelope, not an error), or an envelope with `success: false`
 * and an error in it, or a provider status envelope saying it failed (MiniMax's `base_resp`)
 * beside no choices. A chunk or reply with `choices` is never
 * one by these looser shapes, and neither is a body whose `message` is an object (a chat message).
 */
export function isErrorPayload(payload: unknown): boolean {
  if (Array.isArray(payload)) return payload.some(isErrorPayload);
  const body = asRecord(payload);
  if (!body) return false;
  if (!blankError(body.error)) return true;
  const replied = Array.isArray(body.choices) && body.choices.length > 0;
  if (!replied && statusEnvelopeError(body) !== undefined) return true;
  if ('choices' in body) return false;
  if (body.object === 'error') return true;
  const detail = body.detail;
  if ((typeof detail === 'string' && detail.trim() !== '') || (Array.isArray(detail) && detail.length > 0))
    return true;
  if (asRecord(detail) && decodeErrorPayload(detail) !== undefined) return true;
  // an envelope that says it failed: Cloudflare's `{success: false, errors: [...], result: null}`
  if (body.success === false && decodeErrorPayload(body) !== undefined) return true;
  const message = typeof body.message === 'string' ? body.message : body.msg;
  if (typeof message !== 'string') return false;
  // `{code: 0, message: "success", data}`: a wrapper's envelope around something else, not an
  // error; `{code: 10001, msg: "..."}` (a relay's envelope with no reply in it) is one
  if (body.code !== undefined) return !/^(?:0|200|ok|success)$/i.test(String(body.code).trim());
  return body.type !== undefined;
}

/**
 * The error a message holds as JSON text: a proxy that caught the provider's error body and
 * passed it on as the message of its own (`{"error": {"message": "{\n \"error\": {...}}",
 * "code": 429}}`). The inner error's words, type and stated wait are what the person and the
 * classifier need; the outer code and type fill in what the inner one lacks. Undefined when the
 * text is no such document.
 */
function innerError(text: string, outer: Omit<DecodedError, 'message' | 'detail'>): DecodedError | undefined {
  const t = text.trim();
  if (t[0] !== '{' && t[0] !== '[') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch {
    return undefined;
  }
  const inner = decodeErrorPayload(parsed);
  if (!inner || inner.message === '') return undefined;
  return {
    ...inner,
    type: inner.type ?? outer.type,
    code: inner.code ?? outer.code,
    metadataType: inner.metadataType ?? outer.metadataType,
  };
}

/**
 * The upstream provider's own error a relay passed on in `metadata.raw` (OpenRouter's "Provider
 * returned error"): its JSON error body held as a string, or plain text (an HTML page reduced to
 * its title); undefined when there is none. The provider's type is kept (the relay's when it gives
 * none); the relay's numeric code is kept, since it is the status the failure counts as.
 */
function relayedProviderError(
  meta: Record<string, unknown> | undefined,
  outer: Omit<DecodedError, 'message' | 'detail'>,
): DecodedError | undefined {
  const raw = str(meta?.raw)?.trim();
  if (raw === undefined || raw === '') return undefined;
  const inner = innerError(raw, outer);
  if (inner) return typeof outer.code === 'number' ? { ...inner, code: outer.code } : inner;
  if (raw[0] === '{' || raw[0] === '[') return undefined;
  return decoded(looksLikeHtml(raw) ? (summarizeHtml(raw) ?? '') : raw, outer);
}

/**
 * A relay's own message joined with the provider's words it relayed (`Provider returned error
 * (Crucible): <the provider's message>`); the relay's message alone when it already says them.
 */
function withUpstream(own: string, upstream: DecodedError, provider: string | undefined): DecodedError {
  const { message, detail, ...rest } = upstream;
  if (message === '' || cleanMessage(own).includes(message)) return decoded(own, rest);
  return decoded(`${own}${provider ? ` (${provider})` : ''}: ${detail}`, rest);
}

/**
 * A Google quota counted per day, as its quotaId names it (`GenerateRequestsPerDayPerProjectPerModel-FreeTier`,
 * `GenerateContentInputTokensPerDay…`), also when a relay passes the error on as text.
 */
const PER_DAY_QUOTA_ID = /\b[A-Z]\w*PerDayPer(?:Project|User|Model)\w*/;

/** True when a Google `QuotaFailure` entry of `details` names a quota counted per day. */
function quotaPerDay(details: unknown): boolean {
  if (!Array.isArray(details)) return false;
  return details.some((item) => {
    const violations = asRecord(item)?.violations;
    return (
      Array.isArray(violations) &&
      violations.some((v) => {
        const id = asRecord(v)?.quotaId;
        return typeof id === 'string' && /PerDay/i.test(id);
      })
    );
  });
}

/**
 * The retry delay of a Google `RetryInfo` entry in an error's `details`, ms: a Duration as JSON
 * text (`"26s"`, `"1.5s"`) or as `{seconds, nanos}`; undefined when there is none.
 */
function retryInfoDelayMs(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const item of details) {
    const delay = asRecord(item)?.retryDelay;
    if (typeof delay === 'string') {
      const m = /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(delay);
      if (m) return Math.round(Number(m[1]) * 1000);
    }
    const d = asRecord(delay);
    if (d && (typeof d.seconds === 'number' || typeof d.seconds === 'string')) {
      const ms = Number(d.seconds) * 1000 + (typeof d.nanos === 'number' ? d.nanos / 1e6 : 0);
      if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
    }
  }
  return undefined;
}

/** Headers relayed in an error body, names lower-cased, values as text; undefined when none. */
function relayedHeaders(v: unknown): Record<string, string> | undefined {
  const h = asRecord(v);
  if (!h) return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h)) {
    if (typeof value === 'string' || typeof value === 'number') out[name.toLowerCase()] = String(value);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function codeOf(v: unknown): string | number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return str(v);
}

/** True when the text looks like an HTML document rather than JSON or SSE. */
export function looksLikeHtml(text: string): boolean {
  return /^\s*<(!doctype|html|head|body|\?xml|title|div|h1|p\b)/i.test(text);
}

/**
 * The whole title and first heading of an HTML page, cleaned, joined with " · " ('' when it has
 * neither): more than summarizeHtml keeps, for telling what kind of page it is (a firewall's block
 * page names itself in its title and says so in its heading).
 */
export function htmlHeadings(html: string): string {
  return [/<title[^>]*>([\s\S]*?)<\/title>/i, /<h1[^>]*>([\s\S]*?)<\/h1>/i]
    .map((re) => re.exec(html)?.[1])
    .filter((t): t is string => t !== undefined)
    .map((t) => cleanMessage(t.replace(/<[^>]*>/g, ' ')))
    .filter((t) => t !== '')
    .join(' · ');
}

/**
 * A short summary of an HTML error page: its `<title>`, without a leading "host | " part
 * ("api.openai.com | 502: Bad gateway" becomes "502: Bad gateway"), else its first
 * `<h1>`, else undefined. Tags and entities are removed; the result is capped.
 */
export function summarizeHtml(html: string): string | undefined {
  const pick = (re: RegExp): string | undefined => {
    const m = re.exec(html);
    if (!m) return undefined;
    const text = m[1]
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&#39;|&apos;/g, "'")
      .replace(/&quot;/g, '"');
    const cleaned = cleanMessage(text);
    return cleaned === '' ? undefined : cleaned;
  };
  const title = pick(/<title[^>]*>([\s\S]*?)<\/title>/i);
  if (title) {
    const parts = title.split(' | ');
    return parts[parts.length - 1].trim() || title;
  }
  return pick(/<h1[^>]*>([\s\S]*?)<\/h1>/i);
}
