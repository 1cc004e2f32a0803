// vLLM's tool parsers hand over an object or list argument as JSON text when the tool's schema
// describes it by reference ($defs/$ref), and some models serialise each value on its own:
// {"id": "water", "row": "{\"ml\": 250}"}. The tool's schema wants an object there, so the call
// was refused as invalid arguments. An argument the schema declares as an object or a list, sent
// as the exact JSON text of one, is read as that value.
import { expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/chat/gateway/types.js';
import { agentTurn } from './agent-turn.js';
import { completionStep, scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const appendRow: ToolDefinition = {
  type: 'function',
  function: {
    name: 'append_row',
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        row: { type: 'object' },
        tags: { type: 'array', items: { type: 'string' } },
        note: { type: 'string' },
        extra: { anyOf: [{ type: 'object' }, { type: 'null' }] },
      },
      required: ['id', 'row'],
    },
  },
};

const callStep = (args: Record<string, unknown>) =>
  completionStep({
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'append_row', arguments: JSON.stringify(args) } },
      ],
    },
    finish_reason: 'tool_calls',
  });

it('an object and a list argument sent as JSON text are read as the values, and go back so', async () => {
  gw.script(
    callStep({
      id: 'water',
      row: '{"ml": 250, "at": "08:00"}',
      tags: ' ["morning"] ',
      extra: '{"cold": true}',
    }),
    { kind: 'reply', text: 'Logged.' },
  );
  const turn = await agentTurn(gw, { stream: false, toolDefinitions: [appendRow] });
  const meant = { id: 'water', row: { ml: 250, at: '08:00' }, tags: ['morning'], extra: { cold: true } };
  expect(turn.dispatched).toEqual([{ name: 'append_row', args: meant }]);
  const assistant = gw.requests[1].body.messages.find((m: { role: string }) => m.role === 'assistant');
  expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual(meant);
});

it('text the schema takes as text, text of another kind, and text that is no JSON stay as sent', async () => {
  const args = { id: '{"a": 1}', row: '[1, 2]', tags: '{"x": 1}', note: '{"b": 2}', extra: '{not json}' };
  gw.script(callStep(args), { kind: 'reply', text: 'Done.' });
  const turn = await agentTurn(gw, { stream: false, toolDefinitions: [appendRow] });
  expect(turn.dispatched).toEqual([{ name: 'append_row', args }]);
});

// an argument whose schema takes any value (`{}`: append_row's row), written as JSON text by a
// model that writes every value as text (Qwen3-Coder's <parameter=…>, GLM's <arg_value>): the
// tool refused the text as a row ('must be an object (one row), not a string')
it('an argument of any kind sent as the JSON text of an object or list is read as that value', async () => {
  const anyValue: ToolDefinition = {
    type: 'function',
    function: {
      name: 'append_row',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string' }, value: {}, note: { description: 'anything' } },
      },
    },
  };
  gw.script(callStep({ id: 'water', value: '{"date": "2026-05-01", "ml": 250}', note: 'plain words' }), {
    kind: 'reply',
    text: 'Logged.',
  });
  const turn = await agentTurn(gw, { stream: false, toolDefinitions: [anyValue] });
  expect(turn.dispatched).toEqual([
    {
      name: 'append_row',
      args: { id: 'water', value: { date: '2026-05-01', ml: 250 }, note: 'plain words' },
    },
  ]);
});
