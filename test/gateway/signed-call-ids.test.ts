// Gemini 3 refuses the next request of a tool loop unless each call it made comes back with its
// thought signature: 400 "Function call is missing a thought_signature in functionCall parts"
// (https://github.com/BerriAI/litellm/issues/16893). LiteLLM keeps that signature in the call's id,
// call_<id>__thought__<signature>, and reads it back out of the id of the call that comes back
// (https://github.com/BerriAI/litellm/pull/16895); other relays in front of Gemini do the same.
// Klebb gave every call an id of its own, so every tool loop through such a relay failed at its
// second request. Such an id now goes back as given; any other id is still replaced by ours.
import { expect, it } from 'vitest';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { choiceEvent, completionStep, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const SIGNED =
  'call_5b1e0c9e2f7a4d0c8a3e__thought__CiQBjz1rX3c9Qm9v/Xk1hT0y7oW+LZ2wQn0pZsJ3XyqfJwF0Y2YaQwGPPWtf1y8=';

/** LiteLLM in front of Gemini 3: the second request must bring the call's signed id back. */
const litellmGemini =
  (id: string) =>
  (q: RecordedRequest): ScriptStep => {
    const messages = q.body.messages as Array<Record<string, unknown>>;
    const assistant = messages.find((m) => m.role === 'assistant') as
      | { tool_calls: Array<{ id: string }> }
      | undefined;
    const reply = messages.find((m) => m.role === 'tool');
    if (assistant?.tool_calls[0]?.id === id && reply?.tool_call_id === id)
      return { kind: 'reply', text: 'You drank 1.5 litres today.' };
    return {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message:
            'litellm.BadRequestError: Vertex_ai_betaException BadRequestError - {"error": {"code": 400, "message": "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:read_rows` , position 2.", "status": "INVALID_ARGUMENT"}}',
          type: null,
          param: null,
          code: '400',
        },
      },
    };
  };

it('a streamed call whose id carries its thought signature goes back under that id', async () => {
  gw.script(
    sseStep(
      choiceEvent({
        delta: {
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: SIGNED,
              type: 'function',
              function: { name: 'read_rows', arguments: '{"id": "water"}' },
            },
          ],
        },
      }),
      choiceEvent({ delta: {}, finish_reason: 'tool_calls' }),
      DONE,
    ),
    { kind: 'decide', choose: litellmGemini(SIGNED) },
  );
  const { result, dispatched } = await agentTurn(gw, { stream: true, tools: ['read_rows'] });
  expect(dispatched).toEqual([{ name: 'read_rows', args: { id: 'water' } }]);
  expect(result.payload?.reply).toBe('You drank 1.5 litres today.');
});

it('two signed calls in a whole reply each keep their own id', async () => {
  const second = 'call_9d2f__thought__Ck8BAdHtim9sZWNvbmQ=';
  gw.script(
    completionStep({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: SIGNED, type: 'function', function: { name: 'read_rows', arguments: '{"id":"water"}' } },
          { id: second, type: 'function', function: { name: 'read_rows', arguments: '{"id":"sleep"}' } },
        ],
      },
      finish_reason: 'tool_calls',
    }),
    { kind: 'reply', text: 'Done.' },
  );
  const { result } = await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  expect(result.payload?.reply).toBe('Done.');
  const messages = gw.requests[1].body.messages as Array<Record<string, unknown>>;
  const assistant = messages.find((m) => m.role === 'assistant') as { tool_calls: Array<{ id: string }> };
  expect(assistant.tool_calls.map((c) => c.id)).toEqual([SIGNED, second]);
  expect(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual([SIGNED, second]);
});

it('an ordinary provider id is still replaced by one of ours', async () => {
  gw.script(
    completionStep({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'functions.read_rows:0', type: 'function', function: { name: 'read_rows', arguments: '{}' } },
        ],
      },
      finish_reason: 'tool_calls',
    }),
    { kind: 'reply', text: 'Done.' },
  );
  await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  const messages = gw.requests[1].body.messages as Array<Record<string, unknown>>;
  const assistant = messages.find((m) => m.role === 'assistant') as { tool_calls: Array<{ id: string }> };
  expect(assistant.tool_calls[0].id).toMatch(/^[A-Za-z0-9]{9}$/);
});
