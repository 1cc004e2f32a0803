// Models write a multi-line or tabbed string argument (a note, a commit message, text copied from
// a file) with the line breaks and tabs raw inside the JSON string instead of as \n and \t:
// Gemini, DeepSeek's stream and Kimi have all been seen to. JSON forbids raw control characters in
// strings, so a strict parse refused the arguments ("Bad control character in string literal"):
// the tool never ran and the model was told its arguments were not valid JSON, often again and
// again. A raw control character inside a string has one meaning, the character itself, so the
// arguments are read with it escaped; one outside any string is still refused.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { agentTurn } from './agent-turn.js';
import { configFor, userSays } from './support.js';
import { choiceEvent, completionStep, DONE, functionTools, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

/** The arguments as the model wrote them: a real line break and a real tab inside the string. */
const RAW = '{"card": "journal", "text": "Slept badly.\nWoke at 4:00\tthen read."}';
const MEANT = { card: 'journal', text: 'Slept badly.\nWoke at 4:00\tthen read.' };

const callStep = (args: string) =>
  completionStep({
    message: {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'append_note', arguments: args } }],
    },
    finish_reason: 'tool_calls',
  });

it('a whole reply: the call runs with the characters meant, and goes back as valid JSON', async () => {
  gw.script(callStep(RAW), { kind: 'reply', text: 'Noted.' });
  const turn = await agentTurn(gw, { stream: false, tools: ['append_note'] });
  expect(turn.dispatched).toEqual([{ name: 'append_note', args: MEANT }]);
  expect(turn.result.payload?.reply).toBe('Noted.');
  const assistant = gw.requests[1].body.messages.find((m: { role: string }) => m.role === 'assistant');
  expect(JSON.parse(assistant.tool_calls[0].function.arguments)).toEqual(MEANT);
});

it('a stream: the raw characters may arrive in any piece, a CR LF split between two', async () => {
  const pieces = ['{"card": "journal", "text": "Line one\r', '\nLine two\u000b', 'and more"}'];
  gw.script(
    sseStep(
      choiceEvent({
        delta: {
          role: 'assistant',
          tool_calls: [
            { index: 0, id: 'call_1', type: 'function', function: { name: 'append_note', arguments: '' } },
          ],
        },
      }),
      ...pieces.map((p) =>
        choiceEvent({ delta: { tool_calls: [{ index: 0, function: { arguments: p } }] } }),
      ),
      choiceEvent({ delta: {}, finish_reason: 'tool_calls' }),
      DONE,
    ),
    { kind: 'reply', text: 'Noted.' },
  );
  const turn = await agentTurn(gw, { stream: true, tools: ['append_note'] });
  expect(turn.dispatched).toEqual([
    { name: 'append_note', args: { card: 'journal', text: 'Line one\r\nLine two\u000band more' } },
  ]);
});

it('line breaks between the members (outside any string) were always fine and stay so', async () => {
  gw.script(callStep('{\n\t"card": "journal",\r\n\t"text": "x"\n}'));
  const result = await callGateway(configFor(gw.url), {
    messages: userSays('note'),
    tools: functionTools('append_note'),
    stream: false,
  });
  expect(result.toolCalls[0].parsedArguments).toEqual({ card: 'journal', text: 'x' });
});

it('a control character outside any string is still refused: the call does not run', async () => {
  gw.script(callStep('{"card": "journal",\u0001 "text": "x"}'));
  const result = await callGateway(configFor(gw.url), {
    messages: userSays('note'),
    tools: functionTools('append_note'),
    stream: false,
  });
  expect(result.toolCalls[0].parsedArguments).toBeUndefined();
  expect(result.toolCalls[0].argumentsError).toMatch(/not valid JSON/);
});
