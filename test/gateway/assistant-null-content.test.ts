// An assistant message that only calls tools goes back with `content: null`, as OpenAI's schema
// has it. Some servers refuse null there (LM Studio: "'content' field must be a string or an array
// of objects", Ollama: "invalid message content type: <nil>", pydantic-validated servers:
// "messages.1.content: Input should be a valid string"): the request is repaired once with "" in
// its place, and that is remembered for the endpoint and model, so every turn after a tool call
// does not fail. A provider that takes null keeps getting null.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { ProviderMemory } from '../../src/chat/gateway/provider-memory.js';
import type { ChatMessage } from '../../src/chat/gateway/types.js';
import {
  type RecordedRequest,
  type ScriptedGateway,
  type ScriptStep,
  startScriptedGateway,
} from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const afterToolCall: ChatMessage[] = [
  ...userSays('how much water today?'),
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'abcde1234', type: 'function', function: { name: 'get_recent_activity', arguments: '{}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'abcde1234', content: '{"water_ml":1750}' },
];

// biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
const assistantOf = (q: RecordedRequest): any => q.body.messages[1];

/** A strict server: refuses null assistant content with `refusal`, answers otherwise. */
const strict = (refusal: ScriptStep): ScriptStep => ({
  kind: 'decide',
  choose: (q) =>
    assistantOf(q).content === null ? refusal : { kind: 'reply', text: 'You drank 1.75 l today.' },
});

const refusals: Array<[string, ScriptStep]> = [
  [
    'LM Studio',
    {
      kind: 'error',
      status: 400,
      body: { error: "Invalid 'content': 'content' field must be a string or an array of objects." },
    },
  ],
  [
    'Ollama',
    {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'invalid message content type: <nil>',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    },
  ],
  [
    'a pydantic-validated server, with status 200',
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [
        JSON.stringify({
          object: 'error',
          message:
            '1 validation error for ChatCompletionRequest\nmessages.1.content\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]',
          type: 'BadRequestError',
          code: 400,
        }),
      ],
    },
  ],
];

describe('null content refused on an assistant message that called tools', () => {
  for (const [who, refusal] of refusals) {
    it(`${who}: sent again with "", and "" from then on`, async () => {
      gw.script(strict(refusal), strict(refusal), strict(refusal));
      const cfg = configFor(gw.url, { memory: new ProviderMemory() });
      const first = await callGateway(cfg, { messages: afterToolCall });
      expect(first.text).toBe('You drank 1.75 l today.');
      expect(assistantOf(gw.requests[0]).content).toBeNull();
      expect(assistantOf(gw.requests[1]).content).toBe('');
      expect(assistantOf(gw.requests[1]).tool_calls).toHaveLength(1);
      const next = await callGateway(cfg, { messages: afterToolCall, stream: true });
      expect(next.text).toBe('You drank 1.75 l today.');
      expect(assistantOf(gw.requests[2]).content).toBe('');
      expect(gw.requests).toHaveLength(3);
    });
  }
});

it('a provider that takes null keeps getting null', async () => {
  gw.script({ kind: 'reply', text: 'You drank 1.75 l today.' });
  await callGateway(configFor(gw.url), { messages: afterToolCall });
  expect(assistantOf(gw.requests[0]).content).toBeNull();
});

it('a refusal naming another message than the null one does not change the assistant message', async () => {
  gw.script(
    {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'messages.0.content: Input should be a valid string',
          type: 'invalid_request_error',
        },
      },
    },
    { kind: 'reply', text: 'unused' },
  );
  await callGateway(configFor(gw.url), { messages: afterToolCall }).catch(() => undefined);
  expect(gw.requests).toHaveLength(1);
});
