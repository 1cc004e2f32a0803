/**
 * One chat-completions round-trip over node:http(s) (the URL's scheme picks the
 * transport; host, port and path all come from the URL; `Authorization: Bearer <key>`),
 * with streaming, timeouts, abort, transient retries and the self-healing 400s of cases
 * string system content, cache_control and stream_options. The agent loop calls `callGateway` once per round-trip.
 */
import http from 'node:http';
import https from 'node:https';
import { createParser, type ParseError } from 'eventsource-parser';
import {
  DEFAULT_GATEWAY_MAX_RETRIES,
  GATEWAY_MAX_BODY_BYTES,
  GATEWAY_MAX_ERROR_BODY_BYTES,
  GATEWAY_MAX_RETRY_WAIT_MS,
  GATEWAY_RETRY_BASE_DELAY_MS,
  GATEWAY_RETRY_JITTER_MS,
  GATEWAY_RETRY_MAX_BACKOFF_MS,
} from '../../limits.js';
import { parseBufferedCompletion } from './buffered.js';
import { classifyHttpError, classifyNetworkError } from './classify.js';
import { looksLikeHtml } from './error-body.js';
import { GatewayError } from './gateway-error.js';
import { defaultProviderMemory, type ProviderMemory, resolveCapabilities } from './provider-capabilities.js';
import {
  bodyHasCacheControl,
  bodyHasSystemParts,
  buildRequestBody,
  type ChatCompletionBody,
} from './request.js';
import { createStreamAssembler } from './stream-assembler.js';
import type { GatewayHooks, GatewayRequest, GatewayResult, ProviderCapabilities } from './types.js';

/** Where and how to call the gateway. Timeouts are per attempt; 0 or undefined disables one. */
export interface GatewayConfig {
  /** CHAT_ENDPOINT_URL: an http:// or https:// URL; any path and query are used as given. */
  url: string;
  /** CHAT_API_KEY; `Authorization: Bearer <key>` is sent only when this is non-empty. */
  apiKey?: string;
  /** CHAT_MODEL. */
  model: string;
  /** Streaming only: fail when no byte arrives for this long, ms (idle timeout). */
  idleTimeoutMs?: number;
  /** Buffered only: fail when the whole call takes longer, ms (docs/CHAT-AGENT.md per-step budget). */
  callTimeoutMs?: number;
  /** Verify the server's TLS certificate. Default false: docs/CHAT-AGENT.md (`rejectUnauthorized:false`). */
  tlsRejectUnauthorized?: boolean;
  /** Transient failures retried at most this often (default DEFAULT_GATEWAY_MAX_RETRIES; 0 = never). */
  maxRetries?: number;
  /** First backoff step, ms (default GATEWAY_RETRY_BASE_DELAY_MS; doubles per retry). */
  retryBaseDelayMs?: number;
  /** Epoch ms after which no retry wait may end (the turn deadline: a retry never outlives the turn). */
  deadlineAtMs?: number;
  /** What the operator knows about the gateway; beats the built-in table, loses to learned refusals. */
  capabilities?: Partial<ProviderCapabilities>;
  /** Where refusals are remembered (default: one process-wide memory). */
  memory?: ProviderMemory;
}

