/**
 * A floor for the chat round-trip figures: a bare node:http child that, per `POST /` with
 * `{marker, n}`, makes `n` sequential chat-completions calls to the gateway, each with a body of
 * about `bodyBytes` (one big system string plus the marker), reads and JSON-parses each reply,
 * and answers 200. No prompt building, no tools, no framework: what two processes and loopback
 * TCP cost per call. With `keepAlive` it reuses one connection; without, it opens a new one per
 * call and sends `Connection: close`, as Klebb's gateway client does.
 */
import path from 'node:path';
import { HttpClient } from './http.js';
import { type Child, freePort, spawnNode, waitForOk } from './proc.js';

const SCRIPT = `
const http = require('node:http');
const target = new URL(process.env.GW);
const keep = process.env.KEEP === '1';
const agent = keep ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : false;
const filler = 'x'.repeat(Number(process.env.BYTES));
function call(marker) {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(JSON.stringify({ model: 'bare', messages: [{ role: 'system', content: filler }, { role: 'user', content: marker }], stream: false }));
    const headers = { 'content-type': 'application/json', 'content-length': body.length };
    if (!keep) headers.connection = 'close';
    const req = http.request({ hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => { try { resolve(JSON.parse(Buffer.concat(parts).toString())); } catch (e) { reject(e); } });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
http.createServer((req, res) => {
  if (req.method !== 'POST') { res.end('ok'); return; }
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', async () => {
    try {
      const { marker, n } = JSON.parse(Buffer.concat(parts).toString());
      for (let i = 0; i < n; i++) await call(marker);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    } catch (e) { res.writeHead(500); res.end(String(e && e.stack || e)); }
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

export interface BareRelay {
  url: string;
  client: HttpClient;
  child: Child;
  stop(): Promise<void>;
}

/** Starts the bare relay child pointed at `gatewayUrl`. */
export async function startBareRelay(
  gatewayUrl: string,
  dir: string,
  opts: { keepAlive: boolean; bodyBytes: number },
): Promise<BareRelay> {
  const port = await freePort();
  const child = spawnNode(['-e', SCRIPT], {
    env: {
      PORT: String(port),
      GW: gatewayUrl,
      KEEP: opts.keepAlive ? '1' : '0',
      BYTES: String(opts.bodyBytes),
    },
    logFile: path.join(dir, `bare-relay-${opts.keepAlive ? 'keepalive' : 'close'}.log`),
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${url}/`, child);
  } catch (err) {
    await child.stop(2_000);
    throw err;
  }
  const client = new HttpClient(url);
  return {
    url,
    client,
    child,
    async stop() {
      client.close();
      await child.stop();
    },
  };
}

const SSE_SCRIPT = `
const http = require('node:http');
const { createParser } = require('eventsource-parser');
const target = new URL(process.env.GW);
http.createServer((req, res) => {
  if (req.method !== 'POST') { res.end('ok'); return; }
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    const { marker } = JSON.parse(Buffer.concat(parts).toString());
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    let id = 0;
    const send = (type, data) => res.write('id: ' + ++id + '\\nevent: ' + type + '\\ndata: ' + JSON.stringify(data) + '\\n\\n');
    const body = Buffer.from(JSON.stringify({ model: 'bare', messages: [{ role: 'user', content: marker }], stream: true }));
    const up = http.request({ hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false,
      headers: { 'content-type': 'application/json', 'content-length': body.length, connection: 'close' } }, (ur) => {
      ur.setEncoding('utf8');
      const parser = createParser({ onEvent(ev) {
        if (ev.data.trim() === '[DONE]') return;
        const c = JSON.parse(ev.data);
        const text = c.choices && c.choices[0] && c.choices[0].delta && c.choices[0].delta.content;
        if (text) send('token', { text });
      } });
      ur.on('data', (s) => parser.feed(s));
      ur.on('end', () => { send('done', {}); res.end(); });
    });
    up.on('error', (e) => { send('error', { error: String(e) }); res.end(); });
    up.end(body);
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

/**
 * A floor for the relay figures: a bare node:http child that, per `POST /` with `{marker}`,
 * streams one chat-completions call from the gateway (a new connection, eventsource-parser) and
 * re-sends each text delta as an SSE `token` event, then `done`. Two hops and two processes like
 * Klebb, nothing else.
 */
export async function startBareSseRelay(gatewayUrl: string, dir: string, cwd: string): Promise<BareRelay> {
  const port = await freePort();
  const child = spawnNode(['-e', SSE_SCRIPT], {
    env: { PORT: String(port), GW: gatewayUrl },
    cwd,
    logFile: path.join(dir, 'bare-sse-relay.log'),
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${url}/`, child);
  } catch (err) {
    await child.stop(2_000);
    throw err;
  }
  const client = new HttpClient(url);
  return {
    url,
    client,
    child,
    async stop() {
      client.close();
      await child.stop();
    },
  };
}
