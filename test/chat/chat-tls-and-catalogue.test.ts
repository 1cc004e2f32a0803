/**
 * Two settings of the chat wiring: an https gateway's certificate is checked by default
 * (CHAT_TLS_VERIFY=0 opts out, for a self-signed gateway on one's own network), and the static
 * prompt lists the Health Auto Export metric catalogue.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer } from '../helpers/server.js';

let server: https.Server;
let url = '';

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'klebb-tls-'));
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
      '/CN=127.0.0.1',
    ],
    {
      cwd: dir,
      stdio: 'ignore',
    },
  );
  const tls = {
    key: readFileSync(path.join(dir, 'k.pem'), 'utf8'),
    cert: readFileSync(path.join(dir, 'c.pem'), 'utf8'),
  };
  rmSync(dir, { recursive: true, force: true });
  server = https.createServer(tls, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'over TLS' } }],
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe('TLS to the gateway', () => {
  it('a self-signed certificate is refused by default (the API key never goes to an impostor)', async () => {
    const s = await startServer({ env: { CHAT_ENDPOINT_URL: url, CHAT_API_KEY: 'k' } });
    try {
      const r = await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'hi' }] } });
      expect(r.status).toBe(502);
    } finally {
      await s.close();
    }
  });

  it('CHAT_TLS_VERIFY=0 accepts it', async () => {
    const s = await startServer({ env: { CHAT_ENDPOINT_URL: url, CHAT_TLS_VERIFY: '0' } });
    try {
      const r = await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'hi' }] } });
      expect(r.body).toEqual({ reply: 'over TLS' });
    } finally {
      await s.close();
    }
  });
});

describe('the static prompt', () => {
  it('names the Health Auto Export metrics block and where the metric list is', async () => {
    const gw = await startScriptedGateway();
    const s = await startServer({ env: { CHAT_ENDPOINT_URL: gw.url } });
    try {
      gw.script({ kind: 'reply', text: 'ok' });
      await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'hi' }] } });
      const staticPart = gw.requests[0].body.messages[0].content[0].text as string;
      expect(staticPart).toContain('## Health Auto Export metrics');
      expect(staticPart).toContain('read_doc docs/HEALTH-AUTO-EXPORT.md#the-metrics');
    } finally {
      await s.close();
      await gw.close();
    }
  });
});
