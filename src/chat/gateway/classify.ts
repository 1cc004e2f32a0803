/**
 * Turning what went wrong into a GatewayError with a `kind` (docs/CHAT-AGENT.md "Gateway error
 * classes": the status is inspected before the body is parsed, and a bare 429
 * is transient, not "budget").
 */
import {
  cleanMessage,
  type DecodedError,
  decodeErrorPayload,
  looksLikeHtml,
  summarizeHtml,
} from './error-body.js';
import { GatewayError } from './gateway-error.js';
import { type HeaderBag, requestExceedsLimit, retryAfterMs } from './retry-after.js';

/**
 * Wording that means the allowance is used up rather than a momentary rate limit
 * ("budget has been exceeded", "insufficient_quota", "quota exceeded").
 */
const BUDGET_MARKERS: RegExp[] = [
  /budget (?:has been |was )?exceeded/i,
  /exceeded (?:your |the )?(?:max(?:imum)? )?budget/i,
  /budget_exceeded/i,
  /insufficient[_ ]quota/i,
  /quota (?:has been |was )?exceeded/i,
  /exceeded (?:your |the )?(?:current )?quota/i,
  /insufficient (?:credits|balance|funds)/i,
];

/** True when the text carries budget/quota wording (see BUDGET_MARKERS). */
export function hasBudgetMarker(text: string): boolean {
  return BUDGET_MARKERS.some((re) => re.test(text));
}

/** Provider error codes/types after which the same request may be sent again. */
const RETRYABLE_TYPES = new Set([
  'provider_unavailable',
  'server_error',
  'internal_error',
  'internal_server_error',
  'api_error',
  'overloaded',
  'overloaded_error',
  'server_is_overloaded',
  'service_unavailable',
  'unavailable',
  'timeout',
  'rate_limit_exceeded',
  'rate_limit_error',
  'resource_exhausted',
]);

