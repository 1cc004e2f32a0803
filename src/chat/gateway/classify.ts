/**
 * Turning what went wrong into a GatewayError with a `kind` (docs/CHAT-AGENT.md "Gateway error
 * classes": the status is inspected before the body is parsed, and a bare 429
 * is transient, not "budget").
 */

import { lookupTable } from '../../common/lookup-table.js';
import { isDailyAllowance } from './budget-wording.js';
import { isContentRefusal } from './content-refusal.js';
import {
  cleanMessage,
  type DecodedError,
  decodeErrorPayload,
  htmlHeadings,
  isErrorPayload,
  looksLikeHtml,
  summarizeHtml,
} from './error-body.js';
import { framedErrorValue } from './framed-error-body.js';
import { GatewayError, type GatewayErrorInit, withRetryable } from './gateway-error.js';
import { refusalReason } from './refusal-reason.js';
import { relayHasNoChannel } from './relay-no-channel.js';
import { type HeaderBag, parseTryAgainIn, requestExceedsLimit, retryAfterMs } from './retry-after.js';
import { runnerStopped } from './runner-stopped.js';
import { classifyFailure, statusOf } from './transience.js';

export { hasBudgetMarker } from './budget-wording.js';

function contentType(headers: HeaderBag): string {
  const v = headers['content-type'];
  return (Array.isArray(v) ? v[0] : (v ?? '')).toLowerCase();
}

/** The body as JSON: one document, or the error an event-stream framed body carries. */
function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return framedErrorValue(text);
  }
}

/**
 * Wording of a request sent to an address that takes no chat requests: LM Studio answers a wrong
 * path with 200 and "Unexpected endpoint or method. (POST /chat/completions)", others say
 * "Invalid URL (POST /v1/chat)" or "route not found". Trying again cannot help; the endpoint URL
 * must change.
 */
