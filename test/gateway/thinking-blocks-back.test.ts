// LiteLLM (and proxies built like it) relays Claude's extended thinking as `thinking_blocks`
// ({type: "thinking", thinking, signature}, streamed in pieces with the signature in a piece of its
// own) beside `reasoning_content`. Anthropic refuses the next request of a tool loop unless the
// assistant message that called tools starts with its signed thinking: 400 "Expected `thinking` or
// `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message
// must start with a thinking block". Klebb keeps the blocks whole and sends them back on that
// message; a server that refuses them back is asked again without them, and that is remembered.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { assistantMessageFor, toolResultMessage } from '../../src/chat/gateway/history.js';
import type { ChatMessage, GatewayResult } from '../../src/chat/gateway/types.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const SIGNED = {
  type: 'thinking',
  thinking: "The water card has today's glasses.",
  signature: 'EqQBCkgIBhABGAIiQHNpZ25lZC10aGlua2luZw==',
};
const anthropic400: ScriptStep = {
  kind: 'error',
  status: 400,
  body: {
    error: {
      message:
        'litellm.BadRequestError: AnthropicException - {"type":"error","error":{"type":"invalid_request_error","message":"messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks)."}}',
      type: null,
      param: null,
      code: '400',
    },
  },
};
const callers = (q: RecordedRequest) =>
  q.body.messages.filter(
    (m: { role: string; tool_calls?: unknown }) => m.role === 'assistant' && m.tool_calls,
  );
const claude = (q: RecordedRequest): ScriptStep =>
  callers(q).every(
    (m: { thinking_blocks?: Array<{ signature?: string }> }) => m.thinking_blocks?.[0]?.signature,
  )
    ? { kind: 'reply', text: 'Six glasses today.' }
    : anthropic400;
const loop = (first: GatewayResult): ChatMessage[] => [
  ...userSays('water today?'),
  assistantMessageFor(first),
  ...first.toolCalls.map((c) => toolResultMessage(c, '{"rows":[{"glasses":6}]}')),
];

for (const split of ['events', 'lines'] as const) {
  it(`streamed (split into ${split}): the blocks are joined whole and go back with the call`, async () => {
    gw.script(
      { kind: 'fixture', name: 'thinking-blocks-litellm', split },
      { kind: 'decide', choose: claude },
    );
    const cfg = configFor(gw.url);
    const first = await callGateway(cfg, { messages: userSays('water today?'), stream: true });
    expect(first.reasoning).toBe("The water card has today's glasses.");
    expect((await callGateway(cfg, { messages: loop(first), stream: true })).text).toBe('Six glasses today.');
    expect(callers(gw.requests[1])[0].thinking_blocks).toEqual([SIGNED]);
  });
}

it('a whole reply: its blocks go back as they came', async () => {
  const message = {
    role: 'assistant',
    content: null,
    reasoning_content: SIGNED.thinking,
    thinking_blocks: [SIGNED, { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' }],
    tool_calls: [
      { id: 'toolu_01', type: 'function', function: { name: 'read_rows', arguments: '{"id":"water"}' } },
    ],
  };
  gw.script(
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [
        JSON.stringify({
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
        }),
      ],
    },
    { kind: 'decide', choose: claude },
  );
  const cfg = configFor(gw.url);
  const first = await callGateway(cfg, { messages: userSays('water today?') });
  expect((await callGateway(cfg, { messages: loop(first) })).text).toBe('Six glasses today.');
  expect(callers(gw.requests[1])[0].thinking_blocks).toEqual(message.thinking_blocks);
});

it('a server that refuses them back is asked again without them, and that is remembered', async () => {
  const strict = (q: RecordedRequest): ScriptStep =>
    callers(q).some((m: { thinking_blocks?: unknown }) => m.thinking_blocks !== undefined)
      ? {
          kind: 'error',
          status: 400,
          body: { error: { message: 'Unrecognized request argument supplied: thinking_blocks' } },
        }
      : { kind: 'reply', text: 'Six glasses today.' };
  gw.script(
    { kind: 'fixture', name: 'thinking-blocks-litellm' },
    { kind: 'decide', choose: strict },
    { kind: 'decide', choose: strict },
    { kind: 'decide', choose: strict },
  );
  const cfg = configFor(gw.url);
  const first = await callGateway(cfg, { messages: userSays('water today?'), stream: true });
  expect((await callGateway(cfg, { messages: loop(first), stream: true })).text).toBe('Six glasses today.');
  expect(gw.requests).toHaveLength(3);
  await callGateway(cfg, { messages: loop(first), stream: true });
  expect(gw.requests).toHaveLength(4);
});
