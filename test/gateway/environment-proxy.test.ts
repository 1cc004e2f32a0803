// A server that may reach the internet only through a proxy has it named in HTTPS_PROXY /
// HTTP_PROXY (and hosts to reach directly in NO_PROXY), as curl, Python's clients and most tools
// read them. Node's HTTP client ignores these variables, so every request to a hosted model went
// straight out, was dropped by the firewall, and the person read that the chat service was
// unavailable. The stand-in proxy here is the only way to the model: its host name is one only
// the proxy knows.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from './support.js';

const MODEL_HOST = 'model.behind-proxy.test';
const servers: net.Server[] = [];
const sockets = new Set<{ destroy(): void }>();
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
});

async function listen<S extends net.Server>(server: S): Promise<number> {
  servers.push(server);
  server.on('connection', (socket: net.Socket) => sockets.add(socket));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function selfSigned(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'klebb-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'k.pem',
        '-out',
        'c.pem',
        '-days',
        '1',
        '-subj',
        `/CN=${MODEL_HOST}`,
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    return {
      key: readFileSync(path.join(dir, 'k.pem'), 'utf8'),
      cert: readFileSync(path.join(dir, 'c.pem'), 'utf8'),
    };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const tls = selfSigned();

const answer = JSON.stringify({
  id: 'c',
  object: 'chat.completion',
  model: 'm',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'via the proxy' } }],
});

/** The model: records what reached it and answers. */
function modelHandler(seen: Array<{ auth?: string; host?: string }>) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push({ auth: req.headers.authorization, host: req.headers.host });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(answer);
    });
  };
}

interface ProxyLog {
  connects: string[];
  forwarded: string[];
  proxyAuth: Array<string | undefined>;
}

/** A proxy that knows MODEL_HOST as 127.0.0.1:modelPort and nothing else; `status` answers CONNECT otherwise. */
async function startProxy(modelPort: number, status = 200): Promise<{ port: number; log: ProxyLog }> {
  const log: ProxyLog = { connects: [], forwarded: [], proxyAuth: [] };
  const proxy = http.createServer((req, res) => {
    log.forwarded.push(req.url ?? '');
    log.proxyAuth.push(req.headers['proxy-authorization']);
    const target = new URL(req.url ?? '');
    if (target.hostname !== MODEL_HOST) {
      res.writeHead(502).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const out = http.request(
      { host: '127.0.0.1', port: modelPort, path: target.pathname, method: req.method, headers },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      },
    );
    req.pipe(out);
  });
  proxy.on('connect', (req, socket, head) => {
    log.connects.push(req.url ?? '');
    log.proxyAuth.push(req.headers['proxy-authorization']);
    if (status !== 200 || !(req.url ?? '').startsWith(`${MODEL_HOST}:`)) {
      socket.end(`HTTP/1.1 ${status === 200 ? 502 : status} No\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.add(socket);
    const upstream = net.connect(modelPort, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return { port: await listen(proxy), log };
}

it('an http:// endpoint is asked through HTTP_PROXY, the target written in full', async () => {
  const seen: Array<{ auth?: string; host?: string }> = [];
  const modelPort = await listen(http.createServer(modelHandler(seen)));
  const { port, log } = await startProxy(modelPort);
  vi.stubEnv('HTTP_PROXY', `http://127.0.0.1:${port}`);
  const result = await callGateway(configFor(`http://${MODEL_HOST}:${modelPort}/v1/chat/completions`), {
    messages: userSays('hi'),
  });
  expect(result.text).toBe('via the proxy');
  expect(log.forwarded).toEqual([`http://${MODEL_HOST}:${modelPort}/v1/chat/completions`]);
  expect(seen).toEqual([{ auth: 'Bearer sk-test', host: `${MODEL_HOST}:${modelPort}` }]);
});

it.skipIf(!tls)(
  'an https:// endpoint is reached through a tunnel HTTPS_PROXY opens, with the credentials written in it',
  async () => {
    const seen: Array<{ auth?: string; host?: string }> = [];
    const modelPort = await listen(https.createServer(tls ?? {}, modelHandler(seen)));
    const { port, log } = await startProxy(modelPort);
    vi.stubEnv('https_proxy', `http://proxy%20user:s%40cret@127.0.0.1:${port}`);
    for (const stream of [false, true]) {
      const result = await callGateway(configFor(`https://${MODEL_HOST}:${modelPort}/v1/chat/completions`), {
        messages: userSays('hi'),
        stream,
      });
      expect(result.text).toBe('via the proxy');
    }
    expect(log.connects).toEqual([`${MODEL_HOST}:${modelPort}`, `${MODEL_HOST}:${modelPort}`]);
    expect(log.proxyAuth[0]).toBe(`Basic ${Buffer.from('proxy user:s@cret').toString('base64')}`);
    expect(seen[0]).toEqual({ auth: 'Bearer sk-test', host: `${MODEL_HOST}:${modelPort}` });
  },
);

it('a host NO_PROXY names, and a model on this machine, are reached directly', async () => {
  const seen: Array<{ auth?: string; host?: string }> = [];
  const modelPort = await listen(http.createServer(modelHandler(seen)));
  const { port, log } = await startProxy(modelPort);
  vi.stubEnv('HTTP_PROXY', `http://127.0.0.1:${port}`);
  vi.stubEnv('NO_PROXY', 'intranet.example, .behind-proxy.test');
  const err = await gatewayFailure(
    callGateway(configFor(`http://${MODEL_HOST}:${modelPort}/v1/chat/completions`), {
      messages: userSays('hi'),
    }),
  );
  expect(err.reason, 'asked directly, so the name only the proxy knows is unknown').toBe('dns');
  vi.stubEnv('NO_PROXY', '');
  const local = await callGateway(configFor(`http://localhost:${modelPort}/v1/chat/completions`), {
    messages: userSays('hi'),
  });
  expect(local.text).toBe('via the proxy');
  expect(log.forwarded).toEqual([]);
});

it('a proxy that wants credentials is told as that, naming the variable, and not asked again', async () => {
  const { port, log } = await startProxy(1, 407);
  vi.stubEnv('HTTPS_PROXY', `127.0.0.1:${port}`);
  const err = await gatewayFailure(
    callGateway(
      configFor(`https://${MODEL_HOST}/v1/chat/completions`, { maxRetries: 2, retryBaseDelayMs: 1 }),
      { messages: userSays('hi') },
    ),
  );
  expect(log.connects).toHaveLength(1);
  const copy = failureCopy(err).error;
  expect(copy).toMatch(/proxy/);
  expect(copy).toMatch(/HTTPS_PROXY/);
  expect(copy).toMatch(/user and password/);
});

it('a proxy of a kind Klebb cannot use is refused naming the variable, not gone around', async () => {
  vi.stubEnv('HTTPS_PROXY', 'socks5://127.0.0.1:1080');
  const err = await gatewayFailure(
    callGateway(configFor(`https://${MODEL_HOST}/v1/chat/completions`), { messages: userSays('hi') }),
  );
  expect(failureCopy(err).error).toMatch(/HTTPS_PROXY \(socks5:\/\/127\.0\.0\.1:1080\)/);
});
