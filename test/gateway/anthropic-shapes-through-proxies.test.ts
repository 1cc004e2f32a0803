// Proxies that put Claude (or another Anthropic-shaped API) behind an OpenAI-compatible path and
// translate only part of the reply pass Anthropic's own shapes on: the finish reason as
// `stop_reason` (`end_turn`, `max_tokens`, `tool_use`) with no `finish_reason`, and a call as a
// `tool_use` block among the content parts (`{type: "tool_use", id, name, input}`) instead of in
// `tool_calls` (pgEdge/pgedge-postgres-mcp#217 shows the two side by side). Read as sent, a stream
// that then ended without `[DONE]` looked cut off, a reply stopped at the length limit looked
// finished, and the call was lost. vLLM's own `stop_reason` (the token id or stop string that
// ended the answer, always beside a `finish_reason`) is no finish reason and changes nothing.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import {
  type Body,
  choiceEvent,
  completionStep,
  DONE,
  functionTools,
  scriptedGatewayPerTest,
  sseStep,
} from './wire.js';

const gw = scriptedGatewayPerTest();

const tools = functionTools('read_rows');
const chunk = (choice: Body) => choiceEvent(choice);
const sse = sseStep;
const json = (choice: Body) => completionStep(choice);

async function ask(step: ScriptStep, stream = true) {
  gw.script(step);
  return callGateway(configFor(gw.url), { messages: userSays('water'), stream, tools });
}

it('stop_reason end_turn and no finish_reason, the stream ending without [DONE]: the answer', async () => {
  const result = await ask(
    sse(chunk({ delta: { content: 'You drank 1.2 l.' } }), chunk({ delta: {}, stop_reason: 'end_turn' })),
  );
  expect(result.text).toBe('You drank 1.2 l.');
  expect(result.finishReason).toBe('stop');
});

it('stop_reason max_tokens in a stream: the answer, marked as cut off at the length limit', async () => {
  const result = await ask(
    sse(
      chunk({ delta: { content: 'You drank 1.2 l and' } }),
      chunk({ delta: {}, finish_reason: null, stop_reason: 'max_tokens' }),
      DONE,
    ),
  );
  expect(result.finishReason).toBe('length');
});

it('stop_reason inside the delta: read the same way', async () => {
  const result = await ask(
    sse(chunk({ delta: { content: 'You drank 1.2 l.' } }), chunk({ delta: { stop_reason: 'end_turn' } })),
  );
  expect(result.finishReason).toBe('stop');
});

it('a streamed call, then stop_reason tool_use and no [DONE]: the call runs', async () => {
  const result = await ask(
    sse(
      chunk({
        delta: {
          tool_calls: [
            {
              index: 0,
              id: 'toolu_1',
              type: 'function',
              function: { name: 'read_rows', arguments: '{"id":"water"}' },
            },
          ],
        },
      }),
      chunk({ delta: {}, stop_reason: 'tool_use' }),
    ),
  );
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([['read_rows', { id: 'water' }]]);
});

it('a whole reply with stop_reason max_tokens and no finish_reason: marked as cut off', async () => {
  const result = await ask(
    json({ message: { role: 'assistant', content: 'You drank 1.2 l and' }, stop_reason: 'max_tokens' }),
    false,
  );
  expect(result.finishReason).toBe('length');
});

it('a tool_use block among the content parts of a whole reply: the call runs, the text stays the text', async () => {
  const result = await ask(
    json({
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_rows', input: { id: 'water', limit: 3 } },
        ],
      },
      finish_reason: 'tool_calls',
    }),
    false,
  );
  expect(result.text).toBe('Let me look.');
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([
    ['read_rows', { id: 'water', limit: 3 }],
  ]);
});

it('a tool_use block among the content parts of a streamed delta: the call runs', async () => {
  const result = await ask(
    sse(
      chunk({
        delta: { content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_rows', input: { id: 'water' } }] },
      }),
      chunk({ delta: {}, stop_reason: 'tool_use' }),
      DONE,
    ),
  );
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([['read_rows', { id: 'water' }]]);
});

it("vLLM's stop_reason (a token id or stop string) beside finish_reason: finish_reason decides", async () => {
  const result = await ask(
    sse(
      chunk({ delta: { content: 'You drank 1.2 l.' }, stop_reason: null }),
      chunk({ delta: {}, finish_reason: 'stop', stop_reason: 154829 }),
      DONE,
    ),
  );
  expect(result.finishReason).toBe('stop');
});

it('a stop string as stop_reason with no finish_reason and no [DONE] is no finish: the stream is cut off', async () => {
  const err = await gatewayFailure(
    ask(sse(chunk({ delta: { content: 'You drank' } }), chunk({ delta: {}, stop_reason: '\n\nUser:' }))),
  );
  expect(err.reason).toBe('truncated');
});
