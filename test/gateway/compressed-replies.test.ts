// A reply compressed although we never asked for it: proxies in front of OpenAI-compatible
// gateways gzip every body regardless of Accept-Encoding
// (https://github.com/Anionex/agent-vision-toolkit/pull/36). The body is decompressed before it is
// read, for streams, JSON replies and error bodies alike.
import zlib from 'node:zlib';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const STREAM = `${chunk({ content: 'Logged ' })}${chunk({ content: '250 ml.' })}${chunk({}, 'stop')}data: [DONE]\n\n`;

it('a gzip event stream, flushed event by event, is read as it arrives', async () => {
  const gzip = zlib.createGzip();
  const pieces: Buffer[] = [];
  gzip.on('data', (b: Buffer) => pieces.push(b));
  const writes: Buffer[] = [];
  for (const event of STREAM.split(/(?<=\n\n)/)) {
    await new Promise<void>((resolve) => gzip.write(event, () => gzip.flush(() => resolve())));
    writes.push(Buffer.concat(pieces.splice(0)));
  }
  await new Promise<void>((resolve) => gzip.end(resolve));
  writes.push(Buffer.concat(pieces.splice(0)));
  gw.script({ kind: 'bytes', headers: { 'Content-Encoding': 'gzip' }, chunks: writes, chunkDelayMs: 5 });
  const rec = recordHooks();
  const r = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, rec.hooks);
  expect(r.text).toBe('Logged 250 ml.');
  expect(rec.tokens).toEqual(['Logged ', '250 ml.']);
});

for (const [encoding, compress] of [
  ['br', zlib.brotliCompressSync],
  ['deflate', zlib.deflateSync],
] as const) {
  it(`a ${encoding} JSON reply is read`, async () => {
    const body = JSON.stringify({
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
    });
    gw.script({
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
      chunks: [compress(body)],
    });
    expect((await callGateway(configFor(gw.url), { messages: userSays('x') })).text).toBe('Hi.');
  });
}

it('a gzip error body still gives its message', async () => {
  gw.script({
    kind: 'bytes',
    status: 401,
    headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    chunks: [zlib.gzipSync('{"error":{"message":"Incorrect API key provided"}}')],
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err).toMatchObject({ kind: 'failed', reason: 'auth' });
  expect(err.message).toBe('gateway HTTP 401: Incorrect API key provided');
});

it('an encoding Klebb cannot read is named, not reported as an unreadable reply', async () => {
  // names of Object's own members are codings like any other unknown one
  for (const encoding of ['zstd', 'constructor', '__proto__']) {
    gw.script({ kind: 'bytes', headers: { 'Content-Encoding': encoding }, chunks: ['(compressed bytes)'] });
    const err = await gatewayFailure(
      callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }),
    );
    expect(err).toMatchObject({ kind: 'parse', reason: 'content_encoding' });
    expect(err.message).toContain(`"${encoding}"`);
  }
});

// A proxy that decompressed the reply but kept the upstream's Content-Encoding header (seen from
// an OpenAI-compatible gateway: https://github.com/agentgateway/agentgateway/issues/1620) sends
// plain text labelled gzip, br or deflate: it is read as the plain text it is.
const REPLY = JSON.stringify({
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Logged 250 ml.' }, finish_reason: 'stop' }],
});
for (const encoding of ['gzip', 'br', 'deflate']) {
  it(`a plain JSON reply labelled Content-Encoding: ${encoding} is read`, async () => {
    gw.script({
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
      chunks: [REPLY],
    });
    const r = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: false });
    expect(r.text).toBe('Logged 250 ml.');
  });
}

it('a plain event stream labelled Content-Encoding: gzip is read as it arrives', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'text/event-stream', 'Content-Encoding': 'gzip' },
    chunks: STREAM.split(/(?<=\n\n)/),
    chunkDelayMs: 5,
  });
  const rec = recordHooks();
  const r = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, rec.hooks);
  expect(r.text).toBe('Logged 250 ml.');
  expect(rec.tokens).toEqual(['Logged ', '250 ml.']);
});
