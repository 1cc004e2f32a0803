// A Content-Length that does not match the body's bytes: proxies that measure a UTF-8 body as a
// JavaScript string declare its characters, so every character outside ASCII makes the length
// short (or, cut or re-encoded on the way, the body is shorter than declared). A reply whose JSON
// or stream is whole is shown whole, never cut mid-character; a reply that really is cut off is
// said to be cut off. The stand-in is a raw TCP server writing exactly these bytes.
import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let server: net.Server | undefined;
afterEach(() => server?.close());

/** A TCP server answering the request with `parts`, `gapMs` apart, then closing unless `keepOpen`. */
async function rawGateway(parts: Buffer[], gapMs = 0, keepOpen = false): Promise<string> {
  server = net.createServer((socket) => {
    let seen = '';
    socket.on('data', async (d) => {
      seen += d.toString('latin1');
      const headEnd = seen.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(seen.slice(0, headEnd))?.[1] ?? 0);
      if (Buffer.byteLength(seen, 'latin1') < headEnd + 4 + length) return;
      seen = '';
      for (const part of parts) {
        if (socket.destroyed) return;
        socket.write(part);
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
      if (!keepOpen) socket.end();
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return `http://127.0.0.1:${port}/v1/chat/completions`;
}

const ANSWER =
  'Puls 62 – Schlaf 7 h 40 min 😴, Wasser 1,5 l 💧 — gut gemacht, weiter so: Ünïcödé 水水水水水水水水水水';
const reply = JSON.stringify({
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
});
const events = [ANSWER.slice(0, 20), ANSWER.slice(20, 60), ANSWER.slice(60)]
  .map((piece, i) => ({
    choices: [{ index: 0, delta: { content: piece }, finish_reason: i === 2 ? 'stop' : null }],
  }))
  .map((e) => `data: ${JSON.stringify(e)}\n\n`)
  .join('')
  .concat('data: [DONE]\n\n');
const head = (type: string, length: number) =>
  `HTTP/1.1 200 OK\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;
const json = 'application/json';
const sse = 'text/event-stream';

for (const [what, type, body, stream] of [
  ['a JSON reply', json, reply, false],
  ['a stream', sse, events, true],
] as const) {
  it(`${what} whose Content-Length counts characters, in one write: shown whole`, async () => {
    const url = await rawGateway([Buffer.from(head(type, body.length) + body)]);
    const heard = recordHooks();
    const result = await callGateway(configFor(url), { messages: userSays('heute?'), stream }, heard.hooks);
    expect(result.text).toBe(ANSWER);
    if (stream) expect(heard.tokens.join('')).toBe(ANSWER);
  });

  it(`${what} whose Content-Length counts characters, the rest arriving later: shown whole`, async () => {
    const bytes = Buffer.from(head(type, body.length) + body);
    const declaredEnd = bytes.length - (Buffer.byteLength(body) - body.length);
    const url = await rawGateway([bytes.subarray(0, declaredEnd), bytes.subarray(declaredEnd)], 40);
    const result = await callGateway(configFor(url), { messages: userSays('heute?'), stream });
    expect(result.text).toBe(ANSWER);
  });

  it(`${what} with a correct Content-Length on a connection held open: shown at once`, async () => {
    const url = await rawGateway([Buffer.from(head(type, Buffer.byteLength(body)) + body)], 0, true);
    const started = Date.now();
    const cfg = configFor(url, { callTimeoutMs: 5_000, idleTimeoutMs: 5_000 });
    const result = await callGateway(cfg, { messages: userSays('heute?'), stream });
    expect(result.text).toBe(ANSWER);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
}

it('a JSON reply really cut off (Content-Length counting characters, the body shorter still): said to be cut off', async () => {
  const cut = Buffer.from(reply).subarray(0, reply.length - 30);
  const url = await rawGateway([Buffer.from(head(json, reply.length)), cut]);
  const err = await gatewayFailure(
    callGateway(configFor(url), { messages: userSays('heute?'), stream: false }),
  );
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'truncated', retryable: true });
  expect(err.message).toMatch(/cut off/);
  expect(failureCopy(err).error).toBe(
    "The model's reply was cut off before it was complete. Please try again.",
  );
});

it('a JSON reply cut off although more bytes than declared came: said to be cut off, asked again', async () => {
  // the server wrote past its (character-counted) length, then stopped inside the JSON
  const cut = Buffer.from(reply).subarray(0, reply.length + 5);
  const url = await rawGateway([Buffer.from(head(json, reply.length)), cut]);
  const err = await gatewayFailure(
    callGateway(configFor(url), { messages: userSays('heute?'), stream: false }),
  );
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'truncated', retryable: true });
});

// A Content-Length longer than the body, on a connection the server (or a proxy keeping its
// upstream connection alive) holds open: the body never reaches its declared length, and the
// reply must not wait for the call's timeout once it is one whole JSON document.
for (const [what, stream] of [
  ['a JSON reply', false],
  ['a JSON reply to a streamed request', true],
] as const) {
  it(`${what} with a Content-Length longer than its body, on a connection held open: shown at once`, async () => {
    const url = await rawGateway([Buffer.from(head(json, Buffer.byteLength(reply) + 12) + reply)], 0, true);
    const started = Date.now();
    const cfg = configFor(url, { callTimeoutMs: 8_000, idleTimeoutMs: 8_000 });
    const result = await callGateway(cfg, { messages: userSays('heute?'), stream });
    expect(result.text).toBe(ANSWER);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
}

it('an error with a Content-Length longer than its body, on a connection held open: told at once', async () => {
  const body = JSON.stringify({
    error: { message: 'Invalid API key', type: 'invalid_request_error', code: 'invalid_api_key' },
  });
  const url = await rawGateway(
    [
      Buffer.from(
        `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 12}\r\n\r\n${body}`,
      ),
    ],
    0,
    true,
  );
  const started = Date.now();
  const err = await gatewayFailure(
    callGateway(configFor(url, { callTimeoutMs: 8_000 }), { messages: userSays('heute?'), stream: false }),
  );
  expect(err).toMatchObject({ kind: 'failed', reason: 'auth', upstreamStatus: 401 });
  expect(Date.now() - started).toBeLessThan(3_000);
});
