// A model that reaches its output limit while writing a tool call leaves the call's arguments cut
// off. Some providers say so (finish reason "length"); others report the cut call as finished:
// DashScope's Qwen with "stop", routers and some DeepSeek deployments with "tool_calls". Such a
// call must never run. Said as "could not answer, please try again", or, when the finish reason hid
// it, sent back to the model as invalid arguments, the model wrote the same long call again and hit
// the same limit round after round. The turn now ends saying what happened and what helps.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { choiceEvent, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();
const retrying = { maxRetries: 2, retryBaseDelayMs: 1 };

const cutCall = (finish: string): ScriptStep =>
  sseStep(
    choiceEvent({
      delta: {
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function', function: { name: 'write_note', arguments: '' } },
        ],
      },
    }),
    choiceEvent({
      delta: {
        tool_calls: [{ index: 0, function: { arguments: '{"id": "journal", "text": "Monday: slept ' } }],
      },
    }),
    choiceEvent({
      delta: { tool_calls: [{ index: 0, function: { arguments: 'well, walked 5 km, then' } }] },
    }),
    choiceEvent({ delta: {}, finish_reason: finish }),
    DONE,
  );

for (const finish of ['length', 'tool_calls', 'stop']) {
  it(`a call cut off inside its arguments, finish reason "${finish}": not run, and said so`, async () => {
    gw.script(cutCall(finish), cutCall(finish), cutCall(finish));
    const { result, dispatched } = await agentTurn(gw, {
      stream: true,
      tools: ['write_note'],
      gateway: retrying,
    });
    expect(dispatched).toEqual([]);
    expect(gw.requests).toHaveLength(1);
    expect(result.error).toMatch(/length limit/);
    expect(result.error).toMatch(/write_note/);
    expect(result.error).toMatch(/not run/);
    expect(result.error).toMatch(/smaller piece/);
    expect(result.error).not.toMatch(/please try again/i);
  });
}

it('arguments that are whole but wrong still go to the tool, which tells the model (guards what worked)', async () => {
  gw.script(
    {
      kind: 'reply',
      toolCalls: [{ id: 'c1', name: 'write_note', arguments: '{"id": journal}' }],
    },
    { kind: 'reply', text: 'Noted.' },
  );
  const { result, dispatched } = await agentTurn(gw, { stream: true, tools: ['write_note'] });
  expect(dispatched).toHaveLength(1);
  expect(dispatched[0].argumentsError).toBeDefined();
  expect(result.payload?.reply).toBe('Noted.');
});

it('whole arguments with a bracket inside a quoted text are not cut off (guards what worked)', async () => {
  gw.script(
    {
      kind: 'reply',
      toolCalls: [{ id: 'c1', name: 'write_note', arguments: "{'id': 'journal', 'text': 'mood {ok'}" }],
    },
    { kind: 'reply', text: 'Noted.' },
  );
  const { result, dispatched } = await agentTurn(gw, { stream: true, tools: ['write_note'] });
  expect(dispatched).toEqual([{ name: 'write_note', args: { id: 'journal', text: 'mood {ok' } }]);
  expect(result.payload?.reply).toBe('Noted.');
});
