// a tool_calls entry with an empty id and no function object next to final text (LM Studio).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, recordHooks, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('drops nameless calls and treats the text as the final answer despite finish_reason tool_calls', async () => {
  gw.script({ kind: 'raw', caseId: 'G14' });
  const rec = recordHooks();
  const result = await callGateway(configFor(gw.url), { messages: userSays('x') }, rec.hooks);
  expect(result.toolCalls).toEqual([]);
  expect(result.text).toBe(
    'I\'ve created a simple "Hello, World!" C++ program. It compiles and prints "Hello, World!" to the console as expected.\n',
  );
  expect(result.rawFinishReason).toBe('tool_calls');
  expect(result.finishReason).toBe('stop');
  expect(rec.warnings.join(' ')).toMatch(/without a function name/);
});

it('a named call with an empty id gets a unique id', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'application/json' },
    chunks: [
      JSON.stringify({
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: '', type: 'function', function: { name: 'a', arguments: '{}' } },
                { id: '', type: 'function', function: { name: 'b', arguments: '{}' } },
              ],
            },
          },
        ],
      }),
    ],
  });
  const result = await callGateway(configFor(gw.url), { messages: userSays('x') });
  const ids = result.toolCalls.map((c) => c.id);
  expect(ids.every((id) => /^[A-Za-z0-9]{9}$/.test(id))).toBe(true);
  expect(new Set(ids).size).toBe(2);
});

it('an inconsistent history (empty tool_call_id, orphan tool reply) is refused before sending', async () => {
  const cfg = configFor(gw.url);
  const emptyId = await gatewayFailure(
    callGateway(cfg, {
      messages: [
        ...userSays('x'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: '', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: '', content: 'Tool not found: ' },
      ],
    }),
  );
  expect(emptyId).toMatchObject({ kind: 'failed', reason: 'bad_history' });
  const orphan = await gatewayFailure(
    callGateway(cfg, { messages: [...userSays('x'), { role: 'tool', tool_call_id: 'nope', content: 'r' }] }),
  );
  expect(orphan.reason).toBe('bad_history');
  const unanswered = await gatewayFailure(
    callGateway(cfg, {
      messages: [
        ...userSays('x'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        ...userSays('y'),
      ],
    }),
  );
  expect(unanswered.reason).toBe('bad_history');
  expect(gw.requests).toHaveLength(0);
});
