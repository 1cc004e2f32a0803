/**
 * Assembling a streamed reply: the data of each event in, one GatewayResult out. Pure: no I/O,
 * no timers. Each event is normalised first (chunk-normaliser.ts); calls are assembled by what
 * they are (call-assembler.ts); what each piece adds to the text is read whether the server sends
 * deltas or snapshots of the whole text so far (snapshot-text.ts); inline reasoning is split off
 * the answer (inline-reasoning.ts); pieces of structured reasoning items are joined
 * (reasoning-details.ts); an end-of-turn token the server left in the answer is cut off with
 * whatever turn the model invented after it (turn-end-tokens.ts).
 * Which choices are the reply is decided by choice-picker.ts (choice 0 when a server sends
 * several; every one when it numbers each chunk's choice anew). An event that is an error report
 * (an `error`, or vLLM's and FastAPI's bare shapes, see isErrorPayload) fails the reply; usage may
 * come in any event (last wins, an event with empty or absent `choices` included); `[DONE]` is
 * compared after trimming. A chunk inside a proxy's envelope is read from it (reply-envelope.ts).
 * A content-filter verdict that blocks the answer (Azure's `content_filter_results` with a category
 * `filtered: true`, on any chunk, before or after the finish_reason) fails the reply as
 * `content_filter`, and so does a finish_reason `content_filter` that a later `stop` follows.
 */

import { clipGraphemes } from '../../common/graphemes.js';
import { type CallAssembler, createCallAssembler } from './call-assembler.js';
import { createChoicePicker } from './choice-picker.js';
import { type FilterVerdict, type NormalChoice, normaliseChunk } from './chunk-normaliser.js';
import { classifyErrorPayload } from './classify.js';
import { isErrorPayload } from './error-body.js';
import { finalizeTurn, toolCallIdFactory } from './finalize.js';
import { canonicalFinishReason } from './finish-reason.js';
import { GatewayError } from './gateway-error.js';
import { createReasoningSplitter, type ReasoningSplitter, type SplitPiece } from './inline-reasoning.js';
import { leadingJson } from './json-prefix.js';
import { ignoredAfterFinish, lateErrorWarning } from './late-stream-error.js';
import { createReasoningDetailsJoiner, type ReasoningDetailsJoiner } from './reasoning-details.js';
import { jsonTextValue, unwrapReply } from './reply-envelope.js';
import { createPieceReader, type PieceReader } from './snapshot-text.js';
import { createThinkingBlocksJoiner, type ThinkingBlocksJoiner } from './thinking-blocks.js';
import { createTurnEndCutter } from './turn-end-tokens.js';
import type { GatewayHooks, GatewayResult, GatewayUsage } from './types.js';

export { contentText, reasoningText } from './chunk-normaliser.js';

/** `[DONE]` encoded as a JSON string. */
const DONE_AS_TEXT = /^"\s*\[DONE\]\s*"$/;

/** How the byte stream ended: `[DONE]` seen, clean EOF, or the connection died. */
export type StreamEnd = 'done' | 'eof' | 'reset';

/** Options of an assembler beyond the hooks. */
export interface AssemblerOptions {
  /** Makes our tool-call ids. */
  newId?: () => string;
  /** The model is known to open inline reasoning in its prompt (only a closing tag comes). */
  reasoningStartsInside?: boolean;
  /** Names of the tools the request offered (see finalizeTurn). */
  offeredTools?: ReadonlySet<string>;
}

