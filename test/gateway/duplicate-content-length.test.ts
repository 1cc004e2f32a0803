// A Content-Length said more than once: proxies that copy the upstream's headers and add their
// own send it twice, or folded into one field (`Content-Length: 120, 120`). Identical values are
// one length and the reply is read; values that disagree are read leniently, on to the reply's
// end, as a length that counted characters is. Never "a reply that could not be read" when the
// reply itself is whole. The stand-in is a raw TCP server writing exactly these bytes.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let server: net.Server | undefined;
afterEach(() => server?.close());

/** A TCP server answering the request with `parts`, 30 ms apart, then closing unless `keepOpen`. */
async function rawGateway(parts: string[], keepOpen = false): Promise<string> {
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
        socket.write(Buffer.from(part, 'utf8'));
        await new Promise((r) => setTimeout(r, 30));
      }
      if (!keepOpen) socket.end();
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return `http://127.0.0.1:${port}/v1/chat/completions`;
}

const ANSWER = 'Logged 250 ml of water – 1,75 l today 💧';
const reply = JSON.stringify({
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
});
const bytes = Buffer.byteLength(reply);
const events = [
  { choices: [{ index: 0, delta: { content: 'Logged 250 ml of water' }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { content: ' – 1,75 l today 💧' }, finish_reason: 'stop' }] },
]
  .map((e) => `data: ${JSON.stringify(e)}\n\n`)
  .join('')
  .concat('data: [DONE]\n\n');
const head = (type: string, ...lengthLines: string[]) =>
  `HTTP/1.1 200 OK\r\nContent-Type: ${type}\r\n${lengthLines.map((l) => `${l}\r\n`).join('')}\r\n`;
const json = 'application/json';

const readable: Array<[string, string[], boolean]> = [
  [
    'the same Content-Length twice',
    [head(json, `Content-Length: ${bytes}`, `Content-Length: ${bytes}`) + reply],
    false,
  ],
  [
    'the same length folded into one field',
    [head(json, `Content-Length: ${bytes}, ${bytes}`) + reply],
    false,
  ],
  [
    'a stream with the same Content-Length twice',
    [
      head(
        'text/event-stream',
        `Content-Length: ${Buffer.byteLength(events)}`,
        `content-length: ${Buffer.byteLength(events)}`,
      ) + events,
    ],
    true,
  ],
  [
    'two lengths that disagree, the other one counting characters',
    [head(json, `Content-Length: ${reply.length}`, `Content-Length: ${bytes}`) + reply],
    false,
  ],
  [
    'two lengths that disagree, the other one too long',
    [head(json, `Content-Length: ${bytes + 40}`, `Content-Length: ${bytes}`) + reply],
    false,
  ],
  [
    'two lengths beside Transfer-Encoding: chunked',
    [
      `${head(json, `Content-Length: ${bytes}`, `Content-Length: ${bytes}`, 'Transfer-Encoding: chunked')}${bytes.toString(16)}\r\n${reply}\r\n0\r\n\r\n`,
    ],
    false,
  ],
  [
    'the two lengths in separate writes with the body',
    [
      `HTTP/1.1 200 OK\r\nContent-Type: ${json}\r\nContent-Length: ${bytes}\r\n`,
      `Content-Length: ${bytes}\r\n\r\n`,
      reply,
    ],
    false,
  ],
];

for (const [what, parts, stream] of readable) {
  it(`${what}: the reply is shown whole`, async () => {
    const url = await rawGateway(parts);
    const heard = recordHooks();
    const result = await callGateway(configFor(url), { messages: userSays('water'), stream }, heard.hooks);
    expect(result.text).toBe(ANSWER);
    if (stream) expect(heard.tokens.join('')).toBe(ANSWER);
  });
}

it('the same Content-Length twice on a connection held open: shown at once', async () => {
  const url = await rawGateway(
    [head(json, `Content-Length: ${bytes}`, `Content-Length: ${bytes}`) + reply],
    true,
  );
  const started = Date.now();
  const result = await callGateway(configFor(url, { callTimeoutMs: 5_000 }), {
    messages: userSays('water'),
    stream: false,
  });
  expect(result.text).toBe(ANSWER);
  expect(Date.now() - started).toBeLessThan(2_000);
});

it('two lengths that disagree, the reply really cut off: said to be cut off, asked again', async () => {
  const url = await rawGateway([
    head(json, `Content-Length: ${bytes + 10}`, `Content-Length: ${bytes + 20}`) + reply.slice(0, 60),
  ]);
  const err = await gatewayFailure(
    callGateway(configFor(url), { messages: userSays('water'), stream: false }),
  );
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'truncated', retryable: true });
  expect(failureCopy(err).error).toBe(
    "The model's reply was cut off before it was complete. Please try again.",
  );
});

// On a connection the server holds open after its reply, lengths that disagree never tell where
// the body ends: the reply is taken as soon as it is whole, and one that stops short is said to
// be cut off at once, never after the whole call's timeout.
describe('two lengths that disagree on a connection held open', () => {
  const patient = { callTimeoutMs: 8_000, idleTimeoutMs: 8_000 };
  const cutEvents = events.slice(0, events.indexOf('data:', 10));
  const held: Array<[string, string, boolean]> = [
    [
      'the other one counting characters',
      head(json, `Content-Length: ${reply.length}`, `Content-Length: ${bytes}`) + reply,
      false,
    ],
    [
      'both too long',
      head(json, `Content-Length: ${bytes + 10}`, `Content-Length: ${bytes + 20}`) + reply,
      false,
    ],
    [
      'a stream, the other one counting characters',
      head(
        'text/event-stream',
        `Content-Length: ${events.length}`,
        `Content-Length: ${Buffer.byteLength(events)}`,
      ) + events,
      true,
    ],
  ];
  for (const [what, bytesOut, stream] of held) {
    it(`${what}: shown at once`, async () => {
      const url = await rawGateway([bytesOut], true);
      const started = Date.now();
      const result = await callGateway(configFor(url, patient), { messages: userSays('water'), stream });
      expect(result.text).toBe(ANSWER);
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  }

  const cut: Array<[string, string, boolean]> = [
    [
      'a JSON reply',
      head(json, `Content-Length: ${bytes + 10}`, `Content-Length: ${bytes + 20}`) + reply.slice(0, 60),
      false,
    ],
    [
      'a JSON reply past the shorter length',
      head(json, `Content-Length: 40`, `Content-Length: ${bytes}`) + reply.slice(0, 60),
      false,
    ],
    [
      'a stream',
      head(
        'text/event-stream',
        `Content-Length: ${Buffer.byteLength(events)}`,
        `Content-Length: ${Buffer.byteLength(events) + 5}`,
      ) + cutEvents,
      true,
    ],
  ];
  for (const [what, bytesOut, stream] of cut) {
    it(`${what} cut off: said to be cut off at once`, async () => {
      const url = await rawGateway([bytesOut], true);
      const started = Date.now();
      const err = await gatewayFailure(
        callGateway(configFor(url, patient), { messages: userSays('water'), stream }),
      );
      expect(err).toMatchObject({ kind: 'unavailable', reason: 'truncated', retryable: true });
      expect(failureCopy(err).error).toBe(
        "The model's reply was cut off before it was complete. Please try again.",
      );
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  }
});
