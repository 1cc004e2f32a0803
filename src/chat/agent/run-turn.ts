/**
 * The agent loop: call the gateway;
 * if the reply carries tool calls, replay the assistant message with its `tool_calls`, run each
 * tool, append the `role:"tool"` results and go round again; otherwise the text is the answer.
 * It knows nothing of HTTP: it reports through `emit` and stops when `signal` aborts (STYLE
 * "The turn as a job").
 *
 * Budgets: at most `maxRoundTrips` gateway calls (then a capped reply that
 * keeps the model's progress text); each step gets `iterTimeoutMs` (an idle timeout when
 * streaming, a whole-call timeout when buffered; 0 falls back to the 540 s hop ceiling); past
 * `turnDeadlineMs` no new round-trip starts and the last step's budget shrinks to what remains.
 * A capped or timed-out turn is an HTTP 200 reply, never a 5xx.
 */
import { TRANSPORT_HOP_CEILING_MS } from '../../limits.js';
import { callGateway, type GatewayConfig } from '../gateway/client.js';
import { contextFilled, providerSaidContextFull } from '../gateway/context-window.js';
import { isGatewayError } from '../gateway/gateway-error.js';
import { assistantMessageFor, toolResultMessage } from '../gateway/history.js';
import { type PromptCut, promptCut } from '../gateway/prompt-cut.js';
import type { ChatMessage, GatewayResult, SystemMessage, ToolDefinition } from '../gateway/types.js';
import type { ArgumentsError, DispatchResult } from '../tools/registry.js';
import {
  cappedReply,
  contextFullReply,
  creditCutReply,
  cutOffReply,
  EMPTY_AFTER_WRITES,
  EMPTY_REPLY_COPY,
  emptyReplyCause,
  failedAfterWritesCopy,
  gatewayFailure,
  KEEP_GOING_SUFFIX,
  promptCutNote,
  stepTimeoutCopy,
} from './copy.js';
import type { ReplyPayload, TurnEvent, TurnResult } from './turn-events.js';
import { type AppliedWrite, describeWrite, listChanges } from './writes.js';

/** The three budgets, as data (seed "Turn budgets"; 0 disables a time budget). */
export interface TurnBudgets {
  maxRoundTrips: number;
  iterTimeoutMs: number;
  turnDeadlineMs: number;
}

/** One turn's input: the transcript so far (user and assistant messages) and how to answer. */
export interface TurnInput {
  turnId: string;
  messages: ChatMessage[];
  /** Stream the gateway leg and emit `token` events. */
  stream: boolean;
  /** Voice mode: no token events; the reply is parsed from a {speak, display} envelope. */
  voiceMode: boolean;
}

/** What the loop needs from the outside world. */
export interface TurnDeps {
  /** Endpoint, key, model, capabilities; the loop sets the timeouts and deadline per step. */
  gateway: Omit<GatewayConfig, 'idleTimeoutMs' | 'callTimeoutMs' | 'deadlineAtMs'>;
  budgets: TurnBudgets;
  system: SystemMessage;
  tools: ToolDefinition[];
  /** Runs one tool call; never throws (failures come back as `{error}` content). */
  dispatch(name: string, args: unknown, argumentsError?: ArgumentsError): Promise<DispatchResult>;
  /** Parses a voice reply into {speak, display}. */
  parseVoice(text: string): { speak: string; display: string };
  /** Debug lines (`[chat:<id>] iter=N gw=<ms>ms ...`) when HEALTH_DEBUG=1. */
  debug?: (line: string) => void;
}

/** A first message this short (about 1 000 tokens) is never what makes a prompt too long. */
const FRESH_START_CHARS = 4000;

function usageNote(r: GatewayResult): string {
  if (!r.usage) return 'usage=none';
  const u = r.usage;
  return `prompt=${u.promptTokens} completion=${u.completionTokens} cached=${u.cachedTokens ?? 'n/a'} cwrite=${u.cacheWriteTokens ?? 'n/a'}`;
}

/**
 * True when the transcript is one message of at most FRESH_START_CHARS characters: a model that
 * refuses it as too long cannot hold the system prompt and the tools themselves.
 */
function shortFirstMessage(messages: ChatMessage[]): boolean {
  if (messages.length !== 1) return false;
  const content = messages[0].content;
  return typeof content === 'string' && content.length <= FRESH_START_CHARS;
}

function finalPayload(text: string, voiceMode: boolean, parseVoice: TurnDeps['parseVoice']): ReplyPayload {
  if (!voiceMode) return { reply: text };
  const v = parseVoice(text);
  return { reply: v.display, speak: v.speak };
}

