// Finish reasons in another provider's spelling, as gateways that pass a reply through unchanged
// send them (Gemini's upper-case STOP / MAX_TOKENS / SAFETY, Anthropic's and Bedrock's end_turn /
// max_tokens / tool_use): each means what OpenAI's word means, streamed and buffered. A reply cut
// off at the length limit says so, a call cut off inside its arguments is never offered to a
// tool, a filtered reply fails (Zhipu's `sensitive` too, and a router's native_finish_reason that
// names a safety stop its own `stop` hides); the spelling as sent stays in rawFinishReason.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const CUT_CALL = [
  { index: 0, id: 'c1', type: 'function', function: { name: 'append_row', arguments: '{"id":"wa' } },
];

/**
 * The reply as an event stream (streamed) or one JSON body, ending with `finish` (and, from a
 * router, the provider's own word as `native_finish_reason`).
 */
function served(
  streamed: boolean,
  message: { content?: string; tool_calls?: unknown[] },
  finish: string,
  native?: string,
): ScriptStep {
  const ending = native === undefined ? {} : { native_finish_reason: native };
  if (!streamed) {
    const body = {
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: finish,
          ...ending,
          message: { role: 'assistant', content: null, ...message },
        },
      ],
    };
    return { kind: 'bytes', headers: { 'Content-Type': 'application/json' }, chunks: [JSON.stringify(body)] };
  }
  const event = (delta: unknown, f: string | null, extra = {}) =>
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: f, ...extra }] })}\n\n`;
  return { kind: 'bytes', chunks: [event(message, null), event({}, finish, ending), 'data: [DONE]\n\n'] };
}

for (const streamed of [true, false]) {
  describe(streamed ? 'streamed' : 'buffered', () => {
    // model_context_window_exceeded: Anthropic, Bedrock and Z.ai (GLM) when input and output
    // together fill the model's context; ERROR_LIMIT: Cohere's older API for the same
    for (const spelling of ['MAX_TOKENS', 'max_tokens', 'model_context_window_exceeded', 'ERROR_LIMIT']) {
      it(`${spelling} is the length limit: text is marked cut off, a cut call is not run`, async () => {
        gw.script(
          served(streamed, { content: 'Your sleep this week was' }, spelling),
          served(streamed, { tool_calls: CUT_CALL }, spelling),
        );
        const cfg = configFor(gw.url);
        const text = await callGateway(cfg, { messages: userSays('sleep?'), stream: streamed });
        expect(text).toMatchObject({ finishReason: 'length', rawFinishReason: spelling });
        const err = await gatewayFailure(callGateway(cfg, { messages: userSays('log'), stream: streamed }));
        // the two that say the context filled up are told as such (asking again stops there too)
        const contextFull = spelling === 'model_context_window_exceeded' || spelling === 'ERROR_LIMIT';
        expect(err).toMatchObject({ kind: 'failed', reason: contextFull ? 'context_full' : 'length' });
      });
    }

    // refusal: Anthropic's models stopping their own answer for safety reasons
    // sensitive: Zhipu's (GLM) and Doubao's safety review
    for (const spelling of ['SAFETY', 'PROHIBITED_CONTENT', 'guardrail_intervened', 'refusal', 'sensitive']) {
      it(`${spelling} is a content filter: the reply fails`, async () => {
        gw.script(served(streamed, { content: 'Partial' }, spelling));
        const err = await gatewayFailure(
          callGateway(configFor(gw.url), { messages: userSays('x'), stream: streamed }),
        );
        expect(err).toMatchObject({ kind: 'failed', reason: 'content_filter' });
      });
    }

    // Bedrock's malformed_model_output and malformed_tool_use, Gemini's UNEXPECTED_TOOL_CALL and
    // TOO_MANY_TOOL_CALLS, Cohere's TIMEOUT: the provider could not finish the answer
    for (const spelling of [
      'abort',
      'insufficient_system_resource',
      'malformed_tool_use',
      'malformed_model_output',
      'UNEXPECTED_TOOL_CALL',
      'TOO_MANY_TOOL_CALLS',
      'TIMEOUT',
      // Zhipu (GLM): the model's inference failed
      'network_error',
    ]) {
      it(`${spelling} (the answer was not finished) fails the reply and is asked again while nothing showed`, async () => {
        gw.script(
          served(streamed, { content: '' }, spelling),
          served(streamed, { content: 'Your resting heart rate is 58.' }, 'stop'),
          served(streamed, { content: 'Your resting heart rate' }, spelling),
        );
        const cfg = configFor(gw.url, { maxRetries: 1, retryBaseDelayMs: 1 });
        const retried = await callGateway(cfg, { messages: userSays('hr?'), stream: streamed });
        expect(retried.text).toBe('Your resting heart rate is 58.');
        expect(gw.requests).toHaveLength(2);
        // a fragment is never passed off as the whole answer
        const err = await gatewayFailure(
          callGateway({ ...cfg, maxRetries: 0 }, { messages: userSays('hr?'), stream: streamed }),
        );
        expect(err).toMatchObject({ kind: 'failed', reason: 'provider_error' });
        expect(err.message).toContain(spelling);
      });
    }

    // a router that normalises the provider's safety stop to `stop` keeps the provider's word in
    // native_finish_reason: the fragment the filter let through is no answer
    it('stop with a native_finish_reason of sensitive or SAFETY is a content filter; a native stop is not', async () => {
      gw.script(
        served(streamed, { content: 'Partial' }, 'stop', 'sensitive'),
        served(streamed, { content: 'Partial' }, 'stop', 'SAFETY'),
        served(streamed, { content: 'Done.' }, 'stop', 'end_turn'),
      );
      const cfg = configFor(gw.url);
      for (let i = 0; i < 2; i++) {
        const err = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: streamed }));
        expect(err).toMatchObject({ kind: 'failed', reason: 'content_filter' });
      }
      const r = await callGateway(cfg, { messages: userSays('x'), stream: streamed });
      expect(r).toMatchObject({ text: 'Done.', finishReason: 'stop' });
    });

    it('STOP and end_turn are a natural end, tool_use with a whole call runs it', async () => {
      const call = [{ ...CUT_CALL[0], function: { name: 'append_row', arguments: '{"id":"water"}' } }];
      gw.script(
        served(streamed, { content: 'Done.' }, 'STOP'),
        served(streamed, { content: 'Done.' }, 'end_turn'),
        served(streamed, { tool_calls: call }, 'tool_use'),
      );
      const cfg = configFor(gw.url);
      for (const raw of ['STOP', 'end_turn']) {
        const r = await callGateway(cfg, { messages: userSays('x'), stream: streamed });
        expect(r).toMatchObject({ text: 'Done.', finishReason: 'stop', rawFinishReason: raw });
      }
      const r = await callGateway(cfg, { messages: userSays('x'), stream: streamed });
      expect(r.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([['append_row', { id: 'water' }]]);
    });
  });
}
