// Errors sent with status 200: a server that answers every request with 200 (vLLM's and SGLang's
// bare `{object: "error", ...}`, a FastAPI server's `{detail}`), or a stream that had already
// started and can only say it failed in an event. Each is the failure it reports, classified as
// the same words would be in a status line (a refused key, an unknown model, a prompt too long,
// a rate limit, an overloaded upstream), never an empty answer or a reply "that could not be
// read".
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const retrying = () => configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
const json = (body: object): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [JSON.stringify(body)],
});
const events = (...payloads: Array<object | string>): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: payloads.map((p) => `data: ${typeof p === 'string' ? p : JSON.stringify(p)}\n\n`),
});
const delta = (content: string) => ({
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

/** An error body, the failure it must be, and words the person must see. */
interface Case {
  who: string;
  body: object;
  expected: { kind: string; reason: string; retryable: boolean };
  copy: RegExp;
}

const cases: Case[] = [
  {
    who: "vLLM's bare error: a prompt longer than the context",
    body: {
      object: 'error',
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (4096 in the messages, 1024 in the completion).",
      type: 'BadRequestError',
      param: null,
      code: 400,
    },
    expected: { kind: 'failed', reason: 'request_too_large', retryable: false },
    copy: /too long for the model/,
  },
  {
    who: "vLLM's bare error: an unknown model",
    body: {
      object: 'error',
      message: 'The model `qwen-9` does not exist.',
      type: 'NotFoundError',
      param: null,
      code: 404,
    },
    expected: { kind: 'failed', reason: 'not_found', retryable: false },
    copy: /CHAT_MODEL/,
  },
  {
    who: "vLLM's bare error: a rate limit",
    body: { object: 'error', message: 'Too many requests in the queue', type: 'RateLimitError', code: 429 },
    expected: { kind: 'rate_limited', reason: 'rate_limited', retryable: true },
    copy: /busy right now/,
  },
  {
    who: "a FastAPI server's detail: a refused key",
    body: { detail: 'Invalid API key' },
    expected: { kind: 'failed', reason: 'auth', retryable: false },
    copy: /CHAT_API_KEY/,
  },
  {
    who: "a FastAPI server's detail: validation entries",
    body: {
      detail: [
        { type: 'missing', loc: ['body', 'messages', 0, 'content'], msg: 'Field required', input: {} },
      ],
    },
    expected: { kind: 'failed', reason: 'provider_error', retryable: false },
    copy: /body\.messages\.0\.content: Field required/,
  },
  {
    who: "a FastAPI server's detail wrapping an OpenAI-style error",
    body: { detail: { error: { message: 'Model is overloaded', type: 'server_error', code: '503' } } },
    expected: { kind: 'failed', reason: 'provider_error', retryable: true },
    copy: /Model is overloaded/,
  },
  {
    who: "Ollama's error text: a model not pulled",
    body: { error: 'model "llama9" not found, try pulling it first' },
    expected: { kind: 'failed', reason: 'not_found', retryable: false },
    copy: /CHAT_MODEL/,
  },
  {
    who: 'an OpenAI-style error object: a refused key',
    body: {
      error: {
        message: 'Incorrect API key provided: sk-test.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    },
    expected: { kind: 'failed', reason: 'auth', retryable: false },
    copy: /CHAT_API_KEY/,
  },
];

for (const c of cases) {
  describe(c.who, () => {
    it('as a JSON body with status 200: that failure, asked once unless it is transient', async () => {
      gw.script(json(c.body), json(c.body), json(c.body));
      const err = await gatewayFailure(callGateway(retrying(), { messages: userSays('x'), stream: false }));
      expect(err).toMatchObject(c.expected);
      expect(failureCopy(err).error).toMatch(c.copy);
      expect(gw.requests).toHaveLength(c.expected.retryable ? 3 : 1);
    });

    it('as an event in the middle of a stream: that failure, the text before it kept', async () => {
      gw.script(events(delta('Looking that up'), c.body, '[DONE]'));
      const heard = recordHooks();
      const err = await gatewayFailure(
        callGateway(retrying(), { messages: userSays('x'), stream: true }, heard.hooks),
      );
      expect(err).toMatchObject({ ...c.expected, partialText: 'Looking that up' });
      expect(failureCopy(err).error).toMatch(c.copy);
      expect(heard.tokens.join('')).toBe('Looking that up');
      expect(gw.requests).toHaveLength(1);
    });
  });
}

it('a bare error as the first event of a stream, overloaded: asked again, and the answer shown', async () => {
  gw.script(
    events({ object: 'error', message: 'Service is overloaded', type: 'ServiceUnavailableError', code: 503 }),
    { kind: 'reply', text: 'Logged 250 ml.' },
  );
  const heard = recordHooks();
  const result = await callGateway(retrying(), { messages: userSays('water'), stream: true }, heard.hooks);
  expect(result.text).toBe('Logged 250 ml.');
  expect(gw.requests).toHaveLength(2);
  expect(heard.retries[0].error).toMatchObject({ kind: 'failed', reason: 'provider_error' });
  expect(heard.retries[0].error.message).toContain('Service is overloaded');
});

// guards the looser shapes above: only a payload without `choices` may be read as one of them
it('a chunk with choices beside a `detail` or `message` of its own is still a chunk', async () => {
  gw.script(
    events(
      { ...delta('Logged '), detail: 'trace-17', message: 'ok', type: 'x' },
      { choices: [{ index: 0, delta: { content: '250 ml.' }, finish_reason: 'stop' }], code: 0 },
      '[DONE]',
    ),
  );
  const result = await callGateway(configFor(gw.url), { messages: userSays('water'), stream: true });
  expect(result.text).toBe('Logged 250 ml.');
});
