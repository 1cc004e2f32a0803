// A reply inside a proxy's envelope: Chinese cloud gateways and relays answer
// `{code: 0, msg: "success", data: {...chat.completion...}}` (clients added a `data` fallback for
// them, vscode-unify-chat-provider#71), Cloudflare `{result: {...}, success: true, errors: [],
// messages: []}`, others `{response: {...}}`, DashScope-style `{output: {choices}, usage}` with the
// usage outside; a stream may wrap every chunk the same way. The reply is what the envelope holds:
// its text, calls and usage are read, and an error inside the envelope is that error. An envelope
// that holds no reply but says it failed (`{code: 10001, msg}`, `{success: false, errors}`) is told
// with its own message, not as a reply that could not be read.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

type Body = Record<string, unknown>;
const ANSWER = 'Logged 250 ml.';
const usage = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };
const completion = (message: Body = { role: 'assistant', content: ANSWER }, finish = 'stop'): Body => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'm',
  choices: [{ index: 0, message, finish_reason: finish }],
  usage,
});
const chunks = (): Body[] => [
  {
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { role: 'assistant', content: 'Logged ' } }],
  },
  {
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content: '250 ml.' }, finish_reason: 'stop' }],
  },
  { object: 'chat.completion.chunk', choices: [], usage },
];

const json = (body: Body): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [JSON.stringify(body)],
});
const sse = (events: Body[]): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'text/event-stream' },
  chunks: [...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), 'data: [DONE]\n\n'],
});

const envelopes: Array<[string, (reply: Body) => Body]> = [
  ['{code: 0, msg, data}', (reply) => ({ code: 0, msg: 'success', data: reply })],
  [
    "Cloudflare's {result, success: true}",
    (reply) => ({ result: reply, success: true, errors: [], messages: [] }),
  ],
  ['{response}', (reply) => ({ response: reply })],
  ['an envelope inside an envelope', (reply) => ({ code: 200, message: 'ok', data: { result: reply } })],
];

for (const [what, wrap] of envelopes) {
  it(`a JSON reply inside ${what}: its answer and usage are read`, async () => {
    gw.script(json(wrap(completion())));
    const result = await callGateway(configFor(gw.url), { messages: userSays('water') });
    expect(result.text).toBe(ANSWER);
    expect(result.usage).toMatchObject({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
  });
  it(`a stream whose every chunk is inside ${what}: shown and kept, usage read`, async () => {
    gw.script(sse(chunks().map(wrap)));
    const heard = recordHooks();
    const result = await callGateway(
      configFor(gw.url),
      { messages: userSays('water'), stream: true },
      heard.hooks,
    );
    expect(result.text).toBe(ANSWER);
    expect(heard.tokens.join('')).toBe(ANSWER);
    expect(result.usage).toMatchObject({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
  });
}

it('the choices under output with the usage outside (DashScope-style): both read', async () => {
  gw.script(
    json({
      output: { choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: ANSWER } }] },
      usage: { input_tokens: 12, output_tokens: 3, total_tokens: 15 },
      request_id: '5f7a2c1e-0b9d-4e63-9a51-3c2d1e0f4a7b',
    }),
  );
  const result = await callGateway(configFor(gw.url), { messages: userSays('water') });
  expect(result.text).toBe(ANSWER);
  expect(result.usage).toMatchObject({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
});

it('a stream whose closing usage chunk inside the envelope has no choices key: usage read', async () => {
  const [first, second] = chunks();
  gw.script(
    sse([first, second, { id: 'chatcmpl-1', usage }].map((c) => ({ code: 0, msg: 'success', data: c }))),
  );
  const result = await callGateway(configFor(gw.url), { messages: userSays('water'), stream: true });
  expect(result.text).toBe(ANSWER);
  expect(result.usage).toMatchObject({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
});

it("Ollama's native answer inside an envelope, and an envelope with choices: null beside its data: read", async () => {
  gw.script(
    json({
      code: 0,
      data: {
        model: 'llama3.2',
        message: { role: 'assistant', content: ANSWER },
        done: true,
        done_reason: 'stop',
      },
    }),
  );
  expect((await callGateway(configFor(gw.url), { messages: userSays('water') })).text).toBe(ANSWER);
  gw.script(json({ choices: null, data: completion() }));
  expect((await callGateway(configFor(gw.url), { messages: userSays('water') })).text).toBe(ANSWER);
});

it('a tool call inside an envelope is run', async () => {
  const call = {
    id: 'call_1',
    type: 'function',
    function: { name: 'append_row', arguments: '{"id":"water"}' },
  };
  gw.script(
    json({
      code: 0,
      msg: 'success',
      data: completion({ role: 'assistant', content: null, tool_calls: [call] }, 'tool_calls'),
    }),
  );
  const result = await callGateway(configFor(gw.url), { messages: userSays('water') });
  expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual([['append_row', { id: 'water' }]]);
});

it('an error inside an envelope is that error (a rate limit, waited out as one)', async () => {
  gw.script(
    json({
      code: 0,
      msg: 'success',
      data: { error: { message: 'Rate limit reached for requests', code: 429 } },
    }),
  );
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('water') }));
  expect(err.kind).toBe('rate_limited');
});

it('an envelope that holds no reply and says it failed is told with its own message', async () => {
  gw.script(json({ code: 10001, msg: 'invalid api key for this group', data: null }));
  const relay = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('water') }));
  expect(relay.reason).not.toBe('no_choices');
  expect(relay.message).toMatch(/invalid api key for this group/);

  gw.script(
    json({
      success: false,
      errors: [{ code: 10000, message: 'Authentication error' }],
      messages: [],
      result: null,
    }),
  );
  const cloudflare = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('water') }));
  expect(cloudflare.reason).not.toBe('no_choices');
  expect(cloudflare.message).toMatch(/Authentication error/);
});

// guard: a reply with choices is read as itself, whatever else it carries
it('a reply with choices and a data field of its own is read as itself', async () => {
  gw.script(
    json({
      ...completion(),
      data: { choices: [{ index: 0, message: { role: 'assistant', content: 'other' } }] },
    }),
  );
  const result = await callGateway(configFor(gw.url), { messages: userSays('water') });
  expect(result.text).toBe(ANSWER);
});
