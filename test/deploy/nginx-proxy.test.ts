/**
 * Klebb behind the repository's own nginx configuration (deploy/nginx/klebb.conf) run by Debian's
 * nginx with a certificate made here: HTTPS with HTTP/2, plain HTTP redirected, chat events passed
 * on as they leave Klebb (not held until the turn ends), the visitor's own address in Klebb's
 * auth log and per-address sign-in limit (KLEBB_TRUSTED_PROXIES), nginx's own limit on the
 * sign-in routes, the phone's address as the browser reached it, a Health Auto Export sized body
 * accepted, an unknown host refused.
 */
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { httpsRequest, httpsSse } from './https-client.js';
import { startNginx, TEST_HOST, type TestNginx } from './nginx-harness.js';

let gw: ScriptedGateway;
let s: TestServer;
let ngx: TestNginx;
const TOKEN = 'proxy-test-token-0123456789';

/** When each event left Klebb (performance.now()), in order: recorded at the server's socket write. */
const leftKlebb: { event: string; at: number }[] = [];
const originalWrite = http.ServerResponse.prototype.write;

beforeAll(async () => {
  // Stamp every event-stream write of this process's servers (Klebb is in process; nginx is not).
  http.ServerResponse.prototype.write = function (
    this: http.ServerResponse,
    chunk: unknown,
    ...rest: unknown[]
  ) {
    if (typeof chunk === 'string') {
      for (const m of chunk.matchAll(/^event: (\S+)$/gm))
        leftKlebb.push({ event: m[1] ?? '', at: performance.now() });
    }
    // biome-ignore lint/suspicious/noExplicitAny: forwarding the original overloads unchanged
    return (originalWrite as any).call(this, chunk, ...rest);
  } as typeof originalWrite;
  gw = await startScriptedGateway();
  s = await startServer({
    env: {
      CHAT_ENDPOINT_URL: gw.url,
      CHAT_API_KEY: 'sk-test',
      CHAT_MODEL: 'test-model',
      AGENT_API_TOKEN: TOKEN,
      KLEBB_TRUSTED_PROXIES: '127.0.0.1',
      KLEBB_AUTH_RATE_LIMIT: '3',
      KLEBB_AUTH_FAILURE_LIMIT: '0',
    },
  });
  const port = new URL(s.url).port;
  ngx = await startNginx({ mapLines: [`${TEST_HOST} 127.0.0.1:${port};`] });
});

afterAll(async () => {
  http.ServerResponse.prototype.write = originalWrite;
  await ngx?.close();
  await s?.close();
  await gw?.close();
});

