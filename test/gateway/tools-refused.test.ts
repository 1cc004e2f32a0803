// A server that takes no tools at all is asked again without them (the model answers in words).
// A refusal of several calls in one message is not that: the tools stay offered, so the
// assistant can still act, one call at a time.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, userSays } from './support.js';
import { functionTools, scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();
const refusal = (message: string) => ({
  kind: 'error' as const,
  status: 400,
  body: { error: { message, type: 'invalid_request_error' } },
});
const ask = { messages: userSays('steps today?'), tools: functionTools('read_rows'), stream: true };

it('tools not supported at all: asked again without them', async () => {
  gw.script(refusal('Tool calls are not supported for this model'), { kind: 'reply', text: 'Words.' });
  expect((await callGateway(configFor(gw.url), ask)).text).toBe('Words.');
  expect(gw.requests[1].body).not.toHaveProperty('tools');
});

for (const message of [
  'Parallel tool calls are not supported for this model',
  'Multiple tool calls are not supported',
]) {
  it(`"${message}" keeps the tools offered, now and later`, async () => {
    gw.script(refusal(message), { kind: 'reply', text: 'Words.' });
    const cfg = configFor(gw.url);
    await expect(callGateway(cfg, ask)).rejects.toThrow(/not supported/);
    expect(gw.requests).toHaveLength(1);
    await callGateway(cfg, ask);
    expect(gw.requests[1].body.tools).toHaveLength(1);
  });
}

// Azure OpenAI at an api-version older than tools refuses the field itself, with 400 or 404
// (https://github.com/lobehub/lobehub/issues/1118, https://github.com/run-llama/llama_index/issues/9062,
// https://github.com/langchain-ai/opengpts/issues/166); every message failed with 'Please try
// again', or with 404 as an unknown model or address. Asked again without tools, the model
// answers in words, and the tools are not sent again for now.
for (const [status, message] of [
  [400, 'Unrecognized request argument supplied: tools'],
  [400, 'Unrecognized request arguments supplied: tool_choice, tools'],
  [404, 'Unrecognized request argument supplied: tools'],
  [400, 'tools: Extra inputs are not permitted'],
  // MiniMax's OpenAI-compatible API (https://github.com/MiniMax-AI/MiniMax-M2.5/issues/24)
  [400, 'Failed to fetch tools: Not yet implemented'],
] as const) {
  it(`"${message}" (${status}): asked again without tools, and remembered`, async () => {
    gw.script(
      {
        kind: 'error',
        status,
        body: { error: { message, type: 'invalid_request_error', param: null, code: null } },
      },
      {
        kind: 'decide',
        choose: (q) =>
          q.body.tools
            ? { kind: 'error', status, body: { error: { message } } }
            : { kind: 'reply', text: 'Words.' },
      },
      {
        kind: 'decide',
        choose: (q) =>
          q.body.tools
            ? { kind: 'error', status, body: { error: { message } } }
            : { kind: 'reply', text: 'More words.' },
      },
      {
        kind: 'decide',
        choose: (q) =>
          q.body.tools
            ? { kind: 'error', status, body: { error: { message } } }
            : { kind: 'reply', text: 'More words.' },
      },
    );
    const cfg = configFor(gw.url);
    expect((await callGateway(cfg, ask)).text).toBe('Words.');
    expect((await callGateway(cfg, ask)).text).toBe('More words.');
    const last = gw.requests[gw.requests.length - 1].body;
    expect(last).not.toHaveProperty('tools');
    expect(last).not.toHaveProperty('tool_choice');
  });
}

it('a complaint about a tool definition is not a refusal of tools', async () => {
  const message = "Invalid schema for function 'read_rows': unknown keyword at tools[0].function.parameters";
  gw.script({ kind: 'error', status: 400, body: { error: { message } } }, { kind: 'reply', text: 'Words.' });
  await expect(callGateway(configFor(gw.url), ask)).rejects.toThrow(/Invalid schema/);
  expect(gw.requests).toHaveLength(1);
});
