// Mistral models served without a tool parser write their calls as `[TOOL_CALLS][...]` answer
// text, and not always as JSON: the objects one after another without commas, the way Ollama's
// Mistral template renders earlier calls (https://github.com/unslothai/unsloth/pull/5704), the
// closing `]` lost to the end-of-turn token (same thread), or the list closed with
// `[/TOOL_CALLS]` (https://github.com/ai-dynamo/dynamo/pull/10443). Each is the call it plainly
// is; a list cut off inside a call's arguments is not guessed at.
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

it('calls listed without commas between them both run, streamed or not', async () => {
  const text =
    '[TOOL_CALLS] [{"name": "read_manifest_rows", "arguments": {"id": "weight"}}\n{"name": "log_entry", "arguments": {"id": "water", "value": 250}}]';
  gw.script({ kind: 'reply', text }, { kind: 'reply', text });
  for (const stream of [false, true]) {
    const r = await callGateway(configFor(gw.url), { messages: userSays('weight?'), tools, stream });
    expect(callsOf(r)).toEqual([
      ['read_manifest_rows', { id: 'weight' }],
      ['log_entry', { id: 'water', value: 250 }],
    ]);
    expect(r.text).toBe('');
  }
});

it("a list whose closing bracket, or the call's brace too, was lost at the end of the turn is the call", async () => {
  gw.script(
    { kind: 'reply', text: '[TOOL_CALLS][{"name": "read_manifest_rows", "arguments": {"id": "weight"}}' },
    { kind: 'reply', text: '[TOOL_CALLS][{"name": "read_manifest_rows", "arguments": {"id": "sleep"}' },
  );
  const list = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(callsOf(list)).toEqual([['read_manifest_rows', { id: 'weight' }]]);
  expect(list.text).toBe('');
  const call = await callGateway(configFor(gw.url), { messages: userSays('x'), tools, stream: true });
  expect(callsOf(call)).toEqual([['read_manifest_rows', { id: 'sleep' }]]);
  expect(call.text).toBe('');
});

it('a list closed with [/TOOL_CALLS] is read, its missing brace added; the marker never shows', async () => {
  gw.script(
    {
      kind: 'reply',
      text: '[TOOL_CALLS][{"name": "read_manifest_rows", "arguments": {"id": "weight"}}][/TOOL_CALLS]',
    },
    { kind: 'reply', text: '[TOOL_CALLS][{"name": "log_entry", "arguments": {"id": "mood"}[/TOOL_CALLS]' },
  );
  const whole = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(callsOf(whole)).toEqual([['read_manifest_rows', { id: 'weight' }]]);
  expect(whole.text).toBe('');
  const mended = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(callsOf(mended)).toEqual([['log_entry', { id: 'mood' }]]);
  expect(mended.text).toBe('');
});

it('a list cut inside the arguments, or naming a tool not offered, runs nothing', async () => {
  const cut = '[TOOL_CALLS][{"name": "log_entry", "arguments": {"id": "water", "value": 25';
  const unknown = '[TOOL_CALLS][{"name": "delete_all", "arguments": {}}';
  gw.script({ kind: 'reply', text: cut }, { kind: 'reply', text: unknown });
  const a = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(a.toolCalls).toEqual([]);
  const b = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(b.toolCalls).toEqual([]);
});
