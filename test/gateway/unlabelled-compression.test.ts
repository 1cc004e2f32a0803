// Relays behind a CDN (one-api/new-api behind Cloudflare and Fastly) send a reply compressed but
// strip its Content-Encoding, so the body is labelled JSON and is gzip's bytes: every such reply
// was "a reply that could not be read". The first bytes tell (gzip's and zstd's magic numbers
// start no JSON document or event stream), and the body is read decompressed.
import zlib from 'node:zlib';
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';
import { choiceEvent, DONE, scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const REPLY = JSON.stringify({
  id: 'c',
  object: 'chat.completion',
  model: 'm',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Logged 250 ml.' } }],
});

it('a JSON reply in gzip with no Content-Encoding is read', async () => {
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'application/json' },
    chunks: [zlib.gzipSync(REPLY)],
  });
  expect((await callGateway(configFor(gw.url), { messages: userSays('x') })).text).toBe('Logged 250 ml.');
});

it('an event stream in gzip with no Content-Encoding, flushed event by event, is read as it arrives', async () => {
  const gzip = zlib.createGzip();
  const out: Buffer[] = [];
  gzip.on('data', (b: Buffer) => out.push(b));
  const writes: Buffer[] = [];
  for (const event of [
    choiceEvent({ delta: { content: 'Logged ' } }),
    choiceEvent({ delta: { content: '250 ml.' } }),
    choiceEvent({ delta: {}, finish_reason: 'stop' }),
    DONE,
  ]) {
    await new Promise<void>((resolve) => gzip.write(event, () => gzip.flush(() => resolve())));
    writes.push(Buffer.concat(out.splice(0)));
  }
  await new Promise<void>((resolve) => gzip.end(resolve));
  writes.push(Buffer.concat(out.splice(0)));
  gw.script({
    kind: 'bytes',
    headers: { 'Content-Type': 'text/event-stream' },
    chunks: writes,
    chunkDelayMs: 5,
  });
  const rec = recordHooks();
  const result = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }, rec.hooks);
  expect(result.text).toBe('Logged 250 ml.');
  expect(rec.tokens).toEqual(['Logged ', '250 ml.']);
});

it("an error body in gzip with no Content-Encoding gives the provider's message", async () => {
  gw.script({
    kind: 'bytes',
    status: 401,
    headers: { 'Content-Type': 'application/json' },
    chunks: [
      zlib.gzipSync(
        JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
      ),
    ],
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err.reason).toBe('auth');
  expect(err.message).toMatch(/Incorrect API key provided/);
});

it('a reply in zstd with no Content-Encoding is named as zstd when the runtime cannot read it', async () => {
  const zstd = (zlib as { zstdCompressSync?: (b: string) => Buffer }).zstdCompressSync;
  const bytes = zstd ? zstd(REPLY) : Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x11, 0x89, 0x00]);
  gw.script({ kind: 'bytes', headers: { 'Content-Type': 'application/json' }, chunks: [bytes] });
  if (zstd) {
    expect((await callGateway(configFor(gw.url), { messages: userSays('x') })).text).toBe('Logged 250 ml.');
    return;
  }
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err.message).toMatch(/zstd/);
});