/** Incremental assembler for one streamed reply. */
export interface StreamAssembler {
  /**
   * Feeds the data of one SSE event (or an already parsed payload). Returns true once
   * `data: [DONE]` has been seen. Throws GatewayError for an event that is an error report, or
   * 'parse' for an event that starts like JSON but is not. Non-JSON data is ignored, except in
   * an event named 'error', whose data (JSON or text) is the error.
   */
  push(data: string, parsed?: unknown, event?: string): boolean;
  /**
   * Settles the reply. Throws GatewayError 'unavailable' / 'truncated' (retryable, with the
   * partial text) when the stream ended without `[DONE]` before the reply's choice had a
   * finish_reason; otherwise applies finalizeTurn (may throw 'failed' or 'empty').
   */
  finish(end: StreamEnd): GatewayResult;
  /**
   * Feeds an event that came after `[DONE]`: only its usage is read (servers that send the usage
   * chunk after the end marker); its text, calls and errors are not the reply's.
   */
  pushTrailer(data: string, parsed?: unknown): void;
  /**
   * True once the reply's choice has a finish_reason (the reply is complete even without
   * `[DONE]`), unless the stream carries content-filter verdicts and none has blocked it yet: a
   * filter running behind the stream (Azure's asynchronous filter) may still block the answer
   * after its finish_reason, so then only `[DONE]` or the end of the stream settles it.
   */
  finished(): boolean;
  /** True once usage has been read. */
  readonly hasUsage: boolean;
  /**
   * How many pieces of the reply that added to it (text, reasoning, a tool-call fragment) were
   * read so far: a count that grows after every choice has its finish_reason says the stream had
   * not really ended (a closing chunk restating the whole message adds nothing).
   */
  readonly pieces: number;
  /** Answer text of the primary choice so far (reasoning removed). */
  readonly text: string;
  /** True once any answer text went out through onToken (retrying would repeat it). */
  readonly emittedText: boolean;
}

interface ChoiceState {
  text: string;
  reasoning: string;
  finishReason: string | null;
  calls: CallAssembler;
  splitter: ReasoningSplitter;
  details: ReasoningDetailsJoiner;
  thinking: ThinkingBlocksJoiner;
}

/**
 * Creates an assembler. `hooks.onToken` gets the primary choice's answer fragments in order,
 * `hooks.onReasoning` the reasoning fragments, `hooks.onRetract` the news that answer text
 * already passed on was reasoning after all.
 */
