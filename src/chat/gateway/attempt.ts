/**
 * One HTTP exchange with the gateway: the transport, the reply reader and the watchdogs (an idle
 * timeout while streaming, reset by every received byte, and a longer one that keep-alive comments
 * do not reset (keep-alive-only.ts); a whole-call timeout when buffered),
 * settled once as a reply or a GatewayError (or the abort reason).
 */

import { GATEWAY_FINISH_GRACE_MS, TRANSPORT_HOP_CEILING_MS } from '../../limits.js';
import { GatewayError } from './gateway-error.js';
import { onlyKeepAlive } from './keep-alive-only.js';
import { createReplyReader, type ReadProgress, type ReplyReader } from './reply-reader.js';
import type { ChatCompletionBody } from './request.js';
import { abortReason } from './retry-policy.js';
import { type Exchange, openExchange, type TransportOptions } from './transport.js';
import type { GatewayHooks, GatewayResult } from './types.js';

/** Timeouts of one attempt, ms (0 or undefined disables one), and how to read the reply. */
export interface AttemptTimeouts {
  /** Streaming only: fail when no byte arrives for this long. */
  idleTimeoutMs?: number;
  /** Buffered only: fail when the whole call takes longer. */
  callTimeoutMs?: number;
  /** Streaming only: how long a finished stream (every finish_reason seen) may stay open (default GATEWAY_FINISH_GRACE_MS). */
  finishGraceMs?: number;
  /**
   * Streaming only: fail when only keep-alive comments arrive for this long (default
   * TRANSPORT_HOP_CEILING_MS; never shorter than the idle timeout).
   */
  keepAliveOnlyMs?: number;
  /** The model opens inline reasoning in its prompt. */
  reasoningStartsInside?: boolean;
  /** Names of the tools the request offered. */
  offeredTools?: ReadonlySet<string>;
}

/**
 * Sends `body` once and resolves with the reply. Rejects with a GatewayError (timeout, transport
 * or reply failure) or `signal.reason` when aborted. `progress.emittedText` tells the caller
 * whether answer text already went out.
 */
export function attempt(
  url: URL,
  transport: Omit<TransportOptions, 'streaming'>,
  timeouts: AttemptTimeouts,
  body: ChatCompletionBody,
  hooks: GatewayHooks,
  progress: ReadProgress,
  signal?: AbortSignal,
): Promise<GatewayResult> {
  return new Promise<GatewayResult>((resolve, reject) => {
    const streaming = body.stream;
    const idleMs =
      streaming && timeouts.idleTimeoutMs && timeouts.idleTimeoutMs > 0 ? timeouts.idleTimeoutMs : undefined;
    const callMs =
      !streaming && timeouts.callTimeoutMs && timeouts.callTimeoutMs > 0 ? timeouts.callTimeoutMs : undefined;
    let settled = false;
    let idleTimer: NodeJS.Timeout | undefined;
    // keep-alive comments reset the idle timer, but alone they hold a stream open only so long
    const quietMs =
      idleMs === undefined
        ? undefined
        : Math.max(idleMs, timeouts.keepAliveOnlyMs ?? TRANSPORT_HOP_CEILING_MS);
    let quietTimer: NodeJS.Timeout | undefined;
    let callTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let piecesAtFinish = 0;
    // the reply went on after every choice had its finish_reason: that finish_reason does not
    // say the stream ended, so only [DONE], the end of the body or the idle timeout do
    let finishSaysNothing = false;
    const graceMs = timeouts.finishGraceMs ?? GATEWAY_FINISH_GRACE_MS;
    let reader: ReplyReader | undefined;
    let exchange: Exchange | undefined;
    const partialText = () => reader?.partialText() || undefined;

    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(idleTimer);
      clearTimeout(quietTimer);
      clearTimeout(callTimer);
      clearTimeout(graceTimer);
      signal?.removeEventListener('abort', onAbort);
      exchange?.destroy();
      fn();
    };
    const fail = (err: unknown) => settle(() => reject(err));
    const succeed = (result: GatewayResult) => settle(() => resolve(result));
    const guarded = (fn: () => GatewayResult | undefined) => {
      if (settled) return;
      try {
        const result = fn();
        if (result) succeed(result);
      } catch (err) {
        fail(err);
      }
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
            partialText: partialText(),
          }),
        );
      }, idleMs);
    };
    const armQuiet = () => {
      if (quietMs === undefined || settled) return;
      if (quietTimer) {
        quietTimer.refresh();
        return;
      }
      quietTimer = setTimeout(() => {
        fail(
          new GatewayError('timeout', `only keep-alive comments from the gateway for ${quietMs} ms`, {
            reason: 'idle_timeout',
            partialText: partialText(),
          }),
        );
      }, quietMs);
    };
    const activity = (chunk?: Buffer) => {
      armIdle();
      if (chunk === undefined || !onlyKeepAlive(chunk.toString('latin1'))) armQuiet();
      hooks.onActivity?.();
    };
    const onAbort = () => fail(abortReason(signal as AbortSignal));

    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const payload = Buffer.from(JSON.stringify(body), 'utf8');
    exchange = openExchange(url, { ...transport, streaming }, payload, {
      onError: (err) => fail(err),
      onResponse: (status, headers) => {
        activity();
        reader = createReplyReader({
          status,
          headers,
          streaming,
          hooks,
          progress,
          reasoningStartsInside: timeouts.reasoningStartsInside,
          offeredTools: timeouts.offeredTools,
          awaitUsage: body.stream_options?.include_usage === true,
        });
      },
      onData: (chunk) => {
        if (settled) return;
        activity(chunk);
        guarded(() => reader?.push(chunk));
        if (!settled && !finishSaysNothing && graceTimer === undefined && reader?.finished()) {
          // every choice has its finish_reason (or a JSON body is whole): trailing usage may follow,
          // but a transport that never ends (no [DONE], a declared length never reached, the
          // socket held open, keep-alives going on) must not hang the turn
          const r = reader;
          piecesAtFinish = r.pieces();
          graceTimer = setTimeout(() => {
            // a body first read as one JSON value may have turned out to be JSON lines since
            if (r.finished()) guarded(() => r.finishNow());
            else graceTimer = undefined;
          }, graceMs);
        } else if (graceTimer !== undefined && reader && reader.pieces() > piecesAtFinish) {
          // more of the reply after its finish_reason (a server that sets it on every chunk)
          finishSaysNothing = true;
          clearTimeout(graceTimer);
          graceTimer = undefined;
        }
      },
      onEnd: (how) => guarded(() => reader?.end(how)),
      bodyWhole: () => settled || (reader?.whole() ?? true),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    if (callMs !== undefined) {
      callTimer = setTimeout(() => {
        fail(
          new GatewayError('timeout', `the gateway call took longer than ${callMs} ms`, {
            reason: 'call_timeout',
            partialText: partialText(),
          }),
        );
      }, callMs);
    }
    armIdle();
  });
}
