// Gemini (directly, through its OpenAI-compatible path or behind LiteLLM) now and then ends a turn
// with nothing: finish reason STOP and no text, no tool call, often right after a tool result;
// reasoning models sometimes stop inside their reasoning the same way. The same request asked
// again usually gets the answer. The reply is asked for once more before the person reads "No
// answer came back"; never more than once, and not when retries are turned off. A reply of
// reasoning only, twice, says that the model wrote only its reasoning (never the reasoning itself).
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { choiceEvent, completionStep, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();
const retrying = { maxRetries: 2, retryBaseDelayMs: 1 };

const emptyStream = (): ScriptStep =>
  sseStep(
    choiceEvent({ delta: { role: 'assistant', content: '' } }),
    choiceEvent({ delta: {}, finish_reason: 'stop' }),
    DONE,
  );
const reasoningOnly = (): ScriptStep =>
  sseStep(
    choiceEvent({ delta: { reasoning_content: 'The user wants today’s water.' } }),
    choiceEvent({ delta: { content: '' }, finish_reason: 'stop' }),
    DONE,
  );
const emptyJson = (): ScriptStep =>
  completionStep({ message: { role: 'assistant', content: null }, finish_reason: 'stop' });

for (const [label, empty, stream] of [
  ['a stream of no text', emptyStream, true],
  ['a stream of reasoning only', reasoningOnly, true],
  ['a JSON reply with content null', emptyJson, false],
] as const) {
  it(`${label}: asked once more, and the answer that comes is the reply`, async () => {
    gw.script(empty(), { kind: 'reply', text: 'You drank 1.2 litres today.' });
    const { result } = await agentTurn(gw, { stream, gateway: retrying });
    expect(result.payload?.reply).toBe('You drank 1.2 litres today.');
    expect(gw.requests).toHaveLength(2);
  });
}

it('empty twice: asked once more only, then "No answer came back"', async () => {
  gw.script(emptyStream(), emptyStream(), { kind: 'reply', text: 'never asked for' });
  const { result } = await agentTurn(gw, { stream: true, gateway: retrying });
  expect(result.payload?.reply).toMatch(/No answer came back/);
  expect(gw.requests).toHaveLength(2);
});

it('after a tool call, the empty answer to its result is asked for once more', async () => {
  gw.script(
    {
      kind: 'reply',
      toolCalls: [{ id: 'c1', name: 'read_rows', arguments: '{"id":"water"}' }],
    },
    emptyStream(),
    { kind: 'reply', text: 'Your last entry was 250 ml.' },
  );
  const { result, dispatched } = await agentTurn(gw, {
    stream: true,
    tools: ['read_rows'],
    gateway: retrying,
  });
  expect(dispatched).toHaveLength(1);
  expect(result.payload?.reply).toBe('Your last entry was 250 ml.');
  expect(gw.requests).toHaveLength(3);
});

it('with retries turned off, an empty reply is not asked again', async () => {
  gw.script(emptyStream(), { kind: 'reply', text: 'never asked for' });
  const { result } = await agentTurn(gw, { stream: true });
  expect(result.payload?.reply).toMatch(/No answer came back/);
  expect(gw.requests).toHaveLength(1);
});

it('reasoning only twice: told that the model wrote only its reasoning, never the reasoning itself', async () => {
  gw.script(reasoningOnly(), reasoningOnly(), { kind: 'reply', text: 'never asked for' });
  const { result } = await agentTurn(gw, { stream: true, gateway: retrying });
  expect(result.payload?.reply).toMatch(/^The model wrote only its reasoning and no answer\. /);
  expect(result.payload?.reply).not.toContain('water');
  expect(gw.requests).toHaveLength(2);
});

it('reasoning only in answer to a tool that wrote: the changes are listed after that cause', async () => {
  gw.script(
    {
      kind: 'reply',
      toolCalls: [{ id: 'c1', name: 'append_row', arguments: '{"id":"water","row":{"ml":250}}' }],
    },
    reasoningOnly(),
    reasoningOnly(),
  );
  const { result, dispatched } = await agentTurn(gw, {
    stream: true,
    tools: ['append_row'],
    gateway: retrying,
  });
  expect(dispatched).toHaveLength(1);
  expect(result.reason).toBe('gateway_error');
  expect(result.payload?.reply).toMatch(
    /^The model wrote only its reasoning and no answer\. Before that, I had already added a row to "water"/,
  );
});
