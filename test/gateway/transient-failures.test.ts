/**
 * One rule decides whether a failed round-trip is sent again, wherever the failure shows up: in
 * the status line, or as an error object inside a 200 stream (the only way a stream that has
 * started can report an upstream failure). Overload, rate limits, timeouts and upstream errors
 * are retried while nothing was shown; a request the model can never take is not retried.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const event = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
const errorStream = (error: unknown) => ({ kind: 'bytes' as const, chunks: [event({ error })] });
const retrying = () => configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });

describe('an error chunk inside a 200 stream, before any text', () => {
  const transient: Array<[string, unknown]> = [
    ['a numeric 502', { code: 502, message: 'Upstream error' }],
    ['a string 503', { code: '503', message: 'Service Unavailable' }],
    ['server_error', { code: 'server_error', message: 'The server had an error' }],
    ['an Anthropic overloaded_error', { type: 'overloaded_error', message: 'Overloaded' }],
    ['529', { code: 529, message: 'Overloaded' }],
    ['429', { code: 429, message: 'Rate limit exceeded' }],
    ['408', { code: 408, message: 'Request timed out' }],
    ['provider_unavailable', { code: 'provider_unavailable', message: 'No provider' }],
    ['only the word Overloaded', { message: 'Overloaded' }],
    ['a proxy exception class name as type', { type: 'ServiceUnavailableError', message: 'litellm said so' }],
    ['APIConnectionError', { type: 'APIConnectionError', message: 'upstream went away' }],
    ['a full engine queue', { object: 'error', message: 'The engine queue is full' }],
    ['only "temporarily unavailable"', 'The model is temporarily unavailable, try again later'],
  ];
  for (const [label, error] of transient) {
    it(`${label} is transient: retried, and the retry answers`, async () => {
      gw.script(errorStream(error), { kind: 'reply', text: 'Second time lucky.' });
      const rec = recordHooks();
      const result = await callGateway(retrying(), { messages: userSays('hi'), stream: true }, rec.hooks);
      expect(result.text).toBe('Second time lucky.');
      expect(rec.retries).toHaveLength(1);
      expect(gw.requests).toHaveLength(2);
    });
  }

  const final: Array<[string, unknown, string]> = [
    ['a 400', { code: 400, message: 'Invalid value for temperature' }, 'provider_error'],
    [
      'a BadRequestError with no code',
      { type: 'BadRequestError', message: 'unsupported value' },
      'provider_error',
    ],
    [
      'a context-length refusal as SGLang sends it',
      {
        object: 'error',
        message: "Requested token count exceeds the model's maximum context length of 196608 tokens.",
        type: 'BadRequestError',
        code: 400,
      },
      'request_too_large',
    ],
    ['a validation error', { message: 'top_p must be > 0', type: 'validation' }, 'validation'],
    ['invalid_request_error', { type: 'invalid_request_error', message: 'bad' }, 'validation'],
    [
      'a context-length error, even with a 5xx code',
      { code: 500, message: 'the request exceeds the available context size' },
      'request_too_large',
    ],
    [
      'context_length_exceeded',
      { code: 'context_length_exceeded', message: 'too long' },
      'request_too_large',
    ],
  ];
  for (const [label, error, reason] of final) {
    it(`${label} is not retried`, async () => {
      gw.script(errorStream(error), { kind: 'reply', text: 'never asked' });
      const err = await gatewayFailure(callGateway(retrying(), { messages: userSays('hi'), stream: true }));
      expect(err).toMatchObject({ retryable: false, reason });
      expect(gw.requests).toHaveLength(1);
    });
  }
});

describe('the same rule for a status line', () => {
  it('a 500 saying the prompt exceeds the context is not retried (llama.cpp answers 500)', async () => {
    gw.script(
      {
        kind: 'error',
        status: 500,
        body: {
          error: { code: 500, message: 'the request exceeds the available context size, try increasing it' },
        },
      },
      { kind: 'reply', text: 'never asked' },
    );
    const err = await gatewayFailure(callGateway(retrying(), { messages: userSays('hi'), stream: true }));
    expect(err).toMatchObject({ kind: 'failed', reason: 'request_too_large', retryable: false });
    expect(gw.requests).toHaveLength(1);
  });

  it('a 529 (Anthropic overloaded) is retried', async () => {
    gw.script(
      {
        kind: 'error',
        status: 529,
        body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      },
      { kind: 'reply', text: 'Back.' },
    );
    const result = await callGateway(retrying(), { messages: userSays('hi'), stream: true });
    expect(result.text).toBe('Back.');
    expect(gw.requests).toHaveLength(2);
  });
});

describe('a stream that ends (EOF) with no finish_reason and no [DONE]', () => {
  it('is retried when only reasoning or a partial tool call came before it', async () => {
    const chunk = (delta: unknown) => event({ choices: [{ index: 0, delta, finish_reason: null }] });
    gw.script(
      { kind: 'bytes', chunks: [chunk({ reasoning_content: 'thinking' })] },
      {
        kind: 'bytes',
        chunks: [
          chunk({
            tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'x', arguments: '{"a' } }],
          }),
        ],
      },
      { kind: 'reply', text: 'Third time.' },
    );
    const result = await callGateway(retrying(), { messages: userSays('hi'), stream: true });
    expect(result.text).toBe('Third time.');
    expect(result.toolCalls).toEqual([]);
    expect(gw.requests).toHaveLength(3);
  });

  it('is retried for a buffered request answered with a stream, even after text: nothing was shown', async () => {
    const chunk = (delta: unknown) => event({ choices: [{ index: 0, delta, finish_reason: null }] });
    gw.script(
      { kind: 'bytes', chunks: [chunk({ content: 'Half an ans' })] },
      { kind: 'reply', text: 'Whole answer.' },
    );
    const rec = recordHooks();
    const result = await callGateway(retrying(), { messages: userSays('hi'), stream: false }, rec.hooks);
    expect(result.text).toBe('Whole answer.');
    expect(rec.tokens).toEqual([]);
    expect(gw.requests).toHaveLength(2);
  });

  it('is not retried once text was streamed to the person', async () => {
    const chunk = (delta: unknown) => event({ choices: [{ index: 0, delta, finish_reason: null }] });
    gw.script(
      { kind: 'bytes', chunks: [chunk({ content: 'Half an ans' })] },
      { kind: 'reply', text: 'never asked' },
    );
    const err = await gatewayFailure(callGateway(retrying(), { messages: userSays('hi'), stream: true }));
    expect(err).toMatchObject({ reason: 'truncated', partialText: 'Half an ans' });
    expect(gw.requests).toHaveLength(1);
  });
});

describe('an error after parts of a reply that were never shown', () => {
  it('an SSE error event after a half tool call is retried, and the half call is never run', async () => {
    const chunk = (delta: unknown) => event({ choices: [{ index: 0, delta, finish_reason: null }] });
    gw.script(
      {
        kind: 'bytes',
        chunks: [
          chunk({
            tool_calls: [
              { index: 0, id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"cmd":' } },
            ],
          }),
          `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'Internal server error' } })}\n\n`,
        ],
      },
      { kind: 'reply', text: 'Done without tools.' },
    );
    const result = await callGateway(retrying(), { messages: userSays('hi'), stream: true });
    expect(result.text).toBe('Done without tools.');
    expect(result.toolCalls).toEqual([]);
    expect(gw.requests).toHaveLength(2);
  });

  it('an in-stream 429 carries the wait its message asks for', async () => {
    gw.script(errorStream({ code: '429', message: 'Rate limit reached. Please try again in 20s.' }));
    const err = await gatewayFailure(
      callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true }),
    );
    expect(err.retryable).toBe(true);
    expect(err.kind).toBe('rate_limited');
    expect(err.retryAfterMs).toBeGreaterThanOrEqual(20_000);
  });

  it('an in-stream rate limit named by its type is a rate limit too, and a 503 is not', async () => {
    gw.script(errorStream({ type: 'rate_limit_exceeded', message: 'Too many requests' }));
    const limited = await gatewayFailure(
      callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true }),
    );
    expect(limited.kind).toBe('rate_limited');
    gw.script(errorStream({ code: 503, message: 'Service Unavailable' }));
    const down = await gatewayFailure(
      callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true }),
    );
    expect(down.kind).toBe('failed');
    expect(down.retryable).toBe(true);
  });
});
