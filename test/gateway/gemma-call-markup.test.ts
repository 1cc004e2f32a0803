// Gemma 4 writes its calls in its own markup, not JSON:
// `<|tool_call>call:NAME{key:<|"|>text<|"|>,limit:7}<tool_call|>` (keys bare, strings between
// `<|"|>` tokens, https://github.com/ml-explore/mlx-lm/pull/1105). A server without the parser for
// it hands that over as answer text (https://github.com/abetlen/llama-cpp-python/issues/2227,
// https://github.com/microclaw/microclaw/issues/321): the person read markup and the tool never
// ran. Each call is read as the call to the offered tool it names; a value written bare, a call
// cut off, or a tool not offered stays text.
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

it('Gemma 4 calls written as text run, nested values and text with braces included, streamed or not', async () => {
  const text =
    'Let me check.<|tool_call>call:read_manifest_rows{id:<|"|>weight<|"|>,limit:7,range:{from:<|"|>2026-05-01<|"|>},note:<|"|>say "hi", {ok}<|"|>}<tool_call|><|tool_call>call:log_entry{id:<|"|>water<|"|>,value:250,done:true,tags:[<|"|>am<|"|>,2]}<tool_call|>';
  gw.script({ kind: 'reply', text }, { kind: 'reply', text });
  for (const stream of [false, true]) {
    const r = await callGateway(configFor(gw.url), { messages: userSays('weight?'), tools, stream });
    expect(callsOf(r)).toEqual([
      [
        'read_manifest_rows',
        { id: 'weight', limit: 7, range: { from: '2026-05-01' }, note: 'say "hi", {ok}' },
      ],
      ['log_entry', { id: 'water', value: 250, done: true, tags: ['am', 2] }],
    ]);
    expect(r.text).toBe('Let me check.');
  }
});

it('members on lines of their own, and quotes and other scripts inside a value, are read as written', async () => {
  // the shape of https://github.com/xorbitsai/inference/pull/5242
  gw.script({
    kind: 'reply',
    text: '<|tool_call>call:log_entry{id:<|"|>mood<|"|>,\nnote:<|"|>She said "你好" (hello), then smiled.<|"|>,\nshared:false}<tool_call|>',
  });
  const r = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(callsOf(r)).toEqual([
    ['log_entry', { id: 'mood', note: 'She said "你好" (hello), then smiled.', shared: false }],
  ]);
});

it('a bare value, a cut-off call or a tool not offered runs nothing', async () => {
  gw.script(
    { kind: 'reply', text: '<|tool_call>call:log_entry{id:water}<tool_call|>' },
    { kind: 'reply', text: '<|tool_call>call:log_entry{id:<|"|>wat' },
    { kind: 'reply', text: '<|tool_call>call:delete_all{now:true}<tool_call|>' },
  );
  for (let i = 0; i < 3; i++) {
    const r = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
    expect(r.toolCalls).toEqual([]);
  }
});
