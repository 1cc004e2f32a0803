/**
 * One chat-completions round-trip as the agent loop sees it: build the body from what the
 * provider accepts, send it (attempt.ts), repair a refused request once (repair-policy.ts), retry
 * transient failures (retry-policy.ts). The agent loop calls `callGateway` once per round-trip.
 */

import { DEFAULT_GATEWAY_MAX_RETRIES, GATEWAY_RETRY_BASE_DELAY_MS } from '../../limits.js';
import { affordableOutputCap, creditStop } from './affordable-output.js';
import { withApiVersionReason } from './api-version.js';
import { attempt } from './attempt.js';
import { type GatewayLog, logFailedAttempt } from './attempt-log.js';
import { rescuedTurn } from './failed-generation.js';
import { finalizeTurn } from './finalize.js';
import { GatewayError } from './gateway-error.js';
import { defaultProviderMemory, type ProviderMemory, resolveCapabilities } from './provider-capabilities.js';
import {
  asRefusal,
  isDeterministicRefusal,
  RepairsMade,
  repairRefusal,
  undoUnhelpfulRepairs,
} from './repair-policy.js';
import type { ReadProgress } from './reply-reader.js';
import { buildRequestBody } from './request.js';
import { abortReason, retryDecision, sleep } from './retry-policy.js';
import { readScalarArguments } from './scalar-arguments.js';
import { parseStringifiedArguments } from './stringified-values.js';
import { parseEndpoint } from './transport.js';
import type { GatewayHooks, GatewayRequest, GatewayResult, ProviderCapabilities } from './types.js';
import { unwrapCallArguments } from './wrapped-arguments.js';

/** Where and how to call the gateway. Timeouts are per attempt; 0 or undefined disables one. */
export interface GatewayConfig {
  /** CHAT_ENDPOINT_URL: an http:// or https:// URL; any path and query are used as given. */
  url: string;
  /** CHAT_API_KEY, sent only when non-empty: `Authorization: Bearer <key>`, or in `api-key` headers for Azure. */
  apiKey?: string;
  /** CHAT_MODEL. */
  model: string;
  /**
   * Streaming only: fail when no byte arrives for this long, ms. A stream the provider refused to
   * give (sent unstreamed instead) takes it as its whole-call limit when callTimeoutMs is unset.
   */
  idleTimeoutMs?: number;
  /** Buffered only: fail when the whole call takes longer, ms. */
  callTimeoutMs?: number;
  /** Verify the server's TLS certificate (default false here; the chat service passes CHAT_TLS_VERIFY). */
  tlsRejectUnauthorized?: boolean;
  /** Transient failures retried at most this often (default DEFAULT_GATEWAY_MAX_RETRIES; 0 = never). */
  maxRetries?: number;
  /** First backoff step, ms (default GATEWAY_RETRY_BASE_DELAY_MS; doubles per retry). */
  retryBaseDelayMs?: number;
  /** Epoch ms after which no retry wait may end (the turn's deadline). */
  deadlineAtMs?: number;
  /** What the operator knows about the gateway; beats the built-in table, loses to learned refusals. */
  capabilities?: Partial<ProviderCapabilities>;
  /** Where refusals are remembered (default: one process-wide memory). */
  memory?: ProviderMemory;
  /** How long a finished stream may stay open before it is taken as complete, ms (default GATEWAY_FINISH_GRACE_MS). */
  finishGraceMs?: number;
  /** Streaming: how long keep-alive comments alone may hold a stream open, ms (default TRANSPORT_HOP_CEILING_MS). */
  keepAliveOnlyMs?: number;
  /** Where each failed attempt is logged (pino's shape; see attempt-log.ts). */
  log?: GatewayLog;
}

/** Redirects followed per call at most. */
const MAX_REDIRECTS = 3;

/**
 * Where to send the request after a redirect, or undefined when it is not followed. Only a 307
 * or 308 keeps the method and body, so only those are followed, and only to the same host (the
 * API key goes with the request; a move from http to https on the same host is fine).
 */
function followableRedirect(from: URL, err: GatewayError, done: number): URL | undefined {
  if (done >= MAX_REDIRECTS || (err.upstreamStatus !== 307 && err.upstreamStatus !== 308)) return undefined;
  if (err.redirectTo === undefined) return undefined;
  let to: URL;
  try {
    to = new URL(err.redirectTo, from);
  } catch {
    return undefined;
  }
  const sameScheme = to.protocol === from.protocol || (from.protocol === 'http:' && to.protocol === 'https:');
  if (to.hostname !== from.hostname || !sameScheme) return undefined;
  // the credentials written into the endpoint URL are for this host, wherever on it the request moves
  if (to.username === '' && to.password === '') {
    to.username = from.username;
    to.password = from.password;
  }
  return to;
}