export function createStreamAssembler(
  hooks: GatewayHooks = {},
  options: AssemblerOptions = {},
): StreamAssembler {
  const newId = options.newId ?? toolCallIdFactory();
  const picker = createChoicePicker();
  const reply: ChoiceState = {
    text: '',
    reasoning: '',
    finishReason: null,
    calls: createCallAssembler({ offeredTools: options.offeredTools }),
    splitter: createReasoningSplitter(options.reasoningStartsInside),
    details: createReasoningDetailsJoiner(),
    thinking: createThinkingBlocksJoiner(),
  };
  let usage: GatewayUsage | null = null;
  let model: string | undefined;
  let emittedText = false;
  let pieces = 0;
  // content-filter verdicts: seen at all (the filter may still block the answer after its
  // finish_reason, so only the stream's end settles it), and whether one blocked the answer
  let verdicts = false;
  let filtered = false;
  const noteVerdict = (verdict: FilterVerdict | undefined) => {
    if (verdict === undefined) return;
    verdicts = true;
    if (verdict === 'filtered') filtered = true;
  };
  const warnings: string[] = [];
  let warnedJunk = false;

  const primaryText = () => reply.text;

  const addText = (c: ChoiceState, piece: { answer: string; reasoning: string; retracted: boolean }) => {
    if (piece.retracted) {
      // the text taken back comes again as the piece's reasoning: kept once, not here as well
      c.text = '';
      hooks.onRetract?.();
    }
    if (piece.reasoning !== '' || piece.answer !== '') pieces++;
    if (piece.reasoning !== '') {
      c.reasoning += piece.reasoning;
      hooks.onReasoning?.(piece.reasoning);
    }
    if (piece.answer !== '') {
      c.text += piece.answer;
      emittedText = true;
      hooks.onToken?.(piece.answer);
    }
  };

  // what each piece adds, to the answer (before reasoning is split off) and to the reasoning,
  // whether the server sends deltas or snapshots of the whole text so far
  const answerPieces = createPieceReader();
  const reasoningPieces = createPieceReader();
  const noteSnapshots = (was: boolean, reader: PieceReader, what: string) => {
    if (!was && reader.snapshots) warnings.push(`read the ${what} as snapshots of the whole text so far`);
  };
  // an end-of-turn token the server left in the answer, and what the model wrote after it
  const turnEnd = createTurnEndCutter();
  const cutTurnEnd = (piece: SplitPiece): SplitPiece => {
    if (piece.retracted) turnEnd.reset();
    return { ...piece, answer: turnEnd.push(piece.answer) };
  };
  const addPiece = (c: ChoiceState, piece: string) => {
    if (piece !== '') addText(c, cutTurnEnd(c.splitter.push(piece)));
  };

  /** One choice piece that is the reply's: its reasoning, text, calls and finish_reason. */
  const apply = (ch: NormalChoice) => {
    const c = reply;
    if (ch.tools.length > 0) pieces++;
    const wereSnapshots = [reasoningPieces.snapshots, answerPieces.snapshots];
    const reasoning = reasoningPieces.push(ch.reasoning, ch.whole);
    if (reasoning !== '') addText(c, { answer: '', reasoning, retracted: false });
    addPiece(c, answerPieces.push(ch.text, ch.whole));
    noteSnapshots(wereSnapshots[0], reasoningPieces, 'reasoning');
    noteSnapshots(wereSnapshots[1], answerPieces, 'answer text');
    if (ch.reasoningDetails.length > 0) c.details.add(ch.reasoningDetails);
    if (ch.thinkingBlocks.length > 0) c.thinking.add(ch.thinkingBlocks);
    for (const f of ch.tools) c.calls.add(f);
    noteVerdict(ch.filter);
    // a failure said once (content_filter, error) is not taken back by a later finish_reason
    if (ch.finish !== null && !failedFinish(c.finishReason)) c.finishReason = ch.finish;
  };
  /** The finish reason the reply ends with: content_filter once a verdict blocked it, whatever came after. */
  const finalFinish = () => (filtered ? 'content_filter' : reply.finishReason);

  /** An error reported after the reply finished cleanly is noted (late-stream-error.ts); else it fails the reply. */
  const noteOrThrow = (failure: GatewayError): void => {
    const cleanFinish = reply.finishReason !== null && !failedFinish(reply.finishReason) && !verdicts;
    if (!ignoredAfterFinish(failure, cleanFinish)) throw failure;
    warnings.push(lateErrorWarning(failure));
  };

  /** One parsed event: an error in it fails the reply; its model, usage and choices are read. */
  const read = (raw: unknown) => {
    // a chunk inside a proxy's envelope ({code: 0, data: {...}}) is the chunk it holds
    const payload = unwrapReply(raw);
    const failure = classifyErrorPayload(payload, primaryText());
    if (failure) return noteOrThrow(failure);
    const chunk = normaliseChunk(payload);
    if (!chunk) return;
    if (model === undefined && chunk.model !== undefined) model = chunk.model;
    if (chunk.usage) usage = chunk.usage;
    noteVerdict(chunk.promptFilter);
    for (const ch of picker.route(chunk.choices)) apply(ch);
  };

  return {
    get text() {
      return primaryText();
    },
    get emittedText() {
      return emittedText;
    },
    get hasUsage() {
      return usage !== null;
    },
    get pieces() {
      return pieces;
    },
    pushTrailer(data: string, parsed?: unknown): void {
      let payload = parsed;
      if (payload === undefined) {
        try {
          payload = JSON.parse(data.trim());
        } catch {
          return;
        }
      }
      payload = unwrapReply(payload);
      const chunk = isErrorPayload(payload) ? undefined : normaliseChunk(payload);
      if (chunk?.usage) usage = chunk.usage;
    },
    finished: () => (reply.finishReason !== null || picker.heldFinished()) && (!verdicts || filtered),

    push(data: string, parsed?: unknown, event?: string): boolean {
      if (event === 'error') {
        noteOrThrow(errorEventFailure(data, parsed, primaryText()));
        return false;
      }
      let payload = parsed;
      if (payload === undefined) {
        const trimmed = data.trim();
        if (trimmed === '[DONE]') return true;
        if (trimmed === '') return false;
        if (trimmed[0] === '"') {
          // an event encoded once more as a JSON string (`"{\"id\":...}"`, `"[DONE]"`)
          if (DONE_AS_TEXT.test(trimmed)) return true;
          const inner = jsonTextValue(trimmed);
          if (inner !== undefined) {
            read(inner);
            return false;
          }
        }
        if (trimmed[0] !== '{' && trimmed[0] !== '[') {
          if (!warnedJunk) {
            warnedJunk = true;
            warnings.push(`ignored a non-JSON stream event: ${JSON.stringify(clipGraphemes(trimmed, 60))}`);
          }
          return false;
        }
        try {
          payload = JSON.parse(trimmed);
        } catch (err) {
          // whole chunks followed by junk or by another chunk: each whole one is read
          const lead = leadingJson(trimmed);
          if (lead.values.length === 0) {
            throw new GatewayError(
              'parse',
              `unreadable stream event: ${JSON.stringify(clipGraphemes(trimmed, 80))}`,
              {
                reason: 'unreadable',
                partialText: primaryText() || undefined,
                cause: err,
              },
            );
          }
          if (lead.rest !== '')
            warnings.push(
              `ignored bytes after a stream event: ${JSON.stringify(clipGraphemes(lead.rest, 60))}`,
            );
          for (const value of lead.values) read(value);
          return false;
        }
      }
      read(payload);
      return false;
    },
    finish(end: StreamEnd): GatewayResult {
      for (const ch of picker.release()) apply(ch);
      if (end !== 'done' && finalFinish() === null) {
        throw new GatewayError(
          'unavailable',
          end === 'reset'
            ? 'the gateway connection dropped before the answer was complete'
            : 'the gateway stream ended before the answer was complete',
          { reason: 'truncated', retryable: true, partialText: primaryText() || undefined },
        );
      }
      const c = reply;
      const heldReasoning = reasoningPieces.end();
      if (heldReasoning !== '') addText(c, { answer: '', reasoning: heldReasoning, retracted: false });
      addPiece(c, answerPieces.end());
      addText(c, cutTurnEnd(c.splitter.end()));
      addText(c, { answer: turnEnd.end(), reasoning: '', retracted: false });
      if (turnEnd.dropped !== undefined)
        warnings.push(`dropped the end-of-turn token ${turnEnd.dropped} the server left in the answer`);
      const result = finalizeTurn(
        {
          text: c.text,
          reasoning: c.reasoning,
          toolCalls: c.calls.calls(),
          finishReason: finalFinish(),
          usage,
          streamed: true,
          warnings,
          model,
          offeredTools: options.offeredTools,
        },
        hooks,
        newId,
      );
      if (c.splitter.seen !== 'none') result.inlineReasoning = c.splitter.seen;
      const details = c.details.items();
      if (details.length > 0) result.reasoningDetails = details;
      const thinking = c.thinking.blocks();
      if (thinking.length > 0) result.thinkingBlocks = thinking;
      return result;
    },
  };
}

/**
 * The failure an SSE error event reports: its data is an error payload (`{error: ...}`), an
 * error object without the wrapper, or plain text; whichever, the stream has failed with it.
 */
function errorEventFailure(data: string, parsed: unknown, partialText: string): GatewayError {
  let payload = parsed;
  if (payload === undefined) {
    try {
      payload = JSON.parse(data);
    } catch {
      payload = undefined;
    }
  }
  const wrapped =
    typeof payload === 'object' && payload !== null && !Array.isArray(payload) && 'error' in payload
      ? payload
      : { error: payload ?? (data.trim() || 'the gateway reported an error in its stream') };
  return (
    classifyErrorPayload(wrapped, partialText) ??
    new GatewayError('failed', 'provider error: the gateway reported an error in its stream', {
      reason: 'provider_error',
      partialText: partialText || undefined,
    })
  );
}

/** True for a finish reason saying the answer failed: `content_filter` or `error`, in any provider's spelling. */
function failedFinish(raw: string | null): boolean {
  if (raw === null) return false;
  const canonical = canonicalFinishReason(raw);
  return canonical === 'content_filter' || canonical === 'error';
}
