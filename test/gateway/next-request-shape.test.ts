// The invariant behind "what we send is ours": for every corpus reply with tool calls, the next
// request the agent loop sends passes a strict validator of the chat-completions request shape
// (ids of ours, unique, each call answered exactly once, arguments that parse), whatever ids,
// indexes and argument forms the gateway used. The loop is the real one (runTurn); only the
// tools are stand-ins that answer {"ok":true}.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runTurn } from '../../src/chat/agent/run-turn.js';
import type { TurnEvent } from '../../src/chat/agent/turn-events.js';
import { ProviderMemory } from '../../src/chat/gateway/provider-memory.js';
import { validateChatRequest } from '../helpers/chat-request-validator.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { BUFFERED_REPLY_CORPUS, REPLY_CORPUS } from './corpus.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const withCalls = [
  ...REPLY_CORPUS.map((b) => ({ ...b, stream: true })),
  ...BUFFERED_REPLY_CORPUS.map((b) => ({ ...b, stream: false })),
].filter((b) => (b.expected.calls ?? []).length > 0);

for (const b of withCalls) {
  it(`after: ${b.behaviour}, the next request is valid`, async () => {
    const problems: string[] = [];
    gw.script(
      { kind: 'fixture', name: b.fixture },
      {
        kind: 'decide',
        choose: (q) => {
          problems.push(...validateChatRequest(q.body));
          return problems.length === 0
            ? { kind: 'reply', text: 'All done.' }
            : { kind: 'error', status: 400, body: { error: { message: problems.join('; ') } } };
        },
      },
    );
    const events: TurnEvent[] = [];
    const result = await runTurn(
      { turnId: 't1', messages: [{ role: 'user', content: 'go' }], stream: b.stream, voiceMode: false },
      {
        gateway: {
          url: gw.url,
          model: 'test-model',
          maxRetries: 0,
          memory: new ProviderMemory(),
          finishGraceMs: 50,
        },
        budgets: { maxRoundTrips: 4, iterTimeoutMs: 10_000, turnDeadlineMs: 0 },
        system: { role: 'system', content: 'You are Klebb.' },
        tools: [],
        dispatch: async () => ({ ok: true, content: '{"ok":true}' }),
        parseVoice: (t) => ({ speak: t, display: t }),
      },
      (e) => events.push(e),
      new AbortController().signal,
    );
    expect(problems).toEqual([]);
    expect(result.payload?.reply).toBe('All done.');
    expect(gw.requests).toHaveLength(2);
    // and the validator is strict enough to notice: the request carried one reply per call
    const sent = gw.requests[1].body.messages;
    expect(sent.filter((m: { role: string }) => m.role === 'tool')).toHaveLength(
      b.expected.calls?.length ?? 0,
    );
  });
}

it('the validator refuses what strict gateways refuse', () => {
  const base = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
  const call = (id: string, args = '{}') => ({
    id,
    type: 'function',
    function: { name: 'f', arguments: args },
  });
  expect(validateChatRequest(base)).toEqual([]);
  const twice = {
    ...base,
    messages: [
      ...base.messages,
      { role: 'assistant', content: null, tool_calls: [call('abcdefghi')] },
      { role: 'tool', tool_call_id: 'abcdefghi', content: '1' },
      { role: 'tool', tool_call_id: 'abcdefghi', content: '2' },
    ],
  };
  expect(validateChatRequest(twice).join()).toMatch(/answered 2 times/);
  const badId = {
    ...base,
    messages: [
      ...base.messages,
      { role: 'assistant', content: null, tool_calls: [call('call_1')] },
      { role: 'tool', tool_call_id: 'call_1', content: '' },
    ],
  };
  expect(validateChatRequest(badId).join()).toMatch(/not 9 letters/);
  const badArgs = {
    ...base,
    messages: [
      ...base.messages,
      { role: 'assistant', content: null, tool_calls: [call('abcdefghi', '{"a":')] },
      { role: 'tool', tool_call_id: 'abcdefghi', content: '' },
    ],
  };
  expect(validateChatRequest(badArgs).join()).toMatch(/not JSON/);
  const unanswered = {
    ...base,
    messages: [
      ...base.messages,
      { role: 'assistant', content: null, tool_calls: [call('abcdefghi')] },
      { role: 'user', content: 'y' },
    ],
  };
  expect(validateChatRequest(unanswered).join()).toMatch(/answered 0 times/);
});
