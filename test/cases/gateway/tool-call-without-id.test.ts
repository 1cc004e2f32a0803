// a streamed tool-call delta has index but no id (Ollama /v1).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { assistantMessageFor, toolResultMessage } from '../../../src/chat/gateway/history.js';
import { configFor, recordHooks, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('opens the slot by index, makes a unique id and uses it in history and tool reply', async () => {
  gw.script({ kind: 'raw', caseId: 'G02' }, { kind: 'raw', caseId: 'G02' }, { kind: 'reply', text: 'Done.' });
  const cfg = configFor(gw.url);
  const rec = recordHooks();
  const result = await callGateway(cfg, { messages: userSays('read it'), stream: true }, rec.hooks);

  expect(result.streamed).toBe(true);
  expect(result.text).toBe('');
  expect(rec.tokens).toEqual([]); // nothing from the call is shown as text
  expect(result.toolCalls).toHaveLength(1);
  const call = result.toolCalls[0];
  expect(call.name).toBe('read_file');
  expect(call.parsedArguments).toEqual({ filepath: 'convex/schema.ts' });
  expect(call.id).toMatch(/^[A-Za-z0-9]{9}$/);

  // A second round-trip without ids gets a different id.
  const again = await callGateway(cfg, { messages: userSays('read it'), stream: true });
  expect(again.toolCalls[0].id).not.toBe(call.id);

  await callGateway(cfg, {
    messages: [
      ...userSays('read it'),
      assistantMessageFor(result),
      toolResultMessage(call, 'export default {}'),
    ],
  });
  const sent = gw.requests[2].body.messages;
  expect(sent[1].tool_calls[0].id).toBe(call.id);
  expect(sent[2].tool_call_id).toBe(call.id);
  expect(sent[2].name).toBe('read_file');
});

it('fragments without index or id continue the last slot; whole calls without index get their own slot', async () => {
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  gw.script({
    kind: 'bytes',
    chunks: [
      chunk({ tool_calls: [{ id: 'c1', function: { name: 'a', arguments: '{"n":' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ id: 'c2', function: { name: 'b', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ],
  });
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true });
  expect(result.toolCalls.map((c) => [c.providerId, c.name, c.arguments])).toEqual([
    ['c1', 'a', '{"n":1}'],
    ['c2', 'b', '{}'],
  ]);
});