const WRONG_ENDPOINT =
  /unexpected endpoint|invalid url \(|(?:endpoint|route|path) (?:not found|does not exist)|no (?:such|matching) (?:endpoint|route)|cannot post \//i;

/**
 * Wording of a server still loading its model: llama.cpp's server "Loading model", Hugging Face's
 * "Model … is currently loading". It will answer once loaded, which takes longer than a momentary
 * failure's retries. A load that failed ("error loading model: unable to load model" from Ollama and
 * llama.cpp, a broken or unsupported model file) is not in progress and is not among them.
 */
const MODEL_LOADING =
  /(?<!(?:error|fail(?:ed|ure)?|unable to|cannot|can't|could not|couldn't|while)\s+)\bloading model\b|\b(?:model|it) is (?:still |currently )?loading\b|\bis currently loading\b/i;

/** Which well-known, self-healing 400 this is, if any. */
function badRequestReason(text: string): string | undefined {
  if (
    /cache_control/i.test(text) &&
    /extra inputs|unknown field|unrecognized|not permitted|not allowed|unexpected/i.test(text)
  ) {
    return 'cache_control_rejected';
  }
  if (
    /content/i.test(text) &&
    /must be (?:a )?string|expected (?:a )?string|should be (?:a )?string/i.test(text)
  ) {
    return 'system_content_must_be_string';
  }
  if (/stream_options/i.test(text)) return 'stream_options_rejected';
  return undefined;
}

/**
 * Classifies a non-2xx response (or a 2xx whose body is not a reply).
 * Inputs: status line, response headers, body text (already capped). Output: a GatewayError;
 * nothing is thrown. Order: HTML/non-JSON is detected before any JSON parse; a 3xx is a
 * 'failed' / 'redirect' naming where it points;
 * 402, and 4xx with budget wording, are 'budget'; an answer the provider could not read (Groq's
 * 400 `tool_use_failed`, or any error carrying `failed_generation`) is 'failed' /
 * 'malformed_output', retryable; a bare 429 is 'rate_limited' with
 * `retryAfterMs` unless Requested > Limit ('failed', 'request_too_large'); a request longer than
 * the model's context is 'failed' / 'request_too_large' whatever the status (llama.cpp says 500);
 * a model too big for the memory of the machine serving it is 'failed' / 'model_too_large' (Ollama
 * says 500), and one the server's version cannot run (an unknown model architecture) 'failed' /
 * 'model_unsupported', neither retried;
 * 408 is 'timeout'; Cloudflare's 524 is 'timeout' / 'proxy_timeout', not retried; 5xx and HTML 2xx are 'unavailable' (retryable when classifyFailure says
 * transient; reason 'model_loading' for a server still loading its model, waited for longer);
 * other 4xx are 'failed' (not retryable) with a reason for the self-healing ones,
 * 'location_refused' for a provider or firewall refusing where the request comes from, 'auth' for
 * a 401, a 403 or a key refused by code or words, 'not_found' for a 404, a 405, an unknown model
 * or wording of a wrong address (refusal-reason.ts). A server's `x-should-retry: true | false`
 * header then decides whether it is retryable, whatever the status says.
 */
export function classifyHttpError(
  status: number,
  headers: HeaderBag,
  bodyText: string,
  nowMs: number = Date.now(),
): GatewayError {
  const err = classifyResponse(status, headers, bodyText, nowMs);
  const advice = serverRetryAdvice(headers);
  return advice === undefined || err.reason === 'redirect' ? err : withRetryable(err, advice);
}

/**
 * What the server says about sending the request again, in `x-should-retry: true | false`
 * (OpenAI's and Anthropic's APIs; proxies that retry upstream themselves answer `false` once their
 * retries are spent): it knows better than its status does, so its word decides. Undefined when
 * the header is absent or says neither.
 */
function serverRetryAdvice(headers: HeaderBag): boolean | undefined {
  const raw = headers['x-should-retry'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim().toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/** classifyHttpError without the server's own retry advice. */
function classifyResponse(status: number, headers: HeaderBag, bodyText: string, nowMs: number): GatewayError {
  const ct = contentType(headers);
  // the body decides, not the label: servers in PHP (and frameworks left at their default) send
  // JSON labelled text/html, and its error message must not be lost as a page without a title
  const html = looksLikeHtml(bodyText) || (ct.includes('html') && tryJson(bodyText) === undefined);
  let decoded: DecodedError | undefined;
  let summary: string | undefined;
  if (html) {
    summary = summarizeHtml(bodyText);
  } else {
    decoded = decodeErrorPayload(tryJson(bodyText));
    if (!decoded && bodyText.trim() !== '' && !ct.includes('json')) summary = cleanMessage(bodyText);
  }
  const providerText = decoded?.message || summary || '';
  const message = providerText ? `gateway HTTP ${status}: ${providerText}` : `gateway HTTP ${status}`;
  const base = {
    detail: decoded?.detail || summary,
    upstreamStatus: status,
    providerCode: decoded?.code,
    providerType: decoded?.metadataType ?? decoded?.type,
  };
  if (status >= 300 && status < 400) return redirectError(status, headers);
  if (decoded?.dailyQuota) return dailyQuotaSpent(message, base);
  const stated = statedWaitMs(decoded);
  const cls = classifyFailure({
    status,
    types: typesOf(decoded),
    message: providerText,
    waitStated: stated !== undefined,
    failedGeneration: decoded?.failedGeneration,
  });
  if (cls === 'budget')
    return new GatewayError('budget', message, {
      ...base,
      reason: 'budget',
      retryable: false,
      // when a daily allowance comes back, if the provider says (OpenRouter's X-RateLimit-Reset)
      retryAfterMs: isDailyAllowance(providerText)
        ? retryAfterMs({ ...decoded?.headers, ...headers }, providerText, nowMs, stated)
        : undefined,
    });
  if (cls === 'model_slip' && status !== 429)
    return modelSlip(message, { ...base, failedGeneration: decoded?.generation });
  if (isContentRefusal({ status, types: typesOf(decoded), message: decoded?.detail || providerText }))
    return contentRefused(message, base);
  if (relayHasNoChannel(decoded?.detail || providerText)) return noChannel(message, base);
  if (status === 429) {
    const tooLarge = requestExceedsLimit(providerText);
    if (tooLarge || cls === 'too_large') {
      const what = tooLarge ? ` (${tooLarge.requested} > ${tooLarge.limit})` : '';
      return new GatewayError(
        'failed',
        `the request is larger than the provider's limit${what}; ${message}`,
        {
          ...base,
          reason: 'request_too_large',
          retryable: false,
        },
      );
    }
    return new GatewayError('rate_limited', message, {
      ...base,
      reason: 'rate_limited',
      retryable: true,
      // the response's own headers win over those the body relays from further upstream
      retryAfterMs: retryAfterMs({ ...decoded?.headers, ...headers }, providerText, nowMs, stated),
    });
  }
  if (cls === 'too_large')
    return new GatewayError('failed', message, { ...base, reason: 'request_too_large', retryable: false });
  if (cls === 'unfit')
    return new GatewayError('failed', message, { ...base, reason: 'model_too_large', retryable: false });
  if (cls === 'unsupported')
    return new GatewayError('failed', message, { ...base, reason: 'model_unsupported', retryable: false });
  if (cls === 'template')
    return new GatewayError('failed', message, { ...base, reason: 'chat_template', retryable: false });
  if (status === 408)
    return new GatewayError('timeout', message, { ...base, reason: 'upstream_timeout', retryable: true });
  if (status === PROXY_GAVE_UP) return proxyTimeout(message, base);
  if (status >= 500 || (status >= 400 && cls === 'transient')) {
    const loading = cls === 'transient' && MODEL_LOADING.test(providerText);
    return new GatewayError('unavailable', message, {
      ...base,
      reason: html
        ? 'html'
        : loading
          ? 'model_loading'
          : runnerStopped(providerText)
            ? 'runner_stopped'
            : 'upstream_error',
      retryable: cls === 'transient',
      retryAfterMs: retryAfterMs(headers, '', nowMs, loading ? stated : undefined),
    });
  }
  if (status >= 400) {
    // 405: the address exists but takes no POST, so it is not the chat-completions path; a 400
    // may still say the key or the model is wrong, in its code or in words
    const reason =
      (status === 400 || status === 422 ? badRequestReason(providerText) : undefined) ??
      (status === 413 ? 'request_too_large' : undefined) ??
      refusalReason({
        status,
        types: typesOf(decoded),
        // a firewall's block page says what it is in its title and heading
        message: html ? `${providerText} ${htmlHeadings(bodyText)}` : providerText,
      }) ??
      (WRONG_ENDPOINT.test(providerText) ? 'not_found' : 'invalid_request');
    return new GatewayError('failed', message, { ...base, reason, retryable: false });
  }
  if (html) {
    // a web page with a success status is a wrong address or a network's sign-in page: asking
    // again gets the same page, so the person is told at once what to check
    return new GatewayError('unavailable', `gateway answered an HTML page${summary ? `: ${summary}` : ''}`, {
      ...base,
      reason: 'html',
      retryable: status >= 300,
    });
  }
  return new GatewayError('parse', `${message}: not a chat-completions reply`, {
    ...base,
    reason: 'unreadable',
  });
}

/**
 * The model's answer came out malformed (a tool call the provider's parser could not read; Groq
 * says so with 400 `tool_use_failed` and the raw output in `failed_generation`): nothing was wrong
 * with the request, and the model usually answers readably when asked again, so it is retryable
 * (within the retry budget, and never once answer text was shown) and never repaired.
 */
function modelSlip(message: string, init: GatewayErrorInit): GatewayError {
  return new GatewayError('failed', `the provider could not read the model's answer; ${message}`, {
    ...init,
    reason: 'malformed_output',
    retryable: true,
  });
}

/**
 * Cloudflare's 524 "A timeout occurred": the model's server took the request but sent no answer
 * within the time Cloudflare waits for one (100 s, 120 s on newer plans); a relay behind
 * Cloudflare, a tunnel to a home Ollama and reasoning models hit it. Asking again waits the same
 * 100 s and is cut the same way (three tries held the person five minutes before "unavailable"),
 * so it is told at once as a proxy's time limit, with what helps.
 */
const PROXY_GAVE_UP = 524;

/** The error for a proxy in front of the model's server that stopped waiting for it (524). */
function proxyTimeout(message: string, init: GatewayErrorInit): GatewayError {
  return new GatewayError('timeout', message, { ...init, reason: 'proxy_timeout', retryable: false });
}

/**
 * A quota counted per day is used up (Gemini's free tier: quotaId
 * `GenerateRequestsPerDayPerProjectPerModel-FreeTier`, often 20 or 50 requests a day): the retry
 * delay Google states beside it is seconds, but asking again fails until the next day, so it is
 * a spent allowance, never asked again, and never "busy, try again in about 25 seconds".
 */
function dailyQuotaSpent(message: string, init: GatewayErrorInit): GatewayError {
  return new GatewayError('budget', message, { ...init, reason: 'budget', retryable: false });
}

/**
 * A provider's content filter or moderation refused the request (content-refusal.ts): the same
 * words are refused again however often they are sent, so it is never retried, and whatever the
 * status (OpenRouter says 403) the key is not what is wrong.
 */
function contentRefused(message: string, init: GatewayErrorInit): GatewayError {
  return new GatewayError('failed', message, { ...init, reason: 'content_refused', retryable: false });
}

/**
 * A relay has no channel serving the model (relay-no-channel.ts): said with 503, but a setting
 * (the model name, or the relay's channels) is what must change, so it is not asked again.
 */
function noChannel(message: string, init: GatewayErrorInit): GatewayError {
  return new GatewayError('failed', message, { ...init, reason: 'no_channel', retryable: false });
}

/**
 * A redirect: node:http follows none, and sending the chat request again to wherever a 301, 302
 * or 303 points would turn it into a GET. The error names the address so the person can set
 * CHAT_ENDPOINT_URL to it; the client follows a 307 or 308 itself when it safely can
 * (client.ts). Not retryable: the same request gets the same redirect.
 */
function redirectError(status: number, headers: HeaderBag): GatewayError {
  const raw = headers.location;
  const location = (Array.isArray(raw) ? raw[0] : raw)?.trim() || undefined;
  const where = location ? ` to ${cleanMessage(location)}` : '';
  return new GatewayError(
    'failed',
    `the chat endpoint URL redirects (HTTP ${status})${where}; set CHAT_ENDPOINT_URL to the address it redirects to`,
    { upstreamStatus: status, reason: 'redirect', retryable: false, redirectTo: location },
  );
}

/**
 * Turns an error payload found inside a 200 reply (an SSE event or a JSON body) into a
 * GatewayError, or returns undefined when the payload is not an error (see isErrorPayload: an
 * `error`, or vLLM's and FastAPI's bare shapes beside no `choices`).
 * Budget wording gives 'budget'; a malformed answer (`tool_use_failed`, `failed_generation`) gives
 * 'failed' / 'malformed_output', retryable; wording of a wrong address (a server answering an unknown path
 * with 200 and an error) gives 'failed' / 'not_found'; a refused key or an unknown model, by its
 * numeric code (401, 403, 404), its code or type, or its words, gives 'failed' / 'auth' or
 * 'not_found' (refusal-reason.ts); everything else is 'failed', retryable when classifyFailure
 * (transience.ts, the same rule as for a status line) calls it transient: a 408/429/5xx code, a
 * transient type ('provider_unavailable', 'overloaded_error' ...) or, without either, wording
 * such as "Overloaded"; never for 400-class, `validation` or context-length errors.
 * `partialText` is the answer text received before the error.
 */
export function classifyErrorPayload(
  payload: unknown,
  partialText?: string,
  nowMs: number = Date.now(),
): GatewayError | undefined {
  if (!isErrorPayload(payload)) return undefined;
  const d = decodeErrorPayload(payload);
  if (!d) return undefined;
  const types = typesOf(d);
  const numeric = statusOf(d.code);
  const message = `provider error${numeric ? ` ${numeric}` : ''}: ${d.message || d.type || 'unknown'}`;
  const init = {
    detail: d.detail,
    providerCode: d.code,
    providerType: d.metadataType ?? d.type,
    partialText: partialText || undefined,
    inReply: true,
  };
  if (d.dailyQuota) return dailyQuotaSpent(message, init);
  const stated = statedWaitMs(d);
  const signs = {
    status: numeric,
    types,
    message: d.message,
    waitStated: stated !== undefined,
    failedGeneration: d.failedGeneration,
  };
  const cls = classifyFailure(signs);
  if (cls === 'budget')
    return new GatewayError('budget', message, {
      ...init,
      reason: 'budget',
      retryable: false,
      retryAfterMs: isDailyAllowance(d.message)
        ? retryAfterMs(d.headers ?? {}, d.message, nowMs, stated)
        : undefined,
    });
  if (cls === 'model_slip') return modelSlip(message, { ...init, failedGeneration: d.generation });
  if (isContentRefusal({ ...signs, message: d.detail || d.message })) return contentRefused(message, init);
  if (relayHasNoChannel(d.detail || d.message)) return noChannel(message, init);
  if (cls === 'unfit')
    return new GatewayError('failed', message, { ...init, reason: 'model_too_large', retryable: false });
  if (cls === 'unsupported')
    return new GatewayError('failed', message, { ...init, reason: 'model_unsupported', retryable: false });
  if (cls === 'template')
    return new GatewayError('failed', message, { ...init, reason: 'chat_template', retryable: false });
  if (WRONG_ENDPOINT.test(d.message)) {
    // a server that answers a wrong path with a success status and an error body
    return new GatewayError('failed', message, { ...init, reason: 'not_found', retryable: false });
  }
  const transient = cls === 'transient';
  const settings = transient || cls === 'too_large' ? undefined : refusalReason(signs);
  if (settings) {
    // a wrong key or an unknown model said inside a success reply: the same advice as for a 401 or 404
    return new GatewayError('failed', message, { ...init, reason: settings, retryable: false });
  }
  const validation = types.some((t) => /validation|invalid/i.test(t));
  // a rate limit reported inside the stream is told to the person like one in the status line:
  // "busy, try again in N" with the wait the provider asked for, when the retries run out
  if (transient && (numeric === 429 || types.some((t) => /rate.?limit/i.test(t)))) {
    return new GatewayError('rate_limited', message, {
      ...init,
      reason: 'rate_limited',
      retryable: true,
      retryAfterMs: retryAfterMs(d.headers ?? {}, d.message, nowMs, stated),
    });
  }
  if (transient && MODEL_LOADING.test(d.message)) {
    return new GatewayError('failed', message, {
      ...init,
      reason: 'model_loading',
      retryable: true,
      retryAfterMs: stated,
    });
  }
  return new GatewayError('failed', message, {
    ...init,
    reason:
      cls === 'too_large'
        ? 'request_too_large'
        : validation
          ? 'validation'
          : runnerStopped(d.message)
            ? 'runner_stopped'
            : 'provider_error',
    retryable: transient,
    // a rate limit reported inside the stream may say how long to wait ("try again in 5.3s")
    retryAfterMs: transient ? retryAfterMs(d.headers ?? {}, d.message, nowMs, stated) : undefined,
  });
}

/**
 * The wait an error body states itself, ms: a retry delay in a field of its own, or one in its
 * words ("Please retry in 26s", read from the whole text, since the message shown is cut short).
 */
function statedWaitMs(d: DecodedError | undefined): number | undefined {
  if (!d) return undefined;
  const said = parseTryAgainIn(d.detail || d.message);
  if (said === undefined) return d.retryDelayMs;
  return Math.max(said, d.retryDelayMs ?? 0);
}

/** The code and type strings of a decoded error, as the failure classifier reads them. */
function typesOf(d: DecodedError | undefined): string[] {
  if (!d) return [];
  return [d.type, d.metadataType, typeof d.code === 'string' ? d.code : undefined].filter(
    (t): t is string => !!t,
  );
}

/** Network error codes that mean "nobody answered" or "the connection went away". */
const CONNECTION_CODES = lookupTable<string>({
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  ECONNABORTED: 'connection_reset',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ETIMEDOUT: 'connect_timeout',
});

/**
 * TLS failures of a peer that speaks no TLS: https:// written for a server that answers plain
 * http (OpenSSL's "wrong version number", "packet length too long", "http request").
 */
const NOT_TLS = /wrong version number|packet length too long|http request|unknown protocol/i;

/**
 * Classifies a transport error from node:http(s) (no response, or the response died).
 * Connection refused/reset, DNS and unreachable hosts are 'unavailable' (retryable except for
 * an unknown host name); TLS failures are 'unavailable' with reason 'tls', not retryable, and
 * 'not_tls' when the server at the address speaks plain http; a reply Node's HTTP parser cannot
 * read (HPE_ codes) is 'parse' / 'bad_http', not retryable. `url`, when given, names the
 * endpoint's origin on the error, for the person to check.
 */
export function classifyNetworkError(err: unknown, url?: URL): GatewayError {
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? '';
  if (code.startsWith('HPE_')) {
    // the server answered, in bytes that are not HTTP even read leniently: it is there, and
    // will answer the same way again
    return new GatewayError(
      'parse',
      `the gateway's reply is not readable HTTP: ${cleanMessage(e?.message ?? code)}`,
      { reason: 'bad_http', retryable: false, cause: err },
    );
  }
  const notTls = url?.protocol === 'https:' && code === 'EPROTO' && NOT_TLS.test(e?.message ?? '');
  const reason = notTls
    ? 'not_tls'
    : (CONNECTION_CODES[code] ??
      (/socket hang up|aborted/i.test(e?.message ?? '') ? 'connection_reset' : undefined) ??
      (/CERT|TLS|SSL|SELF_SIGNED/i.test(code) ? 'tls' : 'network'));
  return new GatewayError('unavailable', `gateway unreachable: ${cleanMessage(e?.message ?? String(err))}`, {
    reason,
    retryable: reason !== 'tls' && reason !== 'not_tls' && code !== 'ENOTFOUND',
    cause: err,
    endpoint: url?.origin,
  });
}
