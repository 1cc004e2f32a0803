// Servers and proxies in front of models send HTTP framing that a strict parser refuses although
// the reply is plain to read (and, what cannot be read, is said to be unreadable rather than
// unreachable): an Azure OpenAI proxy re-chunking a stream and keeping the
// Content-Length beside Transfer-Encoding: chunked, small servers writing bare LF line ends,
// spaces after a chunk size. Each reply is shown, not reported as an unreachable service.
// Bytes are written to the socket as given: the stand-in below is a raw TCP server speaking
// exactly these bytes.
import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from './support.js';

let server: net.Server | undefined;
let requests = 0;
afterEach(() => server?.close());

/** A TCP server answering each request (read through its body) with `response`, then closing. */
async function rawGateway(response: string): Promise<string> {
  requests = 0;
  server = net.createServer((socket) => {
    let seen = '';
    socket.on('data', (d) => {
      seen += d.toString('latin1');
      const headEnd = seen.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(seen.slice(0, headEnd))?.[1] ?? 0);
      if (Buffer.byteLength(seen, 'latin1') < headEnd + 4 + length) return;
      requests++;
      seen = '';
      socket.end(response);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return `http://127.0.0.1:${port}/v1/chat/completions`;
}

const reply = JSON.stringify({
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Logged 250 ml.' }, finish_reason: 'stop' }],
});
const events = [
  { choices: [{ index: 0, delta: { content: 'Logged ' }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { content: '250 ml.' }, finish_reason: 'stop' }] },
]
  .map((e) => `data: ${JSON.stringify(e)}\n\n`)
  .join('')
  .concat('data: [DONE]\n\n');
const chunked = (body: string, sizeSuffix = '') =>
  `${Buffer.byteLength(body).toString(16)}${sizeSuffix}\r\n${body}\r\n0\r\n\r\n`;

const answers: Array<[string, boolean, string]> = [
  [
    'a stream with both Content-Length and Transfer-Encoding: chunked',
    true,
    `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: ${Buffer.byteLength(events)}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(events)}`,
  ],
  [
    'a JSON reply with both Content-Length and Transfer-Encoding: chunked',
    false,
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(reply)}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(reply)}`,
  ],
  [
    'a head with bare LF line ends',
    false,
    `HTTP/1.1 200 OK\nContent-Type: application/json\nConnection: close\n\n${reply}`,
  ],
  [
    'a chunk size followed by spaces',
    false,
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(reply, '  ')}`,
  ],
];

for (const [what, stream, bytes] of answers) {
  it(`${what}: the reply is shown`, async () => {
    const url = await rawGateway(bytes);
    const result = await callGateway(configFor(url), { messages: userSays('water'), stream });
    expect(result.text).toBe('Logged 250 ml.');
  });
}

it('stray bytes after a body whose Content-Length was met, in the same read: the reply is shown', async () => {
  const url = await rawGateway(
    `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(reply)}\r\n\r\n${reply}xyz`,
  );
  const result = await callGateway(configFor(url), { messages: userSays('water'), stream: false });
  expect(result.text).toBe('Logged 250 ml.');
});

it('a head that is not HTTP even read leniently: unreadable, said at once, not asked again', async () => {
  const url = await rawGateway(`HTTP/1.1 200 OK\r\nContent-Type : application/json\r\n\r\n${reply}`);
  const err = await gatewayFailure(
    callGateway(configFor(url, { maxRetries: 2, retryBaseDelayMs: 1 }), { messages: userSays('water') }),
  );
  expect(err).toMatchObject({ kind: 'parse', reason: 'bad_http', retryable: false });
  expect(failureCopy(err).error).toBe(
    'The model sent back a reply that could not be read. Please try again.',
  );
  expect(requests).toBe(1);
});