describe('nginx in front of Klebb', () => {
  it('serves the app over HTTPS with HTTP/2 and redirects plain HTTP to HTTPS', async () => {
    const session = http2.connect(ngx.origin(), {
      ca: ngx.cert.pem,
      host: '127.0.0.1',
      servername: TEST_HOST,
    });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = session.request({
          ':path': '/api/instance',
          ':authority': `${TEST_HOST}:${ngx.httpsPort}`,
          authorization: `Bearer ${TOKEN}`,
        });
        req.on('response', (h) => resolve(Number(h[':status'])));
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(200);
      expect(session.alpnProtocol).toBe('h2');
    } finally {
      session.close();
    }
    const plain = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(
          { host: '127.0.0.1', port: ngx.httpPort, path: '/today?x=1', headers: { host: TEST_HOST } },
          resolve,
        )
        .on('error', reject);
    });
    plain.resume();
    expect(plain.statusCode).toBe(301);
    expect(plain.headers.location).toBe(`https://${TEST_HOST}/today?x=1`);
  });

  it('passes each chat event on as it leaves Klebb, not when the turn ends', async () => {
    const words = ['Your', 'weight', 'looks', 'steady', 'this', 'week.'];
    gw.script({ kind: 'reply', chunks: words.map((w, i) => (i ? ` ${w}` : w)), chunkDelayMs: 300 });
    leftKlebb.length = 0;
    const r = await httpsSse(ngx, '/api/chat', {
      token: TOKEN,
      json: { stream: true, messages: [{ role: 'user', content: 'how is my weight?' }] },
    });
    expect(r.status).toBe(200);
    const received = r.events.filter((e) => e.event === 'token');
    const sent = leftKlebb.filter((e) => e.event === 'token');
    expect(received.length).toBe(words.length);
    expect(sent.length).toBe(words.length);
    const lags = received.map((e, i) => e.at - (sent[i]?.at ?? 0));
    // each delta reached the client before Klebb sent the next one (300 ms later): nothing was held
    for (let i = 0; i + 1 < sent.length; i++) expect(received[i]?.at).toBeLessThan(sent[i + 1]?.at ?? 0);
    const sorted = [...lags].sort((a, b) => a - b);
    expect(
      sorted[Math.floor(sorted.length / 2)],
      `lags through nginx: ${lags.map((l) => l.toFixed(1)).join(', ')} ms`,
    ).toBeLessThan(100);
  });

  it("logs and limits sign-ins by the visitor's own address, not nginx's", async () => {
    // Klebb's own limit (3 a minute here) counts per visitor: 127.0.0.5 runs out, 127.0.0.6 does not
    const from5: number[] = [];
    for (let i = 0; i < 4; i++)
      from5.push(
        (await httpsRequest(ngx, '/auth/login/options', { method: 'POST', from: '127.0.0.5' })).status,
      );
    expect(from5.slice(0, 3)).not.toContain(429);
    const limited = await httpsRequest(ngx, '/auth/login/options', { method: 'POST', from: '127.0.0.5' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.headers['x-ratelimit-limit'], "the 429 is Klebb's own, not nginx's").toBe('3');
    const other = await httpsRequest(ngx, '/auth/login/options', { method: 'POST', from: '127.0.0.6' });
    expect(other.status).not.toBe(429);
    // a refused registration is recorded with the visitor's address
    const refused = await httpsRequest(ngx, '/auth/register/options', {
      json: { code: 'not-the-setup-code' },
      from: '127.0.0.7',
    });
    expect(refused.status).toBe(403);
    const log = fs.readFileSync(path.join(s.home, 'sessions', 'auth-events.log'), 'utf8');
    expect(log).toContain('127.0.0.7');
  });

  it("applies nginx's own limit to the sign-in routes only", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        httpsRequest(ngx, '/auth/status', { from: '127.0.0.8' }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((st) => st === 429).length).toBeGreaterThan(0);
    const refused = await httpsRequest(ngx, '/auth/status', { from: '127.0.0.8' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.headers['retry-after']).toBe('60');
    const api = await Promise.all(
      Array.from({ length: 20 }, () =>
        httpsRequest(ngx, '/api/instance', { from: '127.0.0.8', token: TOKEN }).then((r) => r.status),
      ),
    );
    expect(api.every((st) => st === 200)).toBe(true);
  });

  it("names the phone's address as the browser reached it, port included", async () => {
    // nginx listens on a port other than 443 here; its `Host $host` drops it, X-Forwarded-Port keeps it
    const r = await httpsRequest(ngx, '/api/health-auto-export/status', { token: TOKEN });
    expect(r.status).toBe(200);
    expect(r.body.endpointUrl).toBe(`https://${TEST_HOST}:${ngx.httpsPort}/api/health-auto-export`);
  });

  it('accepts a Health Auto Export sized body and refuses a host it does not serve', async () => {
    // 8 MiB (nginx's default stops at 1 MiB): Klebb itself answers, a body of blanks is not a card
    const big = Buffer.alloc(8 * 1024 * 1024, 0x20);
    const r = await httpsRequest(ngx, '/api/manifests', {
      token: TOKEN,
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toHaveProperty('code');
    // past the limit the answer is a 413 in Klebb's error shape, not a proxy error
    const huge = Buffer.alloc(11 * 1024 * 1024, 0x20);
    const over = await httpsRequest(ngx, '/api/manifests', {
      token: TOKEN,
      method: 'POST',
      body: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect(over.status, ngx.errorLog()).toBe(413);
    expect(over.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    // a Health Auto Export push may be far larger than a card write (no token configured: 501 from Klebb)
    const push = await httpsRequest(ngx, '/api/health-auto-export', {
      method: 'POST',
      body: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect([401, 501]).toContain(push.status);
    const unknown = await httpsRequest(ngx, '/api/instance', { sub: 'stranger' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toBeUndefined();
  });
});
