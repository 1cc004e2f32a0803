// A model that names the tool it calls in other letter case or word separators than offered:
// Claude Sonnet 4.5 calling decision_F for decision_f
// (https://github.com/anthropics/anthropic-sdk-python/issues/1093), Ring calling Read for read
// (https://github.com/earendil-works/pi/issues/4517), GLM behind LM Studio calling list for List
// (https://github.com/lijunzh/koda/issues/548), models writing Read_file for read_file
// (https://github.com/Tencent/AI-Infra-Guard/issues/359). The call went to a tool that does not
// exist, the model was told so and often called the same name again until the turn ran out. Such a
// name is read as the one offered tool it spells; when two offered tools would fit, neither is.
import { expect, it } from 'vitest';
import { agentTurn } from './agent-turn.js';
import { choiceEvent, completionStep, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

/** A whole reply calling `name` with `{"id":"water"}`. */
const calling = (name: string) =>
  completionStep({
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: '{"id":"water"}' } }],
    },
    finish_reason: 'tool_calls',
  });

for (const name of ['Read_Rows', 'READ_ROWS', 'readRows', 'read-rows']) {
  it(`${name} runs read_rows`, async () => {
    gw.script(calling(name), { kind: 'reply', text: 'You drank 1.2 litres.' });
    const { result, dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows', 'append_row'] });
    expect(dispatched).toEqual([{ name: 'read_rows', args: { id: 'water' } }]);
    expect(result.payload?.reply).toBe('You drank 1.2 litres.');
    // the call goes back under the offered name, as the tool reply names it
    const messages = gw.requests[1].body.messages as Array<Record<string, unknown>>;
    const assistant = messages.find((m) => m.role === 'assistant') as {
      tool_calls: Array<{ function: { name: string } }>;
    };
    expect(assistant.tool_calls[0].function.name).toBe('read_rows');
    expect(messages.at(-1)).toMatchObject({ role: 'tool', name: 'read_rows' });
  });
}

it('streamed: Append_Row runs append_row', async () => {
  gw.script(
    sseStep(
      choiceEvent({
        delta: {
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: 'Append_Row', arguments: '{"id":"water","row":{"ml":250}}' },
            },
          ],
        },
      }),
      choiceEvent({ delta: {}, finish_reason: 'tool_calls' }),
      DONE,
    ),
    { kind: 'reply', text: 'Logged 250 ml.' },
  );
  const { dispatched } = await agentTurn(gw, { stream: true, tools: ['read_rows', 'append_row'] });
  expect(dispatched).toEqual([{ name: 'append_row', args: { id: 'water', row: { ml: 250 } } }]);
});

it('a name two offered tools would fit is left as written', async () => {
  gw.script(calling('READ_ROWS'), { kind: 'reply', text: 'ok' });
  const { dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows', 'readRows'] });
  expect(dispatched.map((d) => d.name)).toEqual(['READ_ROWS']);
});

it('a name no offered tool spells is left as written', async () => {
  gw.script(calling('read_row'), { kind: 'reply', text: 'ok' });
  const { dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows', 'append_row'] });
  expect(dispatched.map((d) => d.name)).toEqual(['read_row']);
});
