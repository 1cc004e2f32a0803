/**
 * The one error the gateway client throws for a failed round-trip. `kind` says what class of
 * failure it is (docs/CHAT-AGENT.md "Gateway error classes"), `reason`
 * narrows it for the few cases the client or loop acts on.
 */
import { KlebbError } from '../../errors.js';

/**
 * - 'budget': the allowance is used up (429/402 with budget or quota wording); not retryable.
 * - 'rate_limited': a bare 429; transient, `retryAfterMs` says how long to wait.
 * - 'unavailable': 5xx, HTML error pages, refused/reset connections, truncated streams.
 * - 'timeout': our idle or whole-call timeout fired, or the gateway answered 408.
 * - 'parse': the reply could not be read as chat-completions at all.
 * - 'empty': a well-formed reply with no text and no tool call.
 * - 'failed': in-stream provider error, content_filter, length-cut tool call, other 4xx.
 */
export type GatewayErrorKind =
  | 'budget'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'parse'
  | 'empty'
  | 'failed';

/**
 * HTTP status our API would answer with for each kind if the loop does not turn it into copy
 * (budget 429, timeout 504, unavailable and bare 429 502, parse 500).
 */
const STATUS_BY_KIND: Record<GatewayErrorKind, number> = {
  budget: 429,
  rate_limited: 502,
  unavailable: 502,
  timeout: 504,
  parse: 500,
  empty: 502,
  failed: 502,
};

/** Fields of a GatewayError beyond kind and message. */
export interface GatewayErrorInit {
  /**
   * Narrower cause, e.g. 'truncated', 'idle_timeout', 'call_timeout', 'connection_refused',
   * 'html', 'validation', 'provider_error', 'content_filter', 'content_refused', 'length', 'reasoning_length', 'reasoning_only', 'credit_length', 'request_too_large',
   * 'system_content_must_be_string', 'cache_control_rejected', 'bad_history'.
   */
  reason?: string;
  /** Status line of the gateway's response, when there was one. */
  upstreamStatus?: number;
  /** May the same request be sent again (after a wait)? */
  retryable?: boolean;
  /** How long the gateway asked us to wait, ms (Retry-After and friends). */
  retryAfterMs?: number;
  /** The provider's error `code` (number or string), e.g. 502 for an upstream failure reported inside the stream. */
  providerCode?: string | number;
  /** The provider's error type, e.g. 'provider_unavailable', 'validation', 'tokens'. */
  providerType?: string;
  /** The provider's whole error text (flattened, capped), for finding what a refusal names. */
  detail?: string;
  /** Answer text already received (and streamed) before the failure. */
  partialText?: string;
  /** The underlying error (network error, parse error). */
  cause?: unknown;
  /** Where a redirect (3xx) points, resolved against the endpoint URL. */
  redirectTo?: string;
  /**
   * The failure was reported inside a reply that came with a success status (a JSON body or an
   * event of a stream), not in the status line; `providerCode` then holds the status it names.
   */
  inReply?: boolean;
  /**
   * The endpoint's origin (`https://host:port`) for a failure before any response (no such host,
   * nothing listening, a certificate refused), so the person is told which address to check.
   */
  endpoint?: string;
  /** The model's output a provider could not read, as it quoted it (Groq's `failed_generation`). */
  failedGeneration?: string;
}

/**
 * A failed gateway round-trip. `status` comes from the kind; `code` is always GATEWAY_ERROR (what a
 * client sees, docs/API.md "Codes"); `kind` says which failure it was.
 */
export class GatewayError extends KlebbError {
  readonly kind: GatewayErrorKind;
  readonly reason?: string;
  readonly upstreamStatus?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly providerCode?: string | number;
  readonly providerType?: string;
  readonly partialText?: string;
  readonly detail?: string;
  readonly redirectTo?: string;
  readonly inReply?: boolean;
  readonly endpoint?: string;
  readonly failedGeneration?: string;

  constructor(kind: GatewayErrorKind, message: string, init: GatewayErrorInit = {}) {
    super(STATUS_BY_KIND[kind], 'GATEWAY_ERROR', message);
    this.name = 'GatewayError';
    this.kind = kind;
    this.reason = init.reason;
    this.upstreamStatus = init.upstreamStatus;
    this.retryable = init.retryable ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.providerCode = init.providerCode;
    this.providerType = init.providerType;
    this.partialText = init.partialText;
    this.detail = init.detail;
    this.redirectTo = init.redirectTo;
    if (init.inReply) this.inReply = true;
    if (init.endpoint !== undefined) this.endpoint = init.endpoint;
    if (init.failedGeneration !== undefined) this.failedGeneration = init.failedGeneration;
    if (init.cause !== undefined) (this as { cause?: unknown }).cause = init.cause;
  }
}

/** The same failure with `retryable` set as given (everything else kept). */
export function withRetryable(err: GatewayError, retryable: boolean): GatewayError {
  if (err.retryable === retryable) return err;
  return new GatewayError(err.kind, err.message, {
    reason: err.reason,
    upstreamStatus: err.upstreamStatus,
    retryable,
    retryAfterMs: err.retryAfterMs,
    providerCode: err.providerCode,
    providerType: err.providerType,
    detail: err.detail,
    partialText: err.partialText,
    cause: (err as { cause?: unknown }).cause,
    redirectTo: err.redirectTo,
    inReply: err.inReply,
    endpoint: err.endpoint,
    failedGeneration: err.failedGeneration,
  });
}

/** True when `e` is a GatewayError (optionally of the given kind). */
export function isGatewayError(e: unknown, kind?: GatewayErrorKind): e is GatewayError {
  return e instanceof GatewayError && (kind === undefined || e.kind === kind);
}
