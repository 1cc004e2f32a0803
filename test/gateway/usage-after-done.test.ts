// Usage that comes after `data: [DONE]`: servers and relays that send the usage chunk they were
// asked for (`stream_options.include_usage`) after the end marker instead of before it. The answer
// is kept as it was at `[DONE]`, and the usage is recorded (the debug log's usage= and cached=
// figures) instead of being reported as none. A stream that sends no usage after `[DONE]` is not
// held open waiting for it longer than a finished stream is anyway.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const chunk = (content: string, finish: string | null = null) => ({
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: { content }, finish_reason: finish }],
});
const usage = {
  object: 'chat.completion.chunk',
  choices: [],
  usage: {
    prompt_tokens: 812,
    completion_tokens: 9,
    total_tokens: 821,
    prompt_tokens_details: { cached_tokens: 768 },
  },
};
const expectedUsage = { promptTokens: 812, completionTokens: 9, totalTokens: 821, cachedTokens: 768 };
const sse = (p: object | string) => `data: ${typeof p === 'string' ? p : JSON.stringify(p)}\n\n`;
const stream = (parts: string[], end: 'end' | 'hold' = 'end', type = 'text/event-stream'): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': type },
  chunks: parts,
  end,
  chunkDelayMs: 20,
});
const ask = { messages: userSays('water today?'), stream: true };
const answer = [sse(chunk('You logged ')), sse(chunk('1.5 l today.', 'stop'))];

it('usage after [DONE], then the connection closes: the answer kept, the usage recorded', async () => {
  gw.script(stream([...answer, sse('[DONE]'), sse(usage)]));
  const heard = recordHooks();
  const result = await callGateway(configFor(gw.url), ask, heard.hooks);
  expect(gw.requests[0].body.stream_options).toEqual({ include_usage: true });
  expect(result.text).toBe('You logged 1.5 l today.');
  expect(heard.tokens.join('')).toBe('You logged 1.5 l today.');
  expect(result.usage).toMatchObject(expectedUsage);
});

it('usage after [DONE] on a connection held open: read as soon as it comes', async () => {
  gw.script(stream([...answer, sse('[DONE]'), sse(usage)], 'hold'));
  const started = Date.now();
  const result = await callGateway(configFor(gw.url, { finishGraceMs: 5_000, idleTimeoutMs: 10_000 }), ask);
  expect(result.usage).toMatchObject(expectedUsage);
  expect(Date.now() - started).toBeLessThan(2_000);
});

it('usage after [DONE] in a stream of JSON lines: recorded', async () => {
  const lines = [chunk('You logged '), chunk('1.5 l today.', 'stop'), '[DONE]', usage].map(
    (p) => `${typeof p === 'string' ? p : JSON.stringify(p)}\n`,
  );
  gw.script(stream(lines, 'end', 'application/x-ndjson'));
  const result = await callGateway(configFor(gw.url), ask);
  expect(result.text).toBe('You logged 1.5 l today.');
  expect(result.usage).toMatchObject(expectedUsage);
});

it('usage after [DONE] in the same write, not asked for: still recorded', async () => {
  gw.script({ ...stream([[...answer, sse('[DONE]'), sse(usage)].join('')]) });
  const result = await callGateway(configFor(gw.url, { capabilities: { streamOptions: false } }), ask);
  expect(gw.requests[0].body.stream_options).toBeUndefined();
  expect(result.usage).toMatchObject(expectedUsage);
});

// guards the waiting: usage that came before [DONE] settles the reply at [DONE]
it('usage in a choices: [] chunk before [DONE], connection held open: read, and no wait', async () => {
  gw.script(stream([...answer, sse(usage), sse('[DONE]')], 'hold'));
  const started = Date.now();
  const result = await callGateway(configFor(gw.url, { finishGraceMs: 5_000, idleTimeoutMs: 10_000 }), ask);
  expect(result.usage).toMatchObject(expectedUsage);
  expect(Date.now() - started).toBeLessThan(2_000);
});

// guards the waiting: a server that never sends the usage it was asked for is not waited on forever
it('no usage at all, [DONE] on a connection held open: the answer after the finish grace, usage unknown', async () => {
  gw.script(stream([...answer, sse('[DONE]')], 'hold'));
  const started = Date.now();
  const result = await callGateway(configFor(gw.url, { finishGraceMs: 300, idleTimeoutMs: 10_000 }), ask);
  expect(result.text).toBe('You logged 1.5 l today.');
  expect(result.usage).toBeNull();
  expect(Date.now() - started).toBeLessThan(2_000);
});

// guards what is read after [DONE]: its usage only, never more answer text
it('a chunk with text after [DONE]: not part of the answer', async () => {
  gw.script(stream([...answer, sse('[DONE]'), sse({ ...chunk(' And more.', 'stop'), usage: usage.usage })]));
  const heard = recordHooks();
  const result = await callGateway(configFor(gw.url), ask, heard.hooks);
  expect(result.text).toBe('You logged 1.5 l today.');
  expect(heard.tokens.join('')).toBe('You logged 1.5 l today.');
  expect(result.usage).toMatchObject(expectedUsage);
});
