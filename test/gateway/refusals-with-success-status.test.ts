// A refusal of something we sent, said with status 200: servers that answer every request with
// 200 (vLLM's and SGLang's bare `{object: "error"}`, a FastAPI server's `{detail}`, a relay's
// `{error: ...}`), or a stream that reports the refusal as its first event. The request is
// repaired as the same words with a 400 would repair it (the field left out, the system prompt
// sent as one string, the tools dropped for a model without them), not failed at once; a refusal
// no repair answers is still final, even when its code says 500.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ChatMessage, GatewayRequest } from '../../src/chat/gateway/types.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const json = (body: object): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [JSON.stringify(body)],
});
const firstEvent = (body: object): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [`data: ${JSON.stringify(body)}\n\n`],
});

const cachedSystem: ChatMessage = {
  role: 'system',
  content: [{ type: 'text', text: 'You are Klebb.', cache_control: { type: 'ephemeral' } }],
};
const afterToolCall: ChatMessage[] = [
  ...userSays('activity'),
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'abcde1234', type: 'function', function: { name: 'get_recent_activity', arguments: '{}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'abcde1234', content: '{"ok":true}' },
];
const tools = [{ type: 'function' as const, function: { name: 'get_recent_activity' } }];

/** A refusal, the request it refuses, and how the repaired request must differ. */
interface Case {
  what: string;
  body: object;
  request: GatewayRequest;
  capabilities?: { cacheControl: boolean };
  // biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
  repaired(first: any, second: any): void;
}

const cases: Case[] = [
  {
    what: "system content must be a string (vLLM's bare error)",
    body: {
      object: 'error',
      message:
        "'messages.0' : for 'role:system' the following must be satisfied[('messages.0.content' : value must be a string)]",
      type: 'BadRequestError',
      param: null,
      code: 400,
    },
    request: { messages: [cachedSystem, ...userSays('hi')] },
    capabilities: { cacheControl: true },
    repaired: (first, second) => {
      expect(Array.isArray(first.messages[0].content)).toBe(true);
      expect(second.messages[0].content).toBe('You are Klebb.');
    },
  },
  {
    what: "cache_control an extra input (FastAPI's validation entries)",
    body: {
      detail: [
        {
          type: 'extra_forbidden',
          loc: ['body', 'messages', 0, 'content', 0, 'cache_control'],
          msg: 'Extra inputs are not permitted',
          input: { type: 'ephemeral' },
        },
      ],
    },
    request: { messages: [cachedSystem, ...userSays('hi')] },
    capabilities: { cacheControl: true },
    repaired: (first, second) => {
      expect(JSON.stringify(first)).toContain('cache_control');
      expect(JSON.stringify(second)).not.toContain('cache_control');
    },
  },
  {
    what: "stream_options an unknown parameter (a relay's error object)",
    body: {
      error: {
        message: "Unknown parameter: 'stream_options'.",
        type: 'invalid_request_error',
        param: 'stream_options',
        code: 'unknown_parameter',
      },
    },
    request: { messages: userSays('hi'), stream: true },
    repaired: (first, second) => {
      expect(first.stream_options).toEqual({ include_usage: true });
      expect(second).not.toHaveProperty('stream_options');
    },
  },
  {
    what: 'name on a tool message refused (an error given as text)',
    body: { error: 'messages.2.name: Extra inputs are not permitted' },
    request: { messages: afterToolCall },
    repaired: (first, second) => {
      expect(first.messages[2].name).toBe('get_recent_activity');
      expect(second.messages[2]).not.toHaveProperty('name');
    },
  },
  {
    what: "tools refused by a server started without tool calling (vLLM's bare error)",
    body: {
      object: 'error',
      message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      type: 'BadRequestError',
      param: null,
      code: 400,
    },
    request: { messages: userSays('hi'), tools },
    repaired: (first, second) => {
      expect(first.tools).toHaveLength(1);
      expect(second).not.toHaveProperty('tools');
      expect(second).not.toHaveProperty('tool_choice');
    },
  },
];

for (const c of cases) {
  describe(c.what, () => {
    for (const as of ['JSON body', 'first event of a stream'] as const) {
      it(`as the ${as} with status 200: sent again repaired, and the answer read`, async () => {
        const stream = as !== 'JSON body';
        gw.script(stream ? firstEvent(c.body) : json(c.body), { kind: 'reply', text: 'Fine.' });
        const heard = recordHooks();
        const result = await callGateway(
          configFor(gw.url, { capabilities: c.capabilities }),
          { ...c.request, stream: stream || c.request.stream },
          heard.hooks,
        );
        expect(result.text).toBe('Fine.');
        expect(gw.requests).toHaveLength(2);
        c.repaired(gw.requests[0].body, gw.requests[1].body);
      });
    }
  });
}

it('a refusal no repair answers, said with 200 and code 500, is final: asked once', async () => {
  const body = {
    object: 'error',
    message: '1 validation error: body.temperature: Input should be a valid number, but must be a float',
    type: 'InternalServerError',
    code: 500,
  };
  gw.script(json(body), json(body), json(body));
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), { messages: userSays('x') }),
  );
  expect(err).toMatchObject({ kind: 'failed', reason: 'refused', retryable: false });
  expect(gw.requests).toHaveLength(1);
});

it('a refusal reported after answer text was shown is not repaired: the text would show twice', async () => {
  gw.script(
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'text/event-stream' },
      chunks: [
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Looking' }, finish_reason: null }] })}\n\n`,
        `data: ${JSON.stringify({ error: { message: "Unknown parameter: 'stream_options'.", code: 400 } })}\n\n`,
      ],
    },
    { kind: 'reply', text: 'Looking again.' },
  );
  const err = await gatewayFailure(
    callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, recordHooks().hooks),
  );
  expect(err).toMatchObject({ kind: 'failed', partialText: 'Looking' });
  expect(gw.requests).toHaveLength(1);
});
