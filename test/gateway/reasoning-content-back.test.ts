// Thinking models that continue a tool loop from their own reasoning (Kimi K2.5 and later on
// Moonshot and its relays, DeepSeek V4, GLM behind relays) refuse the next request of the loop
// when the assistant message that called tools comes back without its `reasoning_content`:
// 400 "thinking is enabled but reasoning_content is missing in assistant tool call message at
// index 2", "The `reasoning_content` in the thinking mode must be passed back to the API", or a
// proxy's "assistant message with tool_calls must include reasoning_content". Every turn that used
// a tool then failed. Klebb sends the reply's reasoning back on that message once asked to and
// remembers it; a server that refuses the field is asked again without it, and that is remembered.
// Providers that never asked never get it.
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../src/chat/agent/run-turn.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { assistantMessageFor, toolResultMessage } from '../../src/chat/gateway/history.js';
import { ProviderMemory } from '../../src/chat/gateway/provider-memory.js';
import type { ChatMessage, GatewayResult } from '../../src/chat/gateway/types.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

type Wire = Record<string, unknown>;
const REASONING = 'The water card holds the glasses.';
const toolTurn: ScriptStep = {
  kind: 'reply',
  reasoning: REASONING,
  toolCalls: [{ id: 'read_rows:0', name: 'read_rows', arguments: { card: 'water' } }],
};
const callers = (q: RecordedRequest): Wire[] =>
  q.body.messages.filter((m: Wire) => m.role === 'assistant' && Array.isArray(m.tool_calls));
const history = (first: GatewayResult): ChatMessage[] => [
  ...userSays('water today?'),
  assistantMessageFor(first),
  ...first.toolCalls.map((c) => toolResultMessage(c, '{"rows":[{"glasses":6}]}')),
];

/** A thinking model's server: refuses a tool-call message without reasoning_content with `refusal`. */
const needsReasoning =
  (refusal: ScriptStep) =>
  (q: RecordedRequest): ScriptStep =>
    callers(q).every((m) => typeof m.reasoning_content === 'string')
      ? { kind: 'reply', text: 'Six glasses so far.' }
      : refusal;

const refusals: Array<[string, ScriptStep]> = [
  [
    'Moonshot',
    {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message:
            'thinking is enabled but reasoning_content is missing in assistant tool call message at index 1',
          type: 'invalid_request_error',
        },
      },
    },
  ],
  [
    'DeepSeek',
    {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'The `reasoning_content` in the thinking mode must be passed back to the API.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_request_error',
        },
      },
    },
  ],
  [
    'a relay wrapping the provider error',
    {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'Provider returned error',
          code: 400,
          metadata: {
            raw: '{"error":{"message":"thinking is enabled but reasoning_content is missing in assistant tool call message at index 1","type":"invalid_request_error"}}',
            provider_name: 'Moonshot AI',
          },
        },
      },
    },
  ],
  [
    'a proxy validating the history',
    {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message:
            'litellm.BadRequestError: OpenAIException - messages[1]: assistant message with tool_calls must include reasoning_content',
          type: null,
          code: '400',
        },
      },
    },
  ],
];

describe('a thinking model that needs its reasoning back in a tool loop', () => {
  it.each(refusals)('%s: sent again with reasoning_content, and remembered', async (_who, refusal) => {
    gw.script(
      toolTurn,
      { kind: 'decide', choose: needsReasoning(refusal) },
      { kind: 'decide', choose: needsReasoning(refusal) },
      { kind: 'decide', choose: needsReasoning(refusal) },
    );
    const cfg = configFor(gw.url);
    const first = await callGateway(cfg, { messages: userSays('water today?'), stream: true });
    expect(first.reasoning).toBe(REASONING);
    const second = await callGateway(cfg, { messages: history(first), stream: true });
    expect(second.text).toBe('Six glasses so far.');
    expect(gw.requests).toHaveLength(3);
    expect(gw.requests[1].body.messages[1].reasoning_content).toBeUndefined();
    expect(callers(gw.requests[2])[0].reasoning_content).toBe(REASONING);
    // learnt: the next request of the loop carries it at once
    await callGateway(cfg, { messages: history(first), stream: true });
    expect(gw.requests).toHaveLength(4);
  });

  it('a tool-call message whose reply had no reasoning goes back with an empty one', async () => {
    const refusal = refusals[0][1];
    gw.script(
      { kind: 'reply', toolCalls: [{ name: 'read_rows', arguments: { card: 'water' } }] },
      { kind: 'decide', choose: needsReasoning(refusal) },
      { kind: 'decide', choose: needsReasoning(refusal) },
    );
    const cfg = configFor(gw.url);
    const first = await callGateway(cfg, { messages: userSays('water today?'), stream: true });
    expect((await callGateway(cfg, { messages: history(first), stream: true })).text).toBe(
      'Six glasses so far.',
    );
    expect(callers(gw.requests[2])[0].reasoning_content).toBe('');
  });

  it('the real agent loop finishes the turn', async () => {
    const refusal = refusals[1][1];
    gw.script(
      toolTurn,
      { kind: 'decide', choose: needsReasoning(refusal) },
      { kind: 'decide', choose: needsReasoning(refusal) },
    );
    const result = await runTurn(
      { turnId: 't1', messages: userSays('water today?'), stream: true, voiceMode: false },
      {
        gateway: { url: gw.url, model: 'test-model', maxRetries: 0, memory: new ProviderMemory() },
        budgets: { maxRoundTrips: 4, iterTimeoutMs: 10_000, turnDeadlineMs: 0 },
        system: { role: 'system', content: 'You are Klebb.' },
        tools: [],
        dispatch: async () => ({ ok: true, content: '{"rows":[]}' }),
        parseVoice: (t) => ({ speak: t, display: t }),
      },
      () => {},
      new AbortController().signal,
    );
    expect(result.payload?.reply).toBe('Six glasses so far.');
  });
});

describe('providers that did not ask', () => {
  it('never get reasoning_content', async () => {
    gw.script(toolTurn, { kind: 'reply', text: 'Six glasses so far.' });
    const cfg = configFor(gw.url);
    const first = await callGateway(cfg, { messages: userSays('water today?'), stream: true });
    await callGateway(cfg, { messages: history(first), stream: true });
    expect(callers(gw.requests[1])[0]).not.toHaveProperty('reasoning_content');
  });

  it('a server that refuses the field is asked again without it, and that is remembered', async () => {
    const strict = (q: RecordedRequest): ScriptStep =>
      callers(q).some((m) => m.reasoning_content !== undefined)
        ? {
            kind: 'error',
            status: 422,
            body: {
              detail: [
                {
                  type: 'extra_forbidden',
                  loc: ['body', 'messages', 1, 'assistant', 'reasoning_content'],
                  msg: 'Extra inputs are not permitted',
                },
              ],
            },
          }
        : { kind: 'reply', text: 'Six glasses so far.' };
    gw.script(
      toolTurn,
      { kind: 'decide', choose: strict },
      { kind: 'decide', choose: strict },
      { kind: 'decide', choose: strict },
    );
    // an operator (or the built-in table) said the endpoint takes reasoning back
    const cfg = configFor(gw.url, { capabilities: { reasoningContent: true } });
    const first = await callGateway(cfg, { messages: userSays('water today?'), stream: true });
    expect((await callGateway(cfg, { messages: history(first), stream: true })).text).toBe(
      'Six glasses so far.',
    );
    expect(gw.requests).toHaveLength(3);
    await callGateway(cfg, { messages: history(first), stream: true });
    expect(gw.requests).toHaveLength(4);
  });
});
