// Chat templates without a system turn (Gemma on vLLM, SGLang and llama-cpp-python: "System role
// not supported"; Mistral's older templates: "Conversation roles must alternate
// user/assistant/user/assistant/..."; OpenAI's o1-mini: "'messages[0].role' does not support
// 'system' with this model"; MiniMax behind some relays: "invalid message role: system") refuse
// every request that carries a system message, and Klebb always sends one: no turn could ever
// answer. The system prompt is then sent at the head of the first user message instead, and that
// is remembered per endpoint and model.
import { describe, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { assistantMessageFor, toolResultMessage } from '../../src/chat/gateway/history.js';
import type { ChatMessage } from '../../src/chat/gateway/types.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const SYSTEM = 'You are Klebb, a health assistant.';
const transcript: ChatMessage[] = [
  {
    role: 'system',
    content: [
      { type: 'text', text: SYSTEM },
      { type: 'text', text: 'Today is Sunday.' },
    ],
  },
  { role: 'user', content: 'water today?' },
];

const refusals: Array<[string, number, object]> = [
  [
    'vLLM serving Gemma',
    400,
    {
      object: 'error',
      message: 'System role not supported',
      type: 'BadRequestError',
      param: null,
      code: 400,
    },
  ],
  [
    'a Mistral template on llama-cpp-python, said with 500',
    500,
    {
      error: {
        message: 'Conversation roles must alternate user/assistant/user/assistant/...',
        type: 'internal_server_error',
      },
    },
  ],
  [
    'MiniMax behind a relay',
    400,
    {
      error: {
        message: 'invalid params, chat content has invalid message role: system (2013)',
        type: 'bad_request_error',
        param: '',
        code: null,
      },
    },
  ],
  [
    'OpenAI o1-mini',
    400,
    {
      error: {
        message: "Unsupported value: 'messages[0].role' does not support 'system' with this model.",
        type: 'invalid_request_error',
        param: 'messages[0].role',
        code: 'unsupported_value',
      },
    },
  ],
];

const noSystem =
  (status: number, body: object, answer: ScriptStep = { kind: 'reply', text: 'Six glasses.' }) =>
  (q: RecordedRequest): ScriptStep =>
    q.body.messages.some((m: { role: string }) => m.role === 'system')
      ? { kind: 'error', status, body }
      : answer;

describe('a template without a system turn', () => {
  it.each(refusals)(
    '%s: the prompt goes at the head of the first user message, remembered',
    async (_who, status, body) => {
      gw.script(
        { kind: 'decide', choose: noSystem(status, body) },
        { kind: 'decide', choose: noSystem(status, body) },
        { kind: 'decide', choose: noSystem(status, body) },
      );
      const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
      expect((await callGateway(cfg, { messages: transcript, stream: true })).text).toBe('Six glasses.');
      expect(gw.requests).toHaveLength(2);
      expect(gw.requests[1].body.messages).toEqual([
        { role: 'user', content: `${SYSTEM}\n\nToday is Sunday.\n\nwater today?` },
      ]);
      await callGateway(cfg, { messages: transcript, stream: true });
      expect(gw.requests).toHaveLength(3);
    },
  );

  it('a tool loop keeps its calls and replies as they were', async () => {
    const [, status, body] = refusals[0];
    gw.script(
      {
        kind: 'decide',
        choose: noSystem(status, body, {
          kind: 'reply',
          toolCalls: [{ name: 'read_rows', arguments: { card: 'water' } }],
        }),
      },
      {
        kind: 'decide',
        choose: noSystem(status, body, {
          kind: 'reply',
          toolCalls: [{ name: 'read_rows', arguments: { card: 'water' } }],
        }),
      },
      { kind: 'decide', choose: noSystem(status, body) },
    );
    const cfg = configFor(gw.url);
    const first = await callGateway(cfg, { messages: transcript, stream: true });
    const loop: ChatMessage[] = [
      ...transcript,
      assistantMessageFor(first),
      ...first.toolCalls.map((c) => toolResultMessage(c, '{"rows":[]}')),
    ];
    expect((await callGateway(cfg, { messages: loop, stream: true })).text).toBe('Six glasses.');
    const roles = gw.requests[2].body.messages.map((m: { role: string }) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool']);
  });

  it('a refusal of something else is not taken for this one', async () => {
    gw.script({ kind: 'error', status: 400, body: { error: { message: 'top_p must be in (0, 1]' } } });
    await expect(callGateway(configFor(gw.url), { messages: transcript, stream: true })).rejects.toThrow();
    expect(gw.requests).toHaveLength(1);
  });
});

it('roles that do not alternate for another reason: the call fails and the system turn is kept for later requests', async () => {
  // two user messages in a row (a turn that got no answer): folding the system prompt cannot help
  const ALTERNATE = {
    error: {
      message: 'Conversation roles must alternate user/assistant/user/assistant/...',
      type: 'BadRequestError',
    },
  };
  const twoUsers: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: 'water today?' },
    { role: 'user', content: 'and yesterday?' },
  ];
  gw.script(
    { kind: 'error', status: 400, body: ALTERNATE },
    { kind: 'error', status: 400, body: ALTERNATE },
    { kind: 'reply', text: 'Six glasses.' },
  );
  const cfg = configFor(gw.url);
  await expect(callGateway(cfg, { messages: twoUsers, stream: true })).rejects.toThrow(/alternate/);
  expect(gw.requests).toHaveLength(2);
  await callGateway(cfg, { messages: [twoUsers[0], twoUsers[1]], stream: true });
  expect(gw.requests[2].body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
});
