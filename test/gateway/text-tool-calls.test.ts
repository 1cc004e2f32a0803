// Tool calls that arrive in a form other than `tool_calls`, from servers running a model without
// the parser that turns its call into `tool_calls`: the call written as answer text, in
// <tool_call> tags (https://github.com/jundot/omlx/issues/2565) or as the bare JSON object
// (https://github.com/ollama/ollama/issues/11185); and a call whose name carries a namespace in
// front of the tool we offered (https://github.com/tontinton/maki/pull/518). Each is read as the
// call to the offered tool; text that only looks like a call stays text.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { callsOf, configFor, offeredTools, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const tools = offeredTools('read_manifest_rows', 'read_manifest', 'get_recent_activity');

it('a call streamed as text in <tool_call> tags (a tag split across chunks) is the call, and no answer text', async () => {
  gw.script({ kind: 'fixture', name: 'tool-call-as-text-in-tags', split: 'events' });
  const r = await callGateway(configFor(gw.url), { messages: userSays('weight?'), tools, stream: true });
  expect(callsOf(r)).toEqual([['read_manifest_rows', { id: 'weight', limit: 3 }]]);
  expect(r.text).toBe('');
  expect(r.finishReason).toBe('tool_calls');
  expect(r.toolCalls[0].id).toMatch(/^[A-Za-z0-9]{9}$/);
});

it('an answer that is only the call as a JSON object is the call', async () => {
  gw.script({ kind: 'fixture', name: 'tool-call-as-bare-json-text' });
  const r = await callGateway(configFor(gw.url), { messages: userSays('activity?'), tools });
  expect(callsOf(r)).toEqual([['get_recent_activity', { days: 7 }]]);
  expect(r.text).toBe('');
});

it('a call named "functions.<tool>" runs the offered tool', async () => {
  gw.script({ kind: 'fixture', name: 'tool-name-with-functions-prefix' });
  const r = await callGateway(configFor(gw.url), { messages: userSays('mood?'), tools, stream: true });
  expect(callsOf(r)).toEqual([['read_manifest', { id: 'mood' }]]);
});

it('text around tagged calls stays the answer; a Mistral-style [TOOL_CALLS] list is read too', async () => {
  gw.script(
    {
      kind: 'reply',
      text: 'Let me look. <tool_call>{"name": "read_manifest", "arguments": {"id": "sleep"}}</tool_call>',
    },
    {
      kind: 'reply',
      text: '[TOOL_CALLS][{"name": "read_manifest", "arguments": {"id": "a"}}, {"name": "read_manifest", "arguments": {"id": "b"}}]',
    },
  );
  const tagged = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(callsOf(tagged)).toEqual([['read_manifest', { id: 'sleep' }]]);
  expect(tagged.text).toBe('Let me look.');
  const listed = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(callsOf(listed)).toEqual([
    ['read_manifest', { id: 'a' }],
    ['read_manifest', { id: 'b' }],
  ]);
});

it('JSON naming a tool that was not offered, or with no tools offered, stays the answer', async () => {
  const json = '{"name": "delete_everything", "arguments": {}}';
  gw.script(
    { kind: 'reply', text: json },
    { kind: 'reply', text: '{"name": "get_recent_activity", "arguments": {}}' },
    {
      kind: 'reply',
      text: '<tool_call>{"name": "read_manifest", "arguments": {"id": "x"}}</tool_call> and <tool_call>{"name": "nope"}</tool_call>',
    },
  );
  const unknown = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(unknown.toolCalls).toEqual([]);
  expect(unknown.text).toBe(json);
  const noTools = await callGateway(configFor(gw.url), { messages: userSays('x') });
  expect(noTools.toolCalls).toEqual([]);
  const mixed = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
  expect(mixed.toolCalls).toEqual([]);
});
