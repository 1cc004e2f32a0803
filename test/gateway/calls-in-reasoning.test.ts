// A tool call a server filed as reasoning: vLLM's reasoning parser puts everything before the end
// of the model's thinking into `reasoning`, and its tool parser reads only `content`. Qwen3.5
// writes its <tool_call><function=…> block inside <think> now and then, and the reply comes with
// the call in `reasoning`, `tool_calls: []` and no content
// (https://github.com/vllm-project/vllm/issues/39056); Qwen3 with thinking turned off, behind
// vLLM's deepseek_r1 parser, gets its whole output, Hermes <tool_call>{…} included, filed as
// `reasoning_content` (https://github.com/vllm-project/vllm/issues/19017). The model did act: the
// turn ended with "No answer came back" and the tool never ran. A call is read from the reasoning
// only when the reply has nothing else and the call ends the reasoning.
import { expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/chat/gateway/types.js';
import { agentTurn } from './agent-turn.js';
import { choiceEvent, completionStep, DONE, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const readRows: ToolDefinition = {
  type: 'function',
  function: {
    name: 'read_rows',
    parameters: { type: 'object', properties: { id: { type: 'string' }, limit: { type: 'integer' } } },
  },
};

const qwenCoderBlock =
  '<tool_call>\n<function=read_rows>\n<parameter=id>\nwater\n</parameter>\n<parameter=limit>\n7\n</parameter>\n</function>\n</tool_call>';

it('a Qwen3-Coder call block at the end of the reasoning, no content, tool_calls [] (whole reply): the call runs', async () => {
  gw.script(
    completionStep({
      message: {
        role: 'assistant',
        content: null,
        reasoning:
          'The person asks how much water they drank this week. I should read the rows of the water card.\n' +
          qwenCoderBlock,
        tool_calls: [],
      },
      finish_reason: 'stop',
    }),
    { kind: 'reply', text: 'You drank 9.1 litres this week.' },
  );
  const { result, dispatched } = await agentTurn(gw, { stream: false, toolDefinitions: [readRows] });
  expect(dispatched).toEqual([{ name: 'read_rows', args: { id: 'water', limit: 7 } }]);
  expect(result.payload?.reply).toBe('You drank 9.1 litres this week.');
  // the call goes back as the assistant's tool call, answered by its result
  const second = gw.requests[1].body as { messages: Array<Record<string, unknown>> };
  const assistant = second.messages.find((m) => m.role === 'assistant');
  expect(assistant?.tool_calls).toMatchObject([{ function: { name: 'read_rows' } }]);
  expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: '{"ok":true}' });
});

it('a Hermes <tool_call>{…} streamed in pieces as reasoning_content with content null: the call runs', async () => {
  const call = '<tool_call>\n{"name": "read_manifest", "arguments": {"id": "sleep"}}\n</tool_call>';
  const parts = call.match(/[\s\S]{1,9}/g) ?? [];
  gw.script(
    sseStep(
      choiceEvent({ delta: { role: 'assistant', content: '' } }),
      ...parts.map((p) => choiceEvent({ delta: { content: null, reasoning_content: p } })),
      choiceEvent({ delta: {}, finish_reason: 'stop' }),
      DONE,
    ),
    { kind: 'reply', text: 'Your sleep card tracks hours a night.' },
  );
  const { result, dispatched } = await agentTurn(gw, { stream: true, tools: ['read_manifest'] });
  expect(dispatched).toEqual([{ name: 'read_manifest', args: { id: 'sleep' } }]);
  expect(result.payload?.reply).toBe('Your sleep card tracks hours a night.');
});

it('a call the model only thinks about, with more reasoning after it, is not run', async () => {
  gw.script(
    completionStep({
      message: {
        role: 'assistant',
        content: '',
        reasoning_content: `I could write ${qwenCoderBlock} but the person only said hello, so no tool is needed.`,
      },
      finish_reason: 'stop',
    }),
  );
  const { result, dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  expect(dispatched).toEqual([]);
  expect(result.payload?.reply).toMatch(/^The model wrote only its reasoning and no answer\./);
});

it('a reply with an answer keeps its reasoning as reasoning: a call written there is not run', async () => {
  gw.script(
    completionStep({
      message: { role: 'assistant', content: 'Hello! How can I help?', reasoning_content: qwenCoderBlock },
      finish_reason: 'stop',
    }),
  );
  const { result, dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  expect(dispatched).toEqual([]);
  expect(result.payload?.reply).toBe('Hello! How can I help?');
});

it('a call to a tool that was not offered stays reasoning', async () => {
  gw.script(
    completionStep({
      message: {
        role: 'assistant',
        content: null,
        reasoning_content: '<tool_call>\n{"name": "delete_everything", "arguments": {}}\n</tool_call>',
      },
      finish_reason: 'stop',
    }),
  );
  const { result, dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  expect(dispatched).toEqual([]);
  expect(result.payload?.reply).toMatch(/^The model wrote only its reasoning and no answer\./);
});
