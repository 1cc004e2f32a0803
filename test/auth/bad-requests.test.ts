/**
 * Requests the HTTP parser refuses answer in the JSON error shape `{error, code}` like every other
 * error: an HTTP/1.1 request without `Host` (what `curl -H 'Host:'`
 * sends) is 400 HOST_REQUIRED, not Node's empty 400; unreadable requests are 400 BAD_REQUEST.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.close();
});

/** Sends `text` on a raw connection and resolves with the status and the body of the answer. */
function raw(text: string): Promise<{ status: number; body: string }> {
  const port = Number(new URL(s.url).port);
  return new Promise((resolve, reject) => {
    let out = '';
    const c = net.connect(port, '127.0.0.1', () => c.write(text));
    c.setEncoding('utf8');
    c.on('data', (d) => (out += d));
    c.on('error', reject);
    c.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0);
      const head = out.slice(0, out.indexOf('\r\n\r\n'));
      let body = out.slice(out.indexOf('\r\n\r\n') + 4);
      if (/transfer-encoding: chunked/i.test(head))
        body = body.replace(/^[0-9a-f]+\r\n|\r\n[0-9a-f]+\r\n\r\n$/gi, '');
      resolve({ status, body });
    });
  });
}

describe('requests the parser refuses', () => {
  it('HTTP/1.1 without Host: 400 {error, code: HOST_REQUIRED}', async () => {
    const r = await raw('GET /api/manifests HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({
      error: 'the Host header is missing (HTTP/1.1 requires it)',
      code: 'HOST_REQUIRED',
    });
    // HTTP/1.0 may leave Host out; with it, the request is answered as usual
    expect((await raw('GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
    expect((await raw('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')).status).toBe(
      200,
    );
  });

  it('an unreadable request: 400 {error, code: BAD_REQUEST}', async () => {
    const r = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({
      error: 'the request could not be read as HTTP',
      code: 'BAD_REQUEST',
    });
  });
});
