// A streamed reply sent as JSON lines (one chunk object per line, no `data:` framing), as some
// proxies and Ollama-style servers send it: read as a stream whether it is labelled as JSON lines
// or only looks like them, its text passed on line by line; a single JSON document, compact or
// pretty-printed, is still one buffered reply.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { readFixture, type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const BODY = readFixture('json-lines-stream').body.toString('utf8');
const LINES = BODY.split('\n').filter((l) => l.trim() !== '');

it('labelled as JSON lines: read as a stream, text passed on line by line, usage read', async () => {
  gw.script({ kind: 'fixture', name: 'json-lines-stream', split: 'lines', chunkDelayMs: 1 });
  const rec = recordHooks();
  const result = await callGateway(
    configFor(gw.url),
    { messages: userSays('log water'), stream: true },
    rec.hooks,
  );
  expect(result).toMatchObject({ text: 'Logged 250 ml.', streamed: true, finishReason: 'stop' });
  expect(result.usage).toMatchObject({ promptTokens: 20, completionTokens: 4, totalTokens: 24 });
  expect(rec.tokens).toEqual(['Logged ', '250 ml.']);
});

for (const label of ['application/json', 'text/plain', 'application/jsonl', 'application/nd-json']) {
  it(`labelled ${label}, with CRLF line ends and a closing [DONE] line: still a stream`, async () => {
    gw.script({
      kind: 'bytes',
      headers: { 'Content-Type': label },
      chunks: [...LINES.map((l) => `${l}\r\n`), '[DONE]\r\n'],
    });
    const result = await callGateway(configFor(gw.url), { messages: userSays('log water'), stream: true });
    expect(result).toMatchObject({ text: 'Logged 250 ml.', streamed: true });
  });
}

it('one line cut across writes, and a whole body in one write, read the same', async () => {
  const cut = BODY.indexOf('250');
  gw.script(
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [BODY.slice(0, cut), BODY.slice(cut)],
    },
    { kind: 'bytes', headers: { 'Content-Type': 'application/json' }, chunks: [BODY] },
  );
  const cfg = configFor(gw.url);
  expect((await callGateway(cfg, { messages: userSays('a'), stream: true })).text).toBe('Logged 250 ml.');
  expect((await callGateway(cfg, { messages: userSays('b'), stream: true })).text).toBe('Logged 250 ml.');
});

it('lines that end before any finish_reason are a cut-off stream; an error line fails the reply', async () => {
  gw.script(
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/x-ndjson' },
      chunks: LINES.slice(0, 2).map((l) => `${l}\n`),
    },
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/x-ndjson' },
      chunks: [`${LINES[1]}\n`, `${JSON.stringify({ error: { message: 'model overloaded', code: 503 } })}\n`],
    },
  );
  const cfg = configFor(gw.url);
  const cut = await gatewayFailure(callGateway(cfg, { messages: userSays('a'), stream: true }));
  expect(cut).toMatchObject({ kind: 'unavailable', reason: 'truncated' });
  const failed = await gatewayFailure(callGateway(cfg, { messages: userSays('b'), stream: true }));
  expect(failed.message).toMatch(/model overloaded/);
  // and a single JSON document, compact with a trailing newline or pretty-printed, is one reply
  const doc = {
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'One body.' } }],
  };
  gw.script(
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [`${JSON.stringify(doc)}\n\n`],
    },
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [JSON.stringify(doc, null, 2)],
    },
  );
  for (const name of ['compact', 'pretty']) {
    const r = await callGateway(cfg, { messages: userSays(name), stream: true });
    expect(r).toMatchObject({ text: 'One body.', streamed: false });
  }
});
