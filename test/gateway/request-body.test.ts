// What we send: docs/CHAT-AGENT.md (model, messages, tools, tool_choice "auto", Bearer key) and the
// seed (URL scheme/host/port/path from CHAT_ENDPOINT_URL; stream + stream_options.include_usage).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ToolDefinition } from '../../src/chat/gateway/types.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const tools: ToolDefinition[] = [
  {
    type: 'function',
    function: {
      name: 'list_manifests',
      description: 'List cards',
      parameters: { type: 'object', properties: {} },
    },
  },
];

it('sends model, messages, tools with tool_choice auto, stream and stream_options to the URL path as given', async () => {
  gw.script({ kind: 'reply', text: 'ok' });
  await callGateway(
    configFor(`${gw.origin}/proxy/openai/chat?api-version=2024-10-21`, { apiKey: 'sk-abc' }),
    {
      messages: [{ role: 'system', content: 'You are Klebb.' }, ...userSays('hi')],
      tools,
      stream: true,
    },
  );
  const req = gw.requests[0];
  expect(req.method).toBe('POST');
  expect(req.path).toBe('/proxy/openai/chat?api-version=2024-10-21');
  expect(req.headers.authorization).toBe('Bearer sk-abc');
  expect(req.headers['content-type']).toBe('application/json');
  expect(req.headers.accept).toMatch(/text\/event-stream/);
  expect(req.body).toEqual({
    model: 'test-model',
    messages: [
      { role: 'system', content: 'You are Klebb.' },
      { role: 'user', content: 'hi' },
    ],
    tools,
    tool_choice: 'auto',
    stream: true,
    stream_options: { include_usage: true },
  });
});

it('sends no Authorization header without a key, no tool_choice without tools, no stream_options when buffered', async () => {
  gw.script({ kind: 'reply', text: 'ok' }, { kind: 'reply', text: 'ok' });
  await callGateway(configFor(gw.url, { apiKey: undefined }), { messages: userSays('hi') });
  await callGateway(configFor(gw.url, { apiKey: '' }), {
    messages: userSays('hi'),
    maxTokens: 20,
    temperature: 0.2,
  });
  expect(gw.requests[0].headers.authorization).toBeUndefined();
  expect(gw.requests[1].headers.authorization).toBeUndefined();
  expect(gw.requests[0].body).toEqual({
    model: 'test-model',
    messages: [{ role: 'user', content: 'hi' }],
    stream: false,
  });
  expect(gw.requests[1].body).toMatchObject({ max_tokens: 20, temperature: 0.2 });
});

it('a gateway that answers buffered JSON to a streaming request is tolerated', async () => {
  gw.script({ kind: 'reply', text: 'Whole answer at once.', as: 'json' });
  const rec = recordHooks();
  const result = await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true }, rec.hooks);
  expect(result).toMatchObject({ text: 'Whole answer at once.', streamed: false });
  expect(rec.tokens).toEqual(['Whole answer at once.']);
});

it('an SSE stream with a wrong content type is still read as SSE', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'text/plain' },
    chunks: ['data: {"choices":[{"index":0,"delta":{"content":"sniffed"},"finish_reason":"stop"}]}\n\n'],
  });
  const result = await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true });
  expect(result).toMatchObject({ text: 'sniffed', streamed: true });
});

it('rejects an endpoint URL that is not http(s)', async () => {
  const err = await gatewayFailure(
    callGateway(configFor('ftp://example.com/x'), { messages: userSays('hi') }),
  );
  expect(err).toMatchObject({ kind: 'failed', reason: 'bad_url' });
  const bad = await gatewayFailure(callGateway(configFor('not a url'), { messages: userSays('hi') }));
  expect(bad.reason).toBe('bad_url');
});