function contentType(headers: HeaderBag): string {
  const v = headers['content-type'];
  return (Array.isArray(v) ? v[0] : (v ?? '')).toLowerCase();
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

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
 * 402, and 400/403/429 with budget wording, are 'budget'; a bare 429 is 'rate_limited' with
 * `retryAfterMs` unless Requested > Limit ('failed', 'request_too_large');
 * 408 is 'timeout'; 5xx and HTML 2xx are 'unavailable' (retryable); other 4xx are 'failed'
 * (not retryable) with a reason for the self-healing ones.
 */
export function classifyHttpError(
  status: number,
  headers: HeaderBag,
  bodyText: string,
  nowMs: number = Date.now(),
): GatewayError {
  const ct = contentType(headers);
  const html = ct.includes('html') || looksLikeHtml(bodyText);
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
  const markerText = `${providerText} ${decoded?.type ?? ''} ${decoded?.code ?? ''}`;

  if (status >= 300 && status < 400) return redirectError(status, headers);
  if (status === 402 || ([400, 403, 429].includes(status) && hasBudgetMarker(markerText))) {
    return new GatewayError('budget', message, { ...base, reason: 'budget', retryable: false });
  }
  if (status === 429) {
    const tooLarge = requestExceedsLimit(providerText);
    if (tooLarge) {
      return new GatewayError(
        'failed',
        `the request is larger than the provider's limit (${tooLarge.requested} > ${tooLarge.limit}); ${message}`,
        { ...base, reason: 'request_too_large', retryable: false },
      );
    }
    return new GatewayError('rate_limited', message, {
      ...base,
      reason: 'rate_limited',
      retryable: true,
      retryAfterMs: retryAfterMs(headers, providerText, nowMs),
    });
  }
  if (status === 408)
    return new GatewayError('timeout', message, { ...base, reason: 'upstream_timeout', retryable: true });
  if (status >= 500) {
    return new GatewayError('unavailable', message, {
      ...base,
      reason: html ? 'html' : 'upstream_error',
      retryable: status !== 501 && status !== 505,
      retryAfterMs: retryAfterMs(headers, '', nowMs),
    });
  }
  if (status >= 400) {
    const reason =
      (status === 400 || status === 422 ? badRequestReason(providerText) : undefined) ??
      (status === 401 || status === 403
        ? 'auth'
        : status === 404
          ? 'not_found'
          : status === 413
            ? 'request_too_large'
            : 'invalid_request');
    return new GatewayError('failed', message, { ...base, reason, retryable: false });
  }
  if (html) {
    return new GatewayError('unavailable', `gateway answered an HTML page${summary ? `: ${summary}` : ''}`, {
      ...base,
      reason: 'html',
      retryable: true,
    });
  }
  return new GatewayError('parse', `${message}: not a chat-completions reply`, {
    ...base,
    reason: 'unreadable',
  });
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
 * GatewayError, or returns undefined when the payload has no `error`.
 * Budget wording gives 'budget'; everything else is 'failed', retryable when the code is
 * 408/429/5xx or the type is transient ('provider_unavailable' ...), never for 400-class or
 * `validation` errors. `partialText` is the answer text received before the error.
 */
export function classifyErrorPayload(payload: unknown, partialText?: string): GatewayError | undefined {
  const rec =
    typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : undefined;
  const hasError =
    Array.isArray(payload) ||
    (rec !== undefined && rec.error !== undefined && rec.error !== null && rec.error !== false);
  if (!hasError) return undefined;
  const d = decodeErrorPayload(payload);
  if (!d) return undefined;
  const types = [d.type, d.metadataType, typeof d.code === 'string' ? d.code : undefined]
    .filter((t): t is string => !!t)
    .map((t) => t.toLowerCase());
  const numeric =
    typeof d.code === 'number'
      ? d.code
      : typeof d.code === 'string' && /^\d{3}$/.test(d.code)
        ? Number(d.code)
        : undefined;
  const message = `provider error${numeric ? ` ${numeric}` : ''}: ${d.message || d.type || 'unknown'}`;
  const init = {
    detail: d.detail,
    providerCode: d.code,
    providerType: d.metadataType ?? d.type,
    partialText: partialText || undefined,
  };
  if (hasBudgetMarker(`${d.message} ${types.join(' ')}`)) {
    return new GatewayError('budget', message, { ...init, reason: 'budget', retryable: false });
  }
  const validation = types.some((t) => t.includes('validation') || t.includes('invalid'));
  // a prompt too long for the model is refused again however often it is sent, whatever code
  // the server gives it (llama.cpp's server says 500)
  const tooLarge = CONTEXT_EXCEEDED.test(`${d.message} ${types.join(' ')}`);
  const retryable =
    !validation &&
    !tooLarge &&
    ((numeric !== undefined && (numeric === 408 || numeric === 429 || numeric >= 500)) ||
      types.some((t) => RETRYABLE_TYPES.has(t)));
  return new GatewayError('failed', message, {
    ...init,
    reason: validation ? 'validation' : tooLarge ? 'request_too_large' : 'provider_error',
    retryable,
  });
}

/** Wording of a request longer than the model's context ("exceeds the available context size", "prompt is too long"). */
const CONTEXT_EXCEEDED =
  /exceed\w*[\s_]+(?:the\s+)?(?:available\s+|maximum\s+|max\s+)?context|context[\s_]+(?:length|size|window)[\s_]+exceeded|prompt is too long|too many (?:input )?tokens|maximum context length/i;

/** Network error codes that mean "nobody answered" or "the connection went away". */
const CONNECTION_CODES: Record<string, string> = {
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
};

/**
 * Classifies a transport error from node:http(s) (no response, or the response died).
 * Connection refused/reset, DNS and unreachable hosts are 'unavailable' (retryable except for
 * an unknown host name); TLS failures are 'unavailable' with reason 'tls', not retryable.
 */
export function classifyNetworkError(err: unknown): GatewayError {
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? '';
  const reason =
    CONNECTION_CODES[code] ??
    (/socket hang up|aborted/i.test(e?.message ?? '') ? 'connection_reset' : undefined) ??
    (/CERT|TLS|SSL|SELF_SIGNED/i.test(code) ? 'tls' : 'network');
  return new GatewayError('unavailable', `gateway unreachable: ${cleanMessage(e?.message ?? String(err))}`, {
    reason,
    retryable: reason !== 'tls' && code !== 'ENOTFOUND',
    cause: err,
  });
}
