// A Mistral model served without a tool parser writes its call as text and then goes on writing:
// `[TOOL_CALLS][{...}] In order to …` (https://github.com/vllm-project/vllm/pull/5649) or
// `[TOOL_CALLS]NAME[ARGS]{...}\n\nLet me search for that.`
// (https://github.com/ml-explore/mlx-lm/pull/1448). The call is whole: it runs, and the prose after
// it stays answer text. Text after it that goes on as JSON is no prose: nothing runs.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { callsOf, configFor, offeredTools, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const tools = offeredTools('read_manifest_rows', 'log_entry');

it('a [TOOL_CALLS] list followed by prose runs its call; the prose stays the answer', async () => {
  gw.script({
    kind: 'reply',
    text: '[TOOL_CALLS][{"name": "read_manifest_rows", "arguments": {"id": "weight", "limit": 7}}] In order to answer I need your last week of weights.',
  });
  const r = await callGateway(configFor(gw.url), { messages: userSays('weight?'), tools, stream: true });
  expect(callsOf(r)).toEqual([['read_manifest_rows', { id: 'weight', limit: 7 }]]);
  expect(r.text).toBe('In order to answer I need your last week of weights.');
});

it('a [TOOL_CALLS]NAME[ARGS]{...} call followed by prose runs; the prose stays the answer', async () => {
  gw.script({
    kind: 'reply',
    text: '[TOOL_CALLS]log_entry[ARGS]{"id": "water", "value": 250}\n\nLet me log that for you.',
  });
  const r = await callGateway(configFor(gw.url), { messages: userSays('250 ml water'), tools });
  expect(callsOf(r)).toEqual([['log_entry', { id: 'water', value: 250 }]]);
  expect(r.text).toBe('Let me log that for you.');
});

it('text after the call that goes on as JSON runs nothing', async () => {
  gw.script(
    { kind: 'reply', text: '[TOOL_CALLS]log_entry[ARGS]{"id": "water"}, "value": 250}' },
    {
      kind: 'reply',
      text: '[TOOL_CALLS][{"name": "log_entry", "arguments": {"id": "water"}}], {"name": "x"}]',
    },
  );
  const a = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(a.toolCalls).toEqual([]);
  const b = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(b.toolCalls).toEqual([]);
});
