// A conversation keeps the person's message even when its turn got no answer (a failure, a stop,
// a restart), so the next turn can carry two user messages in a row; a long conversation's window
// can also begin with an answer whose question fell outside it. Several providers refuse both:
// DeepSeek's reasoner ("deepseek-reasoner does not support successive user or assistant messages
// (messages[1] and messages[2] in your input). You should interleave the user/assistant messages
// in the message sequence."), Perplexity ("After the (optional) system message(s), user and
// assistant roles should be alternating."), Anthropic behind proxies ("roles must alternate between
// "user" and "assistant", but found multiple "user" roles in a row"), Bedrock ("A conversation must
// alternate between user and assistant roles"), chat templates of Mistral and
// Llama 2 ("Conversation roles must alternate user/assistant/user/assistant/..."). Every later
// message of that conversation failed the same way. The request is sent again with each run of
// messages of one role joined into one message, and an answer before the first question left out;
// that is remembered per endpoint and model.
import { expect, it } from 'vitest';
import { ProviderMemory } from '../../src/chat/gateway/provider-memory.js';
import type { ChatMessage } from '../../src/chat/gateway/types.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const refusal = (message: string, type = 'invalid_request_error'): ScriptStep => ({
  kind: 'error',
  status: 400,
  body: { error: { message, type, param: null, code: 'invalid_request_error' } },
});

const DEEPSEEK =
  'deepseek-reasoner does not support successive user or assistant messages (messages[1] and messages[2] in your input). You should interleave the user/assistant messages in the message sequence.';
const PERPLEXITY = 'After the (optional) system message(s), user and assistant roles should be alternating.';
const ANTHROPIC =
  'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row';

const BEDROCK =
  'An error occurred (ValidationException) when calling the Converse operation: A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.';

// the first question's turn failed: it is stored, unanswered, before the one asked now
const unanswered: ChatMessage[] = [
  { role: 'user', content: 'How much water did I drink today?' },
  { role: 'user', content: 'And yesterday?' },
];

type Sent = { role: string; content: unknown };
const sent = (i: number) => gw.requests[i].body.messages as Sent[];

for (const [who, words] of [
  ['DeepSeek', DEEPSEEK],
  ['Perplexity', PERPLEXITY],
  ['Anthropic behind a proxy', ANTHROPIC],
  ['Bedrock behind its OpenAI-compatible gateway', BEDROCK],
] as const) {
  it(`${who}: two questions in a row go again as one, after the system prompt, and the turn answers`, async () => {
    gw.script(refusal(words), { kind: 'reply', text: 'Yesterday you drank 1.5 l.' });
    const { result } = await agentTurn(gw, { messages: unanswered, stream: true });
    expect(result.payload?.reply).toBe('Yesterday you drank 1.5 l.');
    expect(gw.requests).toHaveLength(2);
    const messages = sent(1);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[1].content).toBe('How much water did I drink today?\n\nAnd yesterday?');
  });
}

it('a window that begins with an answer: the answer before the first question is left out', async () => {
  gw.script(refusal(PERPLEXITY), { kind: 'reply', text: 'Noted.' });
  await agentTurn(gw, {
    messages: [
      { role: 'assistant', content: 'Logged 250 ml.' },
      { role: 'user', content: 'Thanks. Also log a coffee.' },
    ],
    stream: false,
  });
  expect(sent(1).map((m) => m.role)).toEqual(['system', 'user']);
});

it('remembered: the next turn goes out alternating at once', async () => {
  const memory = new ProviderMemory();
  gw.script(refusal(DEEPSEEK), { kind: 'reply', text: 'One.' }, { kind: 'reply', text: 'Two.' });
  await agentTurn(gw, { messages: unanswered, stream: true, gateway: { memory } });
  await agentTurn(gw, { messages: unanswered, stream: true, gateway: { memory } });
  expect(gw.requests).toHaveLength(3);
  expect(sent(2).map((m) => m.role)).toEqual(['system', 'user']);
});

it('a tool loop keeps its shape: the tool calls and their results are never joined', async () => {
  gw.script(
    refusal(DEEPSEEK),
    { kind: 'reply', toolCalls: [{ id: 'c1', name: 'read_rows', arguments: '{"id":"water"}' }] },
    { kind: 'reply', text: '1.5 l.' },
  );
  const { result } = await agentTurn(gw, { messages: unanswered, stream: true, tools: ['read_rows'] });
  expect(result.payload?.reply).toBe('1.5 l.');
  expect(sent(2).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
});

it('an alternating transcript is sent unchanged (guards what worked)', async () => {
  gw.script({ kind: 'reply', text: 'Fine.' });
  await agentTurn(gw, {
    messages: [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
    ],
    stream: true,
  });
  expect(sent(0).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
});
