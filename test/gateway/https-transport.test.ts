// The URL scheme picks the transport; TLS verification is off by default
// (docs/CHAT-AGENT.md, rejectUnauthorized:false) and can be turned on.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from './support.js';

function makeSelfSignedCert(): { key: string; cert: string } | undefined {
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
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    return {
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } catch {
    return undefined; // no openssl on this machine
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tls = makeSelfSignedCert();
let server: https.Server;
let url = '';
const seen: Array<{ path: string; auth?: string }> = [];

beforeAll(async () => {
  if (!tls) return;
  server = https.createServer(tls, (req, res) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization });
    req.resume();
    req.on('end', () => {
      const body = JSON.stringify({
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'over TLS' } }],
      });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/tls/path`;
});
afterAll(async () => {
  if (server) await new Promise<void>((r) => server.close(() => r()));
});

it.skipIf(!tls)('https:// uses TLS, and a self-signed certificate is accepted by default', async () => {
  const result = await callGateway(configFor(url, { apiKey: 'sk-tls' }), { messages: userSays('x') });
  expect(result.text).toBe('over TLS');
  expect(seen.at(-1)).toEqual({ path: '/tls/path', auth: 'Bearer sk-tls' });
});

it.skipIf(!tls)('with verification on, a self-signed certificate is an unavailable/tls error', async () => {
  const err = await gatewayFailure(
    callGateway(configFor(url, { tlsRejectUnauthorized: true }), { messages: userSays('x') }),
  );
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'tls', retryable: false });
});
