/**
 * A body cut short on the HAE route (docs/API.md error codes, `BODY_READ_FAILED`, as every upload
 * that broke off): the client declares more bytes than it sends, then closes its side. While the
 * server can still write, the answer is our error shape `{error, code}`, not Fastify's
 * `{"error":"Bad Request","message":"Client Error","statusCode":400}`.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** Sends headers declaring 1000 bytes, then 9 bytes, then half-closes; resolves with everything read back. */
function cutShort(url: string, token: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port), u.hostname, () => {
      s.write(
        'POST /api/health-auto-export HTTP/1.1\r\nHost: localhost\r\n' +
          `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n` +
          '{"data":{',
        // the end of our side once the first bytes are out
        () => s.end(),
      );
    });
    let out = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      out += d;
    });
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(out));
  });
}

describe('a body cut short on the HAE route', () => {
  it('is answered 400 BODY_READ_FAILED in our error shape, and nothing is ingested', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const text = await cutShort(srv.url, srv.haeToken);
    const [head, body] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(body)).toEqual({
      error:
        'the upload broke off before its body was read (the connection ended before the body reached its Content-Length); nothing of it was kept, send it again',
      code: 'BODY_READ_FAILED',
    });
    const status = await srv.api('/api/health-auto-export/status');
    expect(status.body.lastPush).toBeNull();
    expect(await srv.rows('steps')).toEqual([]);
  });
});
