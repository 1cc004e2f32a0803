// A model that closes its call with </tool_call> but leaves the object's last brace open:
// '<tool_call>{"name": "terminal", "arguments": {"command": "ls -la"}</tool_call>' (Qwen 3.5 and
// Hermes-family models, https://github.com/NousResearch/hermes-agent/pull/5315; GLM dropping
// closing braces, https://github.com/NousResearch/hermes-agent/issues/13042). vLLM's Hermes parser
// cannot read it and hands the whole call over as answer text
// (https://github.com/vllm-project/vllm/issues/17790): the person read the markup and the tool
// never ran. The closing tag says the call ends there, so the braces it left open are closed.
import { expect, it } from 'vitest';
import { agentTurn } from './agent-turn.js';
import { choiceEvent, completionStep, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const UNCLOSED =
  '<tool_call>\n{"name": "append_row", "arguments": {"id": "water", "row": {"ml": 250}}\n</tool_call>';

it('whole: the call runs, and no markup is the answer', async () => {
  gw.script(completionStep({ message: { role: 'assistant', content: UNCLOSED }, finish_reason: 'stop' }), {
    kind: 'reply',
    text: 'Logged 250 ml.',
  });
  const { result, dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows', 'append_row'] });
  expect(dispatched).toEqual([{ name: 'append_row', args: { id: 'water', row: { ml: 250 } } }]);
  expect(result.payload?.reply).toBe('Logged 250 ml.');
});

it('streamed in pieces, with words before it: the call runs and its markup is taken back', async () => {
  const text = `Let me log that.\n\n${UNCLOSED}`;
  const pieces = text.match(/[\s\S]{1,7}/g) ?? [];
  gw.script(
    sseStep(
      ...pieces.map((p) => choiceEvent({ delta: { content: p } })),
      choiceEvent({ delta: {}, finish_reason: 'stop' }),
      DONE,
    ),
    { kind: 'reply', text: 'Logged 250 ml.' },
  );
  const { result, dispatched, events } = await agentTurn(gw, { stream: true, tools: ['append_row'] });
  expect(dispatched).toEqual([{ name: 'append_row', args: { id: 'water', row: { ml: 250 } } }]);
  expect(result.payload?.reply).toBe('Logged 250 ml.');
  // what stays on screen: the words after the last reset (the streamed markup is taken back)
  const last = events.map((e) => e.type).lastIndexOf('reset');
  expect(last).toBeGreaterThan(-1);
  const shown = events
    .slice(last)
    .flatMap((e) => (e.type === 'token' ? [e.data.text] : []))
    .join('');
  expect(shown).not.toContain('append_row');
  // the call goes back whole
  const assistant = (gw.requests[1].body.messages as Array<Record<string, unknown>>).find(
    (m) => m.role === 'assistant',
  ) as { tool_calls: Array<{ function: { arguments: string } }> };
  expect(assistant.tool_calls[0].function.arguments).toBe('{"id":"water","row":{"ml":250}}');
});

it('a call whose tag never closes (cut off) stays text', async () => {
  const cut = '<tool_call>\n{"name": "append_row", "arguments": {"id": "water", "row": {"ml": 250}';
  gw.script(completionStep({ message: { role: 'assistant', content: cut }, finish_reason: 'stop' }));
  const { dispatched } = await agentTurn(gw, { stream: false, tools: ['append_row'] });
  expect(dispatched).toEqual([]);
});

it('a closed call to a tool not offered stays text', async () => {
  const other = '<tool_call>\n{"name": "delete_all", "arguments": {"id": "water"}\n</tool_call>';
  gw.script(completionStep({ message: { role: 'assistant', content: other }, finish_reason: 'stop' }));
  const { dispatched, result } = await agentTurn(gw, { stream: false, tools: ['append_row'] });
  expect(dispatched).toEqual([]);
  expect(result.payload?.reply).toContain('delete_all');
});
