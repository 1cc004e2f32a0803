// Models quote numbers and booleans in their calls now and then ({"id": "water", "limit": "5"}:
// Qwen3, gpt-oss and Llama through Ollama), and tool parsers that decode every value turn a text
// argument made of digits into a number ({"id": 12345}). The tool's schema refused each call, and
// the model, told so, often wrote it the same way again. Read against the schema, the value is
// the kind declared; anything that is not exactly such a value is left for the tool to refuse.
import { expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/chat/gateway/types.js';
import { agentTurn } from './agent-turn.js';
import { completionStep, scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const readRows: ToolDefinition = {
  type: 'function',
  function: {
    name: 'read_rows',
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        limit: { type: 'integer' },
        scale: { type: 'number' },
        asc: { type: 'boolean' },
        filter: { type: 'object', properties: { min: { type: 'number' } } },
        pages: { type: 'array', items: { type: 'integer' } },
        either: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
      },
    },
  },
};

const callStep = (args: Record<string, unknown>) =>
  completionStep({
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'read_rows', arguments: JSON.stringify(args) } },
      ],
    },
    finish_reason: 'tool_calls',
  });

it('numbers and booleans sent as text, and a text id sent as a number, are read as the schema declares', async () => {
  gw.script(
    callStep({
      id: 12345,
      limit: '5',
      scale: ' 2.5 ',
      asc: 'true',
      filter: { min: '-1' },
      pages: ['1', 2],
      either: '7',
    }),
    { kind: 'reply', text: 'Read.' },
  );
  const turn = await agentTurn(gw, { stream: false, toolDefinitions: [readRows] });
  const meant = {
    id: '12345',
    limit: 5,
    scale: 2.5,
    asc: true,
    filter: { min: -1 },
    pages: [1, 2],
    either: 7,
  };
  expect(turn.dispatched).toEqual([{ name: 'read_rows', args: meant }]);
  const assistant = gw.requests[1].body.messages.find((m: { role: string }) => m.role === 'assistant');
  expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual(meant);
});

it('text that is not exactly such a value stays as sent, for the tool to refuse', async () => {
  const args = {
    limit: '5 rows',
    scale: '',
    asc: 'yes',
    pages: ['2.5'],
    either: '1e999',
    id: 'water',
    filter: { min: '12345678901234567890' },
  };
  gw.script(callStep(args), { kind: 'reply', text: 'Done.' });
  const turn = await agentTurn(gw, { stream: false, toolDefinitions: [readRows] });
  expect(turn.dispatched).toEqual([{ name: 'read_rows', args }]);
});
