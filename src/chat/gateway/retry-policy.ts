/**
 * When a failed round-trip may be sent again, and after how long: transient failures only,
 * never once answer text was streamed (the user would see it twice), after the server's
 * requested wait or an exponential backoff, and never past the turn's deadline.
 */
import {
  GATEWAY_MAX_RETRY_WAIT_MS,
  GATEWAY_MODEL_LOADING_MAX_WAIT_MS,
  GATEWAY_MODEL_LOADING_POLL_STEPS,
  GATEWAY_RETRY_JITTER_MS,
  GATEWAY_RETRY_MAX_BACKOFF_MS,
} from '../../limits.js';
import { GatewayError } from './gateway-error.js';

/** The reason an aborted signal carries, or a standard AbortError. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Waits `ms`, rejecting with the abort reason when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * How long to wait before retry number `retries + 1`, ms: the server's requested wait plus
 * jitter when it gave one, else exponential backoff from `baseDelayMs` plus jitter.
 */
export function retryWaitMs(err: GatewayError, retries: number, baseDelayMs: number): number {
  if (err.retryAfterMs !== undefined)
    return err.retryAfterMs + Math.round(Math.random() * GATEWAY_RETRY_JITTER_MS);
  const backoff = Math.min(GATEWAY_RETRY_MAX_BACKOFF_MS, baseDelayMs * 2 ** retries);
  return backoff + Math.round(Math.random() * Math.min(GATEWAY_RETRY_JITTER_MS, baseDelayMs));
}

/** The inputs of a retry decision. */
export interface RetryState {
  retries: number;
  maxRetries: number;
  baseDelayMs: number;
  /** Epoch ms no wait may end after; undefined: GATEWAY_MAX_RETRY_WAIT_MS caps the wait. */
  deadlineAtMs?: number;
  /** Answer text already went out in this attempt. */
  emittedText: boolean;
  /** Time already spent in this call waiting for a server to load its model, ms. */
  loadingWaitedMs?: number;
  /**
   * The step's own time limit, ms (its idle or whole-call timeout), when it has one: waiting for
   * a model to load is silence, so it never waits longer in all than the step may take.
   */
  stepBudgetMs?: number;
}

/**
 * Decides whether `err` is retried: returns the wait in ms, or throws the error to surface
 * (`err` itself, or a "rate limited, retry in ~N s" error when the requested wait does not fit).
 */
export function retryDecision(err: GatewayError, state: RetryState): number {
  // retries turned off (maxRetries 0) mean no wait of any kind
  if (err.retryable && !state.emittedText && state.maxRetries > 0 && err.reason === 'model_loading')
    return loadingWaitMs(err, state);
  if (!err.retryable || state.emittedText || state.retries >= state.maxRetries) throw err;
  const waitMs = retryWaitMs(err, state.retries, state.baseDelayMs);
  const limitMs =
    state.deadlineAtMs === undefined ? GATEWAY_MAX_RETRY_WAIT_MS : state.deadlineAtMs - Date.now();
  if (waitMs > limitMs) throw tooLongToWait(err);
  return waitMs;
}

/**
 * The wait before asking a server that is still loading its model again, ms: the time it
 * estimates, else a poll of GATEWAY_MODEL_LOADING_POLL_STEPS backoff steps. Such waits do not use
 * up the retries (loading takes longer than a momentary failure); they end at the turn's deadline
 * and at GATEWAY_MODEL_LOADING_MAX_WAIT_MS (or the step's own time limit, when shorter) in all,
 * then `err` is thrown.
 */
function loadingWaitMs(err: GatewayError, state: RetryState): number {
  const poll = Math.min(GATEWAY_RETRY_MAX_BACKOFF_MS, state.baseDelayMs * GATEWAY_MODEL_LOADING_POLL_STEPS);
  const waitMs =
    (err.retryAfterMs ?? poll) +
    Math.round(Math.random() * Math.min(GATEWAY_RETRY_JITTER_MS, state.baseDelayMs));
  const most =
    state.stepBudgetMs !== undefined && state.stepBudgetMs > 0
      ? Math.min(GATEWAY_MODEL_LOADING_MAX_WAIT_MS, state.stepBudgetMs)
      : GATEWAY_MODEL_LOADING_MAX_WAIT_MS;
  const left = most - (state.loadingWaitedMs ?? 0);
  const limitMs = state.deadlineAtMs === undefined ? left : Math.min(left, state.deadlineAtMs - Date.now());
  if (waitMs > limitMs) throw err;
  return waitMs;
}

/** The error to surface when the requested wait does not fit the budget: "rate limited, retry in ~6 s". */
export function tooLongToWait(err: GatewayError): GatewayError {
  if (err.kind !== 'rate_limited' || err.retryAfterMs === undefined) return err;
  const seconds = Math.max(1, Math.ceil(err.retryAfterMs / 1000));
  return new GatewayError('rate_limited', `rate limited, retry in ~${seconds} s (${err.message})`, {
    reason: err.reason,
    upstreamStatus: err.upstreamStatus,
    retryable: true,
    retryAfterMs: err.retryAfterMs,
    providerCode: err.providerCode,
    providerType: err.providerType,
  });
}
