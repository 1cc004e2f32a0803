// Groq answers a model's malformed tool call (one its parser could not read, or a call to a tool
// that was not offered) with HTTP 400, type `invalid_request_error`, code `tool_use_failed` and the
// model's raw output in `failed_generation` (groq/groq-typescript#28, pipecat-ai/pipecat#1168);
// a stream that had started reports the same error as an event. Nothing was wrong with the
// request: the model slipped and usually answers readably when asked again (pydantic-ai retries
// it). So it is asked again within the retry budget instead of failing the turn as a refused
// request, it teaches the provider memory nothing, and once the retries run out the turn fails
// saying the provider could not read the model's answer.
import { describe, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { ProviderMemory } from '../../src/chat/gateway/provider-memory.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';
import { functionTools, scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const tools = functionTools('append_row');
const retrying = (extra = {}) => configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1, ...extra });

const unreadableCall = {
  message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
  type: 'invalid_request_error',
  code: 'tool_use_failed',
  // a call to a tool that was not offered (a readable call to an offered one is read instead:
  // failed-generation-read.test.ts)
  failed_generation: '<function=append_rows={"id": "water", "value": 250}</function>',
};
const errors: Array<[string, Record<string, unknown>]> = [
  ['an unreadable call (code and failed_generation)', unreadableCall],
  ['an empty failed_generation', { ...unreadableCall, failed_generation: '' }],
  [
    'a call that failed validation (code, no failed_generation)',
    {
      message:
        'tool call validation failed: parameters for tool append_row did not match schema: errors: [`/name`: expected string, but got number]',
      type: 'invalid_request_error',
      param: '',
      code: 'tool_use_failed',
    },
  ],
  [
    'failed_generation under another code',
    { message: 'Failed to generate JSON.', type: 'invalid_request_error', failed_generation: '{' },
  ],
];

const status400 = (error: unknown): ScriptStep => ({ kind: 'error', status: 400, body: { error } });
const inStream = (error: unknown): ScriptStep => ({
  kind: 'bytes',
  chunks: [`data: ${JSON.stringify({ error })}\n\n`],
});

for (const [how, failure] of [
  ['with status 400', status400],
  ['as an event of a started stream', inStream],
] as const) {
  describe(`a malformed tool call reported ${how}`, () => {
    for (const [what, error] of errors) {
      it(`${what}: asked again, and the next answer is the turn's`, async () => {
        gw.script(failure(error), {
          kind: 'reply',
          toolCalls: [{ name: 'append_row', arguments: { id: 'water' } }],
        });
        const heard = recordHooks();
        const memory = new ProviderMemory();
        const result = await callGateway(
          retrying({ memory }),
          { messages: userSays('250 ml water'), stream: true, tools },
          heard.hooks,
        );
        expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([
          ['append_row', { id: 'water' }],
        ]);
        expect(heard.retries).toHaveLength(1);
        expect(gw.requests).toHaveLength(2);
        // the same request went again: nothing was "repaired" away from it
        expect(gw.requests[1].body).toEqual(gw.requests[0].body);
      });
    }

    it('every attempt malformed: three requests, then the turn fails saying so', async () => {
      gw.script(failure(unreadableCall), failure(unreadableCall), failure(unreadableCall));
      const err = await gatewayFailure(
        callGateway(retrying(), { messages: userSays('250 ml water'), stream: true, tools }),
      );
      expect(gw.requests).toHaveLength(3);
      expect(err.kind).toBe('failed');
      expect(err.reason).toBe('malformed_output');
      expect(err.message).toMatch(/could not read the model's answer/);
    });
  });
}

it('a 400 invalid_request_error with neither the code nor failed_generation is still final', async () => {
  gw.script(status400({ message: "'temperature' must be at most 2", type: 'invalid_request_error' }));
  const err = await gatewayFailure(
    callGateway(retrying(), { messages: userSays('hi'), stream: true, tools }),
  );
  expect(gw.requests).toHaveLength(1);
  expect(err.retryable).toBe(false);
});

it('with retries turned off, the malformed call fails the turn at once', async () => {
  gw.script(status400(unreadableCall));
  const err = await gatewayFailure(
    callGateway(retrying({ maxRetries: 0 }), { messages: userSays('hi'), tools }),
  );
  expect(gw.requests).toHaveLength(1);
  expect(err.reason).toBe('malformed_output');
});
