// gpt-oss on a server that leaves its harmony markup in the text (no harmony parser) writes a tool
// call as a commentary message addressed to the tool:
// `<|start|>assistant<|channel|>commentary to=functions.read_rows <|constrain|>json<|message|>{...}<|call|>`,
// usually after its analysis. The call was lost: taken for reasoning after the analysis (the turn
// then ended with no answer), or shown to the person as markup. It is now the call it is, whatever
// the pieces the stream cuts it into; a call to a tool that was not offered stays text.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const tools = [
  { type: 'function' as const, function: { name: 'read_rows', parameters: { type: 'object' } } },
];
const streamed = (...pieces: string[]): ScriptStep => ({
  kind: 'bytes',
  chunks: [
    ...pieces.map(
      (content) =>
        `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`,
    ),
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
    'data: [DONE]\n\n',
  ],
});
const ask = () => callGateway(configFor(gw.url), { messages: userSays('water?'), stream: true, tools });

it('after the analysis, in pieces: the call runs, the analysis is reasoning', async () => {
  gw.script(
    streamed(
      '<|channel|>analysis<|message|>Need the water',
      ' rows.<|end|><|start|>assistant<|chan',
      'nel|>commentary to=functions.read_rows <|constrain|>json<|mes',
      'sage|>{"card": "wa',
      'ter"}<|call|>',
    ),
  );
  const result = await ask();
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([
    ['read_rows', { card: 'water' }],
  ]);
  expect(result.text).toBe('');
  expect(result.reasoning).toBe('Need the water rows.');
});

it('alone, without an analysis before it: the call runs', async () => {
  gw.script(
    streamed(
      '<|start|>assistant<|channel|>commentary to=functions.read_rows <|constrain|>json<|message|>{"card":"water"}<|call|>',
    ),
  );
  const result = await ask();
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([
    ['read_rows', { card: 'water' }],
  ]);
  expect(result.text).toBe('');
  // not a closing tag: the model is not taken to start inside reasoning
  expect(result.inlineReasoning).toBeUndefined();
});

it('alone, cut inside its first marker: the call runs', async () => {
  gw.script(
    streamed(
      '<|start|>assistant<|chan',
      'nel|>commentary to=functions.read_rows <|constrain|>json<|message|>{"card":"water"}<|call|>',
    ),
  );
  const result = await ask();
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([
    ['read_rows', { card: 'water' }],
  ]);
  expect(result.text).toBe('');
});

it('a call to a tool that was not offered stays text', async () => {
  gw.script(
    streamed('<|channel|>commentary to=functions.delete_everything <|constrain|>json<|message|>{}<|call|>'),
  );
  const result = await ask();
  expect(result.toolCalls).toEqual([]);
  expect(result.text).toContain('delete_everything');
});
