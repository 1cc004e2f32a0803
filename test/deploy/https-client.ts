/**
 * An HTTPS client for the tests behind nginx: connects to 127.0.0.1 while naming the test host
 * (SNI and Host), trusts the test's own certificate, and can leave from another loopback address
 * (127.0.0.5, ...) so that nginx sees a visitor that is not itself.
 */
import https from 'node:https';
import { createParser } from 'eventsource-parser';
import type { TestNginx } from './nginx-harness.js';
import { TEST_HOST } from './nginx-harness.js';

/** One answer read whole. */
export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON fields
  body: any;
  /** The protocol nginx answered with (ALPN), e.g. "http/1.1". */
  alpn: string | false;
}

/** Request options: `sub` picks `<sub>.klebb.test`; `from` the local address to leave from. */
export interface HttpsInit {
  method?: string;
  json?: unknown;
  body?: Buffer | string;
  headers?: Record<string, string>;
  token?: string;
  sub?: string;
  from?: string;
}

function hostOf(sub?: string): string {
  return sub ? `${sub}.${TEST_HOST}` : TEST_HOST;
}

function open(
  ngx: TestNginx,
  p: string,
  init: HttpsInit,
  onResponse: (res: import('node:http').IncomingMessage) => void,
) {
  const host = hostOf(init.sub);
  const headers: Record<string, string> = { host: `${host}:${ngx.httpsPort}`, ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] = 'application/json';
  }
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const req = https.request(
    {
      host: '127.0.0.1',
      port: ngx.httpsPort,
      servername: host,
      localAddress: init.from,
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      path: p,
      headers,
      ca: ngx.cert.pem,
      agent: false,
    },
    onResponse,
  );
  return { req, body };
}

/** One request through nginx, read whole. */
export function httpsRequest(ngx: TestNginx, p: string, init: HttpsInit = {}): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const { req, body } = open(ngx, p, init, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        const socket = res.socket as import('node:tls').TLSSocket;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          body: parsed,
          alpn: socket.alpnProtocol ?? false,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One server-sent event with the moment it arrived (performance.now(), ms). */
export interface TimedEvent {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary event payloads
  data: any;
  at: number;
}

/** Posts through nginx and collects the event stream, stamping each event on arrival. */
export function httpsSse(
  ngx: TestNginx,
  p: string,
  init: HttpsInit = {},
): Promise<{ status: number; events: TimedEvent[] }> {
  return new Promise((resolve, reject) => {
    const events: TimedEvent[] = [];
    const parser = createParser({
      onEvent: (e) =>
        events.push({ event: e.event ?? 'message', data: JSON.parse(e.data), at: performance.now() }),
    });
    const { req, body } = open(ngx, p, init, (res) => {
      res.setEncoding('utf8');
      res.on('data', (d: string) => parser.feed(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, events }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