/** Progress of one attempt that decides whether it may be repeated. */
interface AttemptProgress {
  /** Answer text already went out through onToken: a retry would show it twice. */
  emittedText: boolean;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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

function parseEndpoint(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GatewayError('failed', 'the chat endpoint URL is not a valid URL', { reason: 'bad_url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GatewayError(
      'failed',
      `the chat endpoint URL must be http:// or https://, got ${url.protocol}`,
      {
        reason: 'bad_url',
      },
    );
  }
  return url;
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
 * Behaviour: streams when `request.stream` is true and tolerates a buffered JSON answer;
 * the idle timeout (streaming) is reset by every received byte, SSE
 * comments included; the whole-call timeout applies when buffered. Bytes are decoded
 * with a streaming UTF-8 decoder. A 400 about string
 * system content, cache_control or stream_options is retried once with the
 * offending shape removed and remembered in `config.memory`. Retryable failures ('unavailable',
 * 'rate_limited', retryable 'failed') are retried up to `maxRetries` times with backoff, or after
 * the server's requested wait, never past `deadlineAtMs`, and never once answer text
 * has been streamed.
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
  const url = parseEndpoint(config.url);
  const memory = config.memory ?? defaultProviderMemory;
  const maxRetries = Math.max(0, config.maxRetries ?? DEFAULT_GATEWAY_MAX_RETRIES);
  const baseDelayMs = Math.max(0, config.retryBaseDelayMs ?? GATEWAY_RETRY_BASE_DELAY_MS);
  const adapted = { system: false, cache: false, streamOptions: false };
  let retries = 0;

  for (;;) {
    if (signal?.aborted) throw abortReason(signal);
    const caps = resolveCapabilities(url, config.model, config.capabilities, memory);
    const body = buildRequestBody(request, config.model, caps);
    const progress: AttemptProgress = { emittedText: false };
    try {
      const result = await attempt(url, config, body, hooks, progress, signal);
      if (result.usage && !caps.cacheControl && adapted.cache && requestWantsCache(request)) {
        // after cache_control was refused, cache reads/writes are "not reported".
        delete result.usage.cachedTokens;
        delete result.usage.cacheWriteTokens;
      }
      return result;
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      if (!(err instanceof GatewayError)) throw err;
      if (err.reason === 'system_content_must_be_string' && !adapted.system && bodyHasSystemParts(body)) {
        adapted.system = true;
        memory.learnProvider(url.origin, { systemContentString: true });
        continue;
      }
      if (err.reason === 'cache_control_rejected' && !adapted.cache && bodyHasCacheControl(body)) {
        adapted.cache = true;
        memory.learnModel(url.origin, config.model, { cacheControl: false });
        continue;
      }
      if (err.reason === 'stream_options_rejected' && !adapted.streamOptions && body.stream_options) {
        adapted.streamOptions = true;
        memory.learnProvider(url.origin, { streamOptions: false });
        continue;
      }
      if (!err.retryable || progress.emittedText || retries >= maxRetries) throw err;
      const waitMs = retryWaitMs(err, retries, baseDelayMs);
      const remainingMs = config.deadlineAtMs === undefined ? undefined : config.deadlineAtMs - Date.now();
      const limitMs = remainingMs ?? GATEWAY_MAX_RETRY_WAIT_MS;
      if (waitMs > limitMs) throw tooLongToWait(err);
      retries++;
      hooks.onRetry?.({ attempt: retries, waitMs, error: err });
      await sleep(waitMs, signal);
    }
  }
}

/**
 * How long to wait before retry number `retries + 1`, ms: the server's requested wait plus
 * jitter when it gave one, else exponential backoff from `baseDelayMs` plus jitter.
 */
function retryWaitMs(err: GatewayError, retries: number, baseDelayMs: number): number {
  if (err.retryAfterMs !== undefined)
    return err.retryAfterMs + Math.round(Math.random() * GATEWAY_RETRY_JITTER_MS);
  const backoff = Math.min(GATEWAY_RETRY_MAX_BACKOFF_MS, baseDelayMs * 2 ** retries);
  return backoff + Math.round(Math.random() * Math.min(GATEWAY_RETRY_JITTER_MS, baseDelayMs));
}

/** The error to surface when the wait would not fit the budget ("rate limited, retry in ~6 s"). */
function tooLongToWait(err: GatewayError): GatewayError {
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

type Mode = 'undecided' | 'sse' | 'buffered' | 'error';

/** One HTTP exchange: resolves with the reply or rejects with a GatewayError / abort reason. */
function attempt(
  url: URL,
  config: GatewayConfig,
  body: ChatCompletionBody,
  hooks: GatewayHooks,
  progress: AttemptProgress,
  signal?: AbortSignal,
): Promise<GatewayResult> {
  return new Promise<GatewayResult>((resolve, reject) => {
    const streaming = body.stream;
    const payload = Buffer.from(JSON.stringify(body), 'utf8');
    const headers: Record<string, string | number> = {
      'Content-Type': 'application/json',
      'Content-Length': payload.length,
      Accept: streaming ? 'text/event-stream, application/json' : 'application/json',
      Connection: 'close',
    };
    if (config.apiKey && config.apiKey.trim() !== '') headers.Authorization = `Bearer ${config.apiKey}`;
    const isHttps = url.protocol === 'https:';
    const options: https.RequestOptions = {
      method: 'POST',
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port === '' ? (isHttps ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
    };
    if (isHttps) options.rejectUnauthorized = config.tlsRejectUnauthorized ?? false;

    const idleMs =
      streaming && config.idleTimeoutMs && config.idleTimeoutMs > 0 ? config.idleTimeoutMs : undefined;
    const callMs =
      !streaming && config.callTimeoutMs && config.callTimeoutMs > 0 ? config.callTimeoutMs : undefined;
    let settled = false;
    let idleTimer: NodeJS.Timeout | undefined;
    let callTimer: NodeJS.Timeout | undefined;
    let partialText = () => '';

    const cleanup = () => {
      clearTimeout(idleTimer);
      clearTimeout(callTimer);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      cleanup();
      req.destroy();
      reject(err);
    };
    const succeed = (result: GatewayResult) => {
      if (settled) return;
      settled = true;
      cleanup();
      req.destroy();
      resolve(result);
    };
    const armIdle = () => {
      if (idleMs === undefined || settled) return;
      // every received chunk re-arms the idle timer: refresh() is cheaper than a new timer
      if (idleTimer) {
        idleTimer.refresh();
        return;
      }
      idleTimer = setTimeout(() => {
        fail(
          new GatewayError('timeout', `no data from the gateway for ${idleMs} ms`, {
            reason: 'idle_timeout',
            partialText: partialText() || undefined,
          }),
        );
      }, idleMs);
    };
    const activity = () => {
      armIdle();
      hooks.onActivity?.();
    };
    const onAbort = () => fail(abortReason(signal as AbortSignal));

    const client = isHttps ? https : http;
    const req = client.request(options);
    req.on('error', (err) => fail(classifyNetworkError(err)));
    req.on('response', (res) => {
      activity();
      const status = res.statusCode ?? 0;
      const contentType = String(res.headers['content-type'] ?? '').toLowerCase();
      const decoder = new TextDecoder('utf-8');
      // A 2xx body is sniffed, not trusted by Content-Type: SSE never starts with '{', '[' or '<'.
      let mode: Mode = status < 200 || status >= 300 ? 'error' : 'undecided';
      let text = ''; // buffered / error body, or the undecided lead-in
      let textBytes = 0;

      // SSE machinery, used only in 'sse' mode.
      const assembler = createStreamAssembler({
        ...hooks,
        onToken: (t) => {
          progress.emittedText = true;
          hooks.onToken?.(t);
        },
      });
      partialText = () => assembler.text;
      let sawDone = false;
      let parserError: ParseError | undefined;
      let sawData = false;
      const parser = createParser({
        onEvent: (event) => {
          sawData = true;
          if (!sawDone && assembler.push(event.data)) sawDone = true;
        },
        onComment: (comment) => hooks.onKeepAlive?.(comment.trim()),
        onError: (error) => {
          if (error.type === 'max-buffer-size-exceeded') parserError = error;
        },
        maxBufferSize: GATEWAY_MAX_BODY_BYTES,
      });
      let sseSample = ''; // the first few KB of a stream, to tell "no events" from "not a stream"
      const feedSse = (chunkText: string) => {
        if (sseSample.length < 4096) sseSample += chunkText.slice(0, 4096 - sseSample.length);
        parser.feed(chunkText);
        if (parserError) {
          throw new GatewayError('parse', 'a gateway stream event exceeded the size limit', {
            reason: 'too_large',
            partialText: assembler.text || undefined,
          });
        }
        if (sawDone) succeed(assembler.finish('done'));
      };

      const finishBuffered = () => {
        if (looksLikeHtml(text) || contentType.includes('html')) {
          fail(classifyHttpError(status, res.headers, text));
          return;
        }
        const result = parseBufferedCompletion(text, hooks);
        if (streaming) {
          // A gateway that ignored stream:true: still hand the text over.
          if (result.reasoning) hooks.onReasoning?.(result.reasoning);
          if (result.text) {
            progress.emittedText = true;
            hooks.onToken?.(result.text);
          }
        }
        succeed(result);
      };

      const onChunk = (chunk: Buffer) => {
        if (settled) return;
        activity();
        const piece = decoder.decode(chunk, { stream: true });
        if (mode === 'undecided') {
          text += piece;
          const lead = text.trimStart();
          if (lead === '') return;
          // a JSON content type is read as JSON even when the body is not (then it is unreadable,
          // not a cut-off stream); otherwise the first byte decides
          const jsonTyped = contentType.includes('json') && !contentType.includes('event-stream');
          mode = jsonTyped || lead[0] === '{' || lead[0] === '[' || lead[0] === '<' ? 'buffered' : 'sse';
          if (mode === 'sse') {
            const leadIn = text;
            text = '';
            feedSse(leadIn);
          } else textBytes = Buffer.byteLength(text);
          return;
        }
        if (mode === 'sse') {
          feedSse(piece);
          return;
        }
        const cap = mode === 'error' ? GATEWAY_MAX_ERROR_BODY_BYTES : GATEWAY_MAX_BODY_BYTES;
        textBytes += chunk.length;
        text += piece;
        if (textBytes > cap) {
          if (mode === 'error') fail(classifyHttpError(status, res.headers, text));
          else
            fail(
              new GatewayError('parse', `the gateway reply is larger than ${cap} bytes`, {
                reason: 'too_large',
              }),
            );
        }
      };

      const onEnd = (how: 'eof' | 'reset') => {
        if (settled) return;
        try {
          const tail = decoder.decode();
          if (mode === 'error') {
            fail(classifyHttpError(status, res.headers, text + tail));
          } else if (mode === 'sse' || (mode === 'undecided' && (text + tail).trim() !== '')) {
            if (mode === 'undecided') {
              mode = 'sse';
              feedSse(text);
            }
            if (settled) return;
            feedSse(tail);
            if (settled) return;
            if (how === 'eof' && !sawData && !/^(?::|data:|event:|id:|retry:)/m.test(sseSample)) {
              // a whole body arrived and none of it was an event: not a stream at all
              fail(
                new GatewayError('parse', 'the gateway reply is neither JSON nor an event stream', {
                  reason: 'not_a_stream',
                  upstreamStatus: status,
                }),
              );
              return;
            }
            succeed(assembler.finish(how));
          } else if (mode === 'undecided') {
            fail(
              new GatewayError('unavailable', 'the gateway answered with an empty body', {
                reason: how === 'reset' ? 'connection_reset' : 'empty_body',
                upstreamStatus: status,
                retryable: true,
              }),
            );
          } else if (how === 'reset') {
            fail(
              new GatewayError('unavailable', 'the gateway connection dropped mid-reply', {
                reason: 'connection_reset',
                upstreamStatus: status,
                retryable: true,
              }),
            );
          } else {
            text += tail;
            finishBuffered();
          }
        } catch (err) {
          fail(err);
        }
      };

      res.on('data', (chunk: Buffer) => {
        try {
          onChunk(chunk);
        } catch (err) {
          fail(err);
        }
      });
      res.on('end', () => onEnd('eof'));
      res.on('error', () => onEnd('reset'));
      res.on('close', () => {
        if (!res.complete) onEnd('reset');
      });
    });

    if (signal?.aborted) {
      fail(abortReason(signal));
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    if (callMs !== undefined) {
      callTimer = setTimeout(() => {
        fail(
          new GatewayError('timeout', `the gateway call took longer than ${callMs} ms`, {
            reason: 'call_timeout',
            partialText: partialText() || undefined,
          }),
        );
      }, callMs);
    }
    armIdle();
    req.end(payload);
  });
}