/**
 * Runs one turn. Emits events in order and always ends with `done` (after `reply`, `error` or
 * `stopped`). Returns the reason, the HTTP status buffered mode answers with, and the payload.
 */
export async function runTurn(
  input: TurnInput,
  deps: TurnDeps,
  emit: (e: TurnEvent) => void,
  signal: AbortSignal,
): Promise<TurnResult> {
  const { budgets } = deps;
  const started = Date.now();
  let deadlineAt = budgets.turnDeadlineMs > 0 ? started + budgets.turnDeadlineMs : undefined;
  const messages: ChatMessage[] = [deps.system, ...input.messages];
  let progress = '';
  let roundTrips = 0;
  /** What this turn's tools changed, for a failure that comes after them. */
  const writes: AppliedWrite[] = [];
  const log = (msg: string) => deps.debug?.(`[chat:${input.turnId}] ${msg}`);
  /** The first round-trip whose request the server cut to fit the model's context: said under the reply. */
  let cut: PromptCut | undefined;

  const finish = (result: TurnResult): TurnResult => {
    result.writes = writes;
    if (cut && result.payload) result.payload.reply = `${result.payload.reply}\n\n${promptCutNote(cut)}`;
    if (result.reason === 'stopped') emit({ type: 'stopped', data: {} });
    else if (result.payload) emit({ type: 'reply', data: result.payload });
    else emit({ type: 'error', data: { error: result.error ?? 'failed', status: result.status } });
    emit({ type: 'done', data: {} });
    return result;
  };
  const capped = (reason: 'capped' | 'deadline'): TurnResult => {
    const payload: ReplyPayload = { reply: cappedReply(progress), capped: true };
    if (input.voiceMode) payload.speak = KEEP_GOING_SUFFIX;
    return finish({ reason, status: 200, payload, roundTrips });
  };
  const stopped = (): TurnResult => finish({ reason: 'stopped', status: 200, roundTrips });
  /** A reply of our own copy; in voice mode it is also what is read aloud. */
  const spoken = (reply: string): ReplyPayload => (input.voiceMode ? { reply, speak: reply } : { reply });
  /**
   * The model answered the tools' results with nothing (Gemini often ends so after a function
   * response) after they had changed data: the reply says what changed, and the turn ends as a
   * failure after writes, so sending the same message again does not make the changes twice.
   */
  const emptyAfterWrites = (cause = EMPTY_AFTER_WRITES): TurnResult =>
    finish({
      reason: 'gateway_error',
      status: 200,
      payload: spoken(failedAfterWritesCopy(cause, listChanges(writes))),
      roundTrips,
    });

  while (roundTrips < budgets.maxRoundTrips) {
    if (signal.aborted) return stopped();
    const remaining = deadlineAt === undefined ? Number.POSITIVE_INFINITY : deadlineAt - Date.now();
    if (remaining <= 0) return capped('deadline');
    const stepBudget = Math.min(
      budgets.iterTimeoutMs > 0 ? budgets.iterTimeoutMs : TRANSPORT_HOP_CEILING_MS,
      remaining,
    );
    const shrunk = stepBudget === remaining;
    roundTrips++;
    emit({ type: 'status', data: { phase: 'thinking' } });

    // the deadline is a hard stop even for a stream that keeps talking
    const deadlineTimer = new AbortController();
    const timer = Number.isFinite(remaining)
      ? setTimeout(() => deadlineTimer.abort('deadline'), remaining)
      : undefined;
    let streamedText = false;
    let partial = '';
    const t0 = Date.now();
    let result: GatewayResult;
    try {
      result = await callGateway(
        {
          ...deps.gateway,
          idleTimeoutMs: input.stream ? stepBudget : undefined,
          callTimeoutMs: input.stream ? undefined : stepBudget,
          deadlineAtMs: deadlineAt,
        },
        { messages, tools: deps.tools, stream: input.stream },
        {
          onToken: (text) => {
            partial += text;
            if (input.voiceMode || !input.stream) return;
            streamedText = true;
            emit({ type: 'token', data: { text } });
          },
          // text already streamed turned out to be the model's inline reasoning: take it back
          onRetract: () => {
            partial = '';
            if (streamedText) emit({ type: 'reset', data: {} });
            streamedText = false;
          },
        },
        AbortSignal.any([signal, deadlineTimer.signal]),
      );
    } catch (err) {
      log(
        `iter=${roundTrips} gw=${Date.now() - t0}ms ${isGatewayError(err, 'timeout') ? 'iter_timeout' : 'error'}`,
      );
      if (signal.aborted) return stopped();
      // text the person already watched arrive is kept in front of the capped / timeout copy
      if (partial.trim()) progress = partial.trim();
      if (deadlineTimer.signal.aborted) return capped('deadline');
      // our own step budget (idle or whole-call timer), not an upstream 408
      const ownTimeout =
        isGatewayError(err, 'timeout') && (err.reason === 'idle_timeout' || err.reason === 'call_timeout');
      if (ownTimeout) {
        if (shrunk) return capped('deadline');
        if (budgets.iterTimeoutMs > 0) {
          const copy = stepTimeoutCopy(budgets.iterTimeoutMs);
          const payload: ReplyPayload = {
            reply: partial.trim() ? `${partial.trim()}\n\n${copy}` : copy,
            timedOut: true,
          };
          if (input.voiceMode) payload.speak = payload.reply;
          return finish({ reason: 'iter_timeout', status: 200, payload, roundTrips });
        }
      }
      const f = isGatewayError(err)
        ? gatewayFailure(err, { freshStart: roundTrips === 1 && shortFirstMessage(input.messages) })
        : { status: 502, error: 'The chat service failed unexpectedly. Please try again.' };
      // an empty answer (said with status 200) after the tools changed data ends like a failure after writes
      if (f.status === 200 && !(isGatewayError(err, 'empty') && writes.length > 0))
        return finish({ reason: 'answered', status: 200, payload: spoken(f.error), roundTrips });
      if (isGatewayError(err, 'empty')) return emptyAfterWrites(emptyReplyCause(err));
      // data already changed: the failure is a reply saying so (and it is stored), not a bare error
      if (writes.length > 0)
        return finish({
          reason: 'gateway_error',
          status: 200,
          payload: spoken(failedAfterWritesCopy(f.error, listChanges(writes))),
          roundTrips,
        });
      const refusedMessage = roundTrips === 1 && isGatewayError(err) && err.reason === 'content_refused';
      return finish({
        reason: 'gateway_error',
        status: f.status,
        error: f.error,
        roundTrips,
        ...(refusedMessage ? { refusedMessage } : {}),
      });
    } finally {
      if (timer) clearTimeout(timer);
    }
    log(`iter=${roundTrips} gw=${Date.now() - t0}ms ${usageNote(result)}`);
    const cutNow = cut ? undefined : promptCut(messages, deps.tools, deps.system, result.usage);
    if (cutNow)
      log(`iter=${roundTrips} prompt cut by the server: read=${cutNow.readTokens} sent~${cutNow.sentTokens}`);
    cut ??= cutNow;

    if (result.toolCalls.length > 0) {
      if (streamedText) emit({ type: 'reset', data: {} });
      if (result.text.trim()) progress = result.text.trim();
      messages.push(assistantMessageFor(result));
      for (const call of result.toolCalls) {
        if (signal.aborted) return stopped();
        const peek = (call.parsedArguments ?? {}) as Record<string, unknown>;
        const hint = [peek.id, peek.card_id].find((v) => typeof v === 'string') as string | undefined;
        emit({
          type: 'status',
          data: hint ? { phase: 'tool', tool: call.name, id: hint } : { phase: 'tool', tool: call.name },
        });
        const out = await deps.dispatch(call.name, call.parsedArguments, call.argumentsError);
        const wrote = out.ok ? describeWrite(call.name, call.parsedArguments, out.content) : undefined;
        if (wrote) writes.push(wrote);
        // time spent waiting for the person's approval is theirs, not the turn's budget
        if (out.pausedMs && deadlineAt !== undefined) deadlineAt += out.pausedMs;
        messages.push(toolResultMessage(call, out.content));
      }
      continue;
    }
    const answer = result.text.trim();
    if (!answer && writes.length > 0) return emptyAfterWrites();
    if (!answer)
      return finish({ reason: 'answered', status: 200, payload: spoken(EMPTY_REPLY_COPY), roundTrips });
    const payload = finalPayload(answer, input.voiceMode, deps.parseVoice);
    // stopped at the model's length limit: said under the text, which ends mid-sentence
    if (result.finishReason === 'length') {
      // the context filled up, not an output limit: "keep going" would stop at the same place
      const filled = contextFilled(result.rawFinishReason, result.usage);
      // the cap Klebb set for want of credit: "keep going" would stop the same way
      payload.reply =
        result.creditCapTokens !== undefined
          ? creditCutReply(payload.reply, result.creditCapTokens)
          : filled === undefined
            ? cutOffReply(payload.reply)
            : contextFullReply(payload.reply, filled, providerSaidContextFull(result.rawFinishReason));
    }
    return finish({ reason: 'answered', status: 200, payload, roundTrips });
  }
  return capped('capped');
}
