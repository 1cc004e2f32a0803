// Groq refuses a tool call its parser could not read with 400 tool_use_failed and quotes the
// model's output in failed_generation, often a plain call in Llama's own dialect:
// '<function=read={"file_path": "sample.txt"}</function>' (https://github.com/tashfeenahmed/freellmapi/pull/291),
// 'web_search{"query": "…", "filter_year": 2016}</function>' with the opening tag lost
// (https://github.com/huggingface/smolagents/issues/1119), or a {"tool_calls": [...]} object in
// a code fence (https://github.com/groq/groq-typescript/issues/28). A weaker model writes the same
// again when asked again, so each retry met the same 400 and the turn failed. A quoted call to an
// offered tool is the reply: it runs, with no second request.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { dataEvent, functionTools, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();
const tools = functionTools('read_manifest', 'read_manifest_rows');
const retrying = () => configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
const ask = { messages: userSays('steps this week?'), tools, stream: true };

const toolUseFailed = (failed_generation: string) => ({
  error: {
    message:
      "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
    type: 'invalid_request_error',
    code: 'tool_use_failed',
    failed_generation,
  },
});
const status400 = (generation: string): ScriptStep => ({
  kind: 'error',
  status: 400,
  body: toolUseFailed(generation),
});

const quoted: Array<[string, string, [string, unknown]]> = [
  [
    '<function=NAME={…}',
    '<function=read_manifest={"id": "steps"}</function>',
    ['read_manifest', { id: 'steps' }],
  ],
  [
    'NAME{…}</function> with the opening tag lost',
    'read_manifest_rows{"id": "steps", "limit": 7}</function>',
    ['read_manifest_rows', { id: 'steps', limit: 7 }],
  ],
  [
    'a {"tool_calls": [...]} object in a code fence',
    '```\n{\n  "tool_calls": [\n    {\n      "id": "pending",\n      "type": "function",\n      "function": {\n        "name": "read_manifest",\n        "arguments": {"id": "steps"}\n      }\n    }\n  ]\n}\n```',
    ['read_manifest', { id: 'steps' }],
  ],
];

for (const [what, generation, call] of quoted) {
  it(`${what}: the quoted call runs, asked once`, async () => {
    gw.script(status400(generation), { kind: 'reply', text: 'never' });
    const r = await callGateway(retrying(), ask);
    expect(r.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([call]);
    expect(r.finishReason).toBe('tool_calls');
    expect(r.toolCalls[0].id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(gw.requests).toHaveLength(1);
  });
}

it('the same error as an event of a started stream: the quoted call runs', async () => {
  gw.script(
    sseStep(
      `event: error\n${dataEvent(toolUseFailed('<function=read_manifest={"id": "sleep"}</function>'))}`,
    ),
  );
  const r = await callGateway(retrying(), ask);
  expect(r.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([['read_manifest', { id: 'sleep' }]]);
  expect(gw.requests).toHaveLength(1);
});

it('quoted output that is no call to an offered tool is asked again, as before', async () => {
  gw.script(
    status400('Tool use failed: JSON does not match the expected schema for tool calls'),
    status400('<function=delete_everything={}</function>'),
    { kind: 'reply', text: 'You walked 52 000 steps.' },
  );
  const r = await callGateway(retrying(), ask);
  expect(r.text).toBe('You walked 52 000 steps.');
  expect(gw.requests).toHaveLength(3);
});
