// An error a relay writes into the stream after the answer already finished: the chunk with
// `finish_reason: "stop"` (or `tool_calls`) has come, and then, before `[DONE]` or the end of the
// stream, `data: {"error": ...}` or `event: error`. Proxies that time out waiting for the end
// marker or the usage chunk write their idle-timeout error so ("Stream timeout: no data received
// for 30000ms", https://github.com/zhushanwen321/llm-simple-router/pull/179; GoModel's
// `stream_incomplete`, https://github.com/ENTERPILOT/GoModel/pull/1048). The finished answer stands
// and its calls run; the person sees no error. An error before the finish, or a content filter's
// verdict after it, still fails the answer.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const sse = (payload: object | string, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
const chunk = (delta: object, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  model: 'relayed-model',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const answer = [
  sse(chunk({ role: 'assistant', content: 'You drank ' })),
  sse(chunk({ content: '1.5 l of water today.' })),
  sse(chunk({}, 'stop')),
];
const timeoutError = {
  error: { message: 'Stream timeout: no data received for 30000ms', type: 'stream_timeout', code: 'timeout' },
};
const stream = (parts: string[]): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [parts.join('')],
});

it('an error payload after the finished answer: the answer is the reply, no error shown', async () => {
  gw.script(stream([...answer, sse(timeoutError), sse('[DONE]')]));
  const { result } = await agentTurn(gw, { stream: true });
  expect(result.error).toBeUndefined();
  expect(result.payload?.reply).toBe('You drank 1.5 l of water today.');
});

it('an `event: error` after the finished answer, the stream then closed: the answer is the reply', async () => {
  const incomplete = {
    error: { message: 'provider stream ended before completion', code: 'stream_incomplete' },
  };
  gw.script(stream([...answer, sse(incomplete, 'error')]));
  const { result } = await agentTurn(gw, { stream: true });
  expect(result.error).toBeUndefined();
  expect(result.payload?.reply).toBe('You drank 1.5 l of water today.');
});

it('a call finished with tool_calls, then an error: the call runs once and the turn goes on', async () => {
  const call = chunk({
    tool_calls: [
      {
        index: 0,
        id: 'call_1',
        type: 'function',
        function: { name: 'read_rows', arguments: '{"id":"water"}' },
      },
    ],
  });
  gw.script(stream([sse(call), sse(chunk({}, 'tool_calls')), sse(timeoutError)]), {
    kind: 'reply',
    text: 'You drank 1.5 l.',
  });
  const { result, dispatched } = await agentTurn(gw, { stream: true, tools: ['read_rows'] });
  expect(dispatched).toEqual([{ name: 'read_rows', args: { id: 'water' } }]);
  expect(result.error).toBeUndefined();
  expect(result.payload?.reply).toBe('You drank 1.5 l.');
});

it('an error before the finish still fails the answer', async () => {
  gw.script(stream([answer[0], answer[1], sse(timeoutError), sse('[DONE]')]));
  const { result } = await agentTurn(gw, { stream: true });
  expect(result.error).toBeDefined();
  expect(result.payload).toBeUndefined();
});

it("a content filter's refusal after the finish still fails the answer", async () => {
  const filtered = {
    error: {
      code: 'content_filter',
      message:
        "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
    },
  };
  gw.script(stream([...answer, sse(filtered), sse('[DONE]')]));
  const { result } = await agentTurn(gw, { stream: true });
  expect(result.error).toBeDefined();
  expect(result.payload).toBeUndefined();
});
