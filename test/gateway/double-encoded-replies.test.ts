// A reply encoded twice: the server (or a proxy) serialised the completion and handed the text to a
// framework that serialised it again, so the body is a JSON string holding the reply
// (`"{\"id\":...}"`: FastAPI's JSONResponse re-encodes a JSON string it is given, ooni/backend#992),
// or every event of a stream is one (`data: "{\"id\":...}"`: SSE frameworks that serialise string
// data once more, servicecomb-java-chassis#5125, dart-lang/tools#1647), `[DONE]` included. The text
// is the reply: read as it would be unencoded, streamed and not, error bodies too.
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
const completion: Body = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
  usage,
};
const chunks: Body[] = [
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
/** `value` serialised `times` times over. */
const encoded = (value: unknown, times = 2): string => {
  let text = JSON.stringify(value);
  for (let i = 1; i < times; i++) text = JSON.stringify(text);
  return text;
};
const body = (text: string, contentType = 'application/json', status = 200): ScriptStep => ({
  kind: 'bytes',
  status,
  headers: { 'Content-Type': contentType },
  chunks: [text],
});

for (const contentType of ['application/json', 'text/plain; charset=utf-8']) {
  it(`a JSON reply encoded as a JSON string (${contentType}): its answer and usage are read`, async () => {
    gw.script(body(encoded(completion), contentType));
    const result = await callGateway(configFor(gw.url), { messages: userSays('water') });
    expect(result.text).toBe(ANSWER);
    expect(result.usage).toMatchObject({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
  });
}

it('a reply encoded three times over, answering a streamed request: read and shown', async () => {
  gw.script(body(encoded(completion, 3)));
  const heard = recordHooks();
  const result = await callGateway(
    configFor(gw.url),
    { messages: userSays('water'), stream: true },
    heard.hooks,
  );
  expect(result.text).toBe(ANSWER);
  expect(heard.tokens.join('')).toBe(ANSWER);
});

for (const done of ['data: "[DONE]"\n\n', 'data: [DONE]\n\n']) {
  it(`a stream whose every event is a JSON string, then ${done.trim()}: shown and kept, usage read`, async () => {
    gw.script({
      kind: 'bytes',
      headers: { 'Content-Type': 'text/event-stream' },
      chunks: [...chunks.map((c) => `data: ${encoded(c)}\n\n`), done],
    });
    const heard = recordHooks();
    const result = await callGateway(
      configFor(gw.url),
      { messages: userSays('water'), stream: true },
      heard.hooks,
    );
    expect(result.text).toBe(ANSWER);
    expect(heard.tokens.join('')).toBe(ANSWER);
    expect(result.usage).toMatchObject({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
    expect(heard.warnings.join(' ')).not.toMatch(/non-JSON/);
  });
}

for (const sep of ['\n', '\r\n']) {
  it(`JSON-string events separated by a single ${JSON.stringify(sep)} on a connection held open: read and finished`, async () => {
    gw.script({
      kind: 'bytes',
      headers: { 'Content-Type': 'text/event-stream' },
      chunks: [...chunks.map((c) => `data: ${encoded(c)}${sep}`), `data: "[DONE]"${sep}`],
      end: 'hold',
    });
    const result = await callGateway(configFor(gw.url, { finishGraceMs: 100, idleTimeoutMs: 5000 }), {
      messages: userSays('water'),
      stream: true,
    });
    expect(result.text).toBe(ANSWER);
    expect(result.usage).toMatchObject({ promptTokens: 12, completionTokens: 3, totalTokens: 15 });
  });
}

it('a reply held as JSON text inside an envelope is read', async () => {
  gw.script(body(JSON.stringify({ code: 0, msg: 'success', data: JSON.stringify(completion) })));
  expect((await callGateway(configFor(gw.url), { messages: userSays('water') })).text).toBe(ANSWER);
});

it('an error encoded as a JSON string is that error, with a success status or its own', async () => {
  const refusal = {
    error: {
      message: 'Incorrect API key provided: sk-test',
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    },
  };
  gw.script(body(encoded(refusal)));
  const inReply = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('water') }));
  expect(inReply.message).toMatch(/Incorrect API key provided/);

  gw.script(
    body(
      encoded({ error: { message: 'Rate limit reached for requests', code: 429 } }),
      'application/json',
      429,
    ),
  );
  const limited = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('water') }));
  expect(limited.kind).toBe('rate_limited');
  expect(limited.message).toMatch(/Rate limit reached/);
});

// guard: a quoted event that holds no JSON document is still junk, ignored as before
it('a stream event that is a JSON string of plain text is ignored', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'text/event-stream' },
    chunks: [
      'data: "keep-alive"\n\n',
      ...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`),
      'data: [DONE]\n\n',
    ],
  });
  const result = await callGateway(configFor(gw.url), { messages: userSays('water'), stream: true });
  expect(result.text).toBe(ANSWER);
});