/** The step's own time limit, ms: the shorter of its idle and whole-call timeouts; undefined when neither is set. */
function stepBudgetMs(config: GatewayConfig): number | undefined {
  const limits = [config.idleTimeoutMs, config.callTimeoutMs].filter((t): t is number => !!t && t > 0);
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

/**
 * True for a reply that ended with nothing, neither text nor a tool call, of its own accord (not
 * at the length limit, where the same request would stop at the same place): Gemini ends a turn
 * so now and then (finish reason STOP, no parts), often after a tool result, and reasoning models
 * sometimes stop inside their reasoning ('reasoning_only'). Such a reply is asked for once more.
 */
function emptyByChance(err: GatewayError): boolean {
  return err.kind === 'empty' && (err.reason === 'empty' || err.reason === 'reasoning_only');
}

function requestWantsCache(request: GatewayRequest): boolean {
  const marked = (v: unknown) => typeof v === 'object' && v !== null && 'cache_control' in v;
  return (
    request.messages.some(
      (m) => (m.role === 'system' || m.role === 'user') && Array.isArray(m.content) && m.content.some(marked),
    ) || (request.tools ?? []).some(marked)
  );
}

/**
 * Sends one chat-completions request and returns the assembled reply.
 *
 * Inputs: `config` (endpoint, key, model, timeouts in ms, retry policy), `request` (messages,
 * tools, `stream`), `hooks` (onToken for each answer fragment in order, onActivity for any sign
 * of life, see GatewayHooks), `signal` (abort: stops the call and any retry wait).
 *
 * Streams when `request.stream` is true and tolerates a buffered JSON answer. A request refused
 * for something we sent is repaired once and the repair remembered in `config.memory`.
 * Retryable failures are retried up to `maxRetries` times with backoff, or after the server's
 * requested wait, never past `deadlineAtMs`, and never once answer text has been streamed.
 *
 * Returns a GatewayResult. Throws GatewayError (see GatewayErrorKind) for every gateway
 * failure, or `signal.reason` (an AbortError by default) when aborted.
 */
export async function callGateway(
  config: GatewayConfig,
  request: GatewayRequest,
  hooks: GatewayHooks = {},
  signal?: AbortSignal,
): Promise<GatewayResult> {
  let url = parseEndpoint(config.url);
  let redirects = 0;
  const memory = config.memory ?? defaultProviderMemory;
  const maxRetries = Math.max(0, config.maxRetries ?? DEFAULT_GATEWAY_MAX_RETRIES);
  const baseDelayMs = Math.max(0, config.retryBaseDelayMs ?? GATEWAY_RETRY_BASE_DELAY_MS);
  const repairs = new RepairsMade();
  const transport = { apiKey: config.apiKey, tlsRejectUnauthorized: config.tlsRejectUnauthorized };
  // offered even when the provider takes no tools: a model may still write a call as text
  const offeredTools = new Set((request.tools ?? []).map((t) => t.function.name));
  let retries = 0;
  let attempts = 0;
  let loadingWaitedMs = 0;
  let waits = 0; // retry waits of any kind, for onRetry's count
  let askedAgainWhenEmpty = false;
  // the request as sent: an output cap may be added when the account can afford only a shorter answer
  let asked = request;
  const logFailure = (err: GatewayError, outcome: Parameters<typeof logFailedAttempt>[3]) =>
    logFailedAttempt(config.log, attempts, err, outcome, config.apiKey);

  for (;;) {
    if (signal?.aborted) throw abortReason(signal);
    const caps = resolveCapabilities(url, config.model, config.capabilities, memory);
    const body = buildRequestBody(asked, config.model, caps);
    const progress: ReadProgress = { emittedText: false };
    // a stream asked for but refused by the provider: the step's time covers the whole call; an
    // unstreamed call the provider answers only streamed: its time limit is the idle limit
    const unstreamed = request.stream === true && !body.stream;
    const restreamed = request.stream !== true && body.stream;
    const timeouts = {
      idleTimeoutMs: restreamed ? (config.idleTimeoutMs ?? config.callTimeoutMs) : config.idleTimeoutMs,
      callTimeoutMs: unstreamed ? (config.callTimeoutMs ?? config.idleTimeoutMs) : config.callTimeoutMs,
      finishGraceMs: config.finishGraceMs,
      keepAliveOnlyMs: config.keepAliveOnlyMs,
      reasoningStartsInside: caps.reasoningStartsInside,
      offeredTools,
    };
    attempts++;
    try {
      const sendAs = { ...transport, keyInHeader: caps.keyInHeader };
      // a request the caller asked unstreamed shows nothing while its stream arrives
      const shown = restreamed
        ? { ...hooks, onToken: undefined, onReasoning: undefined, onRetract: undefined }
        : hooks;
      const result = await attempt(url, sendAs, timeouts, body, shown, progress, signal).catch(
        (err: unknown) => {
          // a call the provider could not read, quoted back: read here, it is the reply
          const rescued = err instanceof GatewayError ? rescuedTurn(err, offeredTools) : undefined;
          if (!rescued) throw err;
          logFailure(err as GatewayError, { next: 'repair' });
          return finalizeTurn(rescued, hooks);
        },
      );
      unwrapCallArguments(result, request.tools);
      parseStringifiedArguments(result, request.tools);
      readScalarArguments(result, request.tools);
      if (result.inlineReasoning === 'bare') {
        // the model opens its reasoning in the prompt: hold its next replies until the closing tag
        memory.learn(url.origin, config.model, { reasoningStartsInside: true });
      }
      if (result.usage && !caps.cacheControl && repairs.has('cacheControl') && requestWantsCache(request)) {
        // the cache markers were refused: cache reads and writes are not reported, not zero
        delete result.usage.cachedTokens;
        delete result.usage.cacheWriteTokens;
      }
      // capped for want of credit: a stop at that cap is said for what it is
      if (asked !== request && asked.maxTokens !== undefined) result.creditCapTokens = asked.maxTokens;
      return result;
    } catch (caught) {
      if (signal?.aborted) throw abortReason(signal);
      if (!(caught instanceof GatewayError)) throw caught;
      // an Azure deployment URL without its api-version is refused as an unknown address
      const err = withApiVersionReason(caught, url);
      if (asked !== request && asked.maxTokens !== undefined && creditStop(err, asked.maxTokens) !== err) {
        // nothing written within the cap the credit allowed: asking again stops the same way
        logFailure(err, { next: 'give_up' });
        throw creditStop(err, asked.maxTokens);
      }
      const moved = err.reason === 'redirect' ? followableRedirect(url, err, redirects) : undefined;
      if (moved) {
        logFailure(err, { next: 'redirect' });
        url = moved;
        redirects++;
        continue;
      }
      // a refusal reported after answer text went out is not repaired: the text would show twice;
      // a malformed answer is the model's slip, not a refusal of anything we sent
      // text of a request the caller asked unstreamed went nowhere: asking again repeats nothing
      const shownText = progress.emittedText && !restreamed;
      const repairable = !shownText && err.reason !== 'malformed_output';
      const target = { origin: url.origin, model: config.model, memory };
      if (repairable && repairRefusal(err, body, repairs, target, caps)) {
        logFailure(err, { next: 'repair' });
        continue;
      }
      undoUnhelpfulRepairs(err, repairs, target);
      if (repairs.has('modelPrefixDropped') && err.reason === 'not_found') {
        // the name without its prefix is unknown too: the prefix was not what was wrong
        memory.forget(url.origin, config.model, ['modelPrefixDropped']);
      }
      if (repairs.has('keyInHeader') && err.reason === 'auth') {
        // the key was refused in the headers too: it is the key that is wrong, not how it was sent
        memory.forget(url.origin, config.model, ['keyInHeader']);
      }
      const affordable =
        repairable && asked === request ? affordableOutputCap(err, asked.maxTokens) : undefined;
      if (affordable !== undefined) {
        // credit for a shorter answer is left: ask again with the output capped to it
        logFailure(err, { next: 'repair' });
        asked = { ...asked, maxTokens: affordable };
        continue;
      }
      if (!askedAgainWhenEmpty && maxRetries > 0 && emptyByChance(err)) {
        // a model that ended with nothing (Gemini's empty STOP) usually answers the same request
        askedAgainWhenEmpty = true;
        logFailure(err, { next: 'retry', waitMs: 0 });
        waits++;
        hooks.onRetry?.({ attempt: waits, waitMs: 0, error: err });
        continue;
      }
      if (isDeterministicRefusal(err)) {
        logFailure(err, { next: 'give_up' });
        throw asRefusal(err);
      }
      let waitMs: number;
      try {
        waitMs = retryDecision(err, {
          retries,
          maxRetries,
          baseDelayMs,
          deadlineAtMs: config.deadlineAtMs,
          emittedText: shownText,
          loadingWaitedMs,
          stepBudgetMs: stepBudgetMs(config),
        });
      } catch (final) {
        logFailure(err, { next: 'give_up' });
        throw final;
      }
      logFailure(err, { next: 'retry', waitMs });
      // a server loading its model is waited for without using up the retries of other failures
      if (err.reason === 'model_loading') loadingWaitedMs += waitMs;
      else retries++;
      waits++;
      hooks.onRetry?.({ attempt: waits, waitMs, error: err });
      await sleep(waitMs, signal);
    }
  }
}
