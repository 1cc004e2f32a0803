// A request that reaches no model fails before any HTTP: a host name nobody knows (a typo in
// CHAT_ENDPOINT_URL, a container name outside its network), nothing listening at the port (the
// model's server not started), a certificate this server does not trust (a gateway on one's own
// network with a self-signed or company certificate), or https:// written for a server that
// speaks plain http (Ollama, llama.cpp and LM Studio do). Each was told as "The chat service is
// unavailable right now. Please try again in a little while", which sends the person to wait for
// something only a change of settings fixes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from './support.js';

const servers: Array<http.Server | https.Server> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
});

async function listen(server: http.Server | https.Server): Promise<number> {
  servers.push(server);
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
        '/CN=127.0.0.1',
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

it('a host name nobody knows is told as one to check in CHAT_ENDPOINT_URL, and not asked again', async () => {
  const err = await gatewayFailure(
    callGateway(
      configFor('http://klebb-model-host.invalid:11434/v1/chat/completions', {
        maxRetries: 2,
        retryBaseDelayMs: 1,
      }),
      {
        messages: userSays('hi'),
      },
    ),
  );
  const copy = failureCopy(err).error;
  expect(copy).toMatch(/klebb-model-host\.invalid/);
  expect(copy).toMatch(/CHAT_ENDPOINT_URL/);
  expect(copy).not.toMatch(/try again in a little while/i);
  expect(err.retryable).toBe(false);
});

it('nothing listening at the address is told with the address, and that the model server may not be running', async () => {
  const probe = http.createServer();
  const port = await listen(probe);
  servers.pop();
  await new Promise<void>((r) => probe.close(() => r()));
  const err = await gatewayFailure(
    callGateway(configFor(`http://127.0.0.1:${port}/v1/chat/completions`), { messages: userSays('hi') }),
  );
  const copy = failureCopy(err).error;
  expect(copy).toContain(`127.0.0.1:${port}`);
  expect(copy).toMatch(/not running|nothing (?:is )?listening/i);
  expect(copy).toMatch(/CHAT_ENDPOINT_URL/);
  expect(copy, 'localhost inside a container is the container itself').toMatch(
    /container.*host\.docker\.internal/,
  );
});

it.skipIf(!tls)(
  'a certificate this server does not trust is told as such, with the ways to trust it',
  async () => {
    const port = await listen(
      https.createServer(tls ?? {}, (_req, res) => {
        res.end('{}');
      }),
    );
    const err = await gatewayFailure(
      callGateway(
        configFor(`https://127.0.0.1:${port}/v1/chat/completions`, { tlsRejectUnauthorized: true }),
        {
          messages: userSays('hi'),
        },
      ),
    );
    const copy = failureCopy(err).error;
    expect(copy).toMatch(/certificate/i);
    expect(copy).toMatch(/NODE_EXTRA_CA_CERTS/);
    expect(copy).toMatch(/CHAT_TLS_VERIFY=0/);
    expect(copy).not.toMatch(/try again in a little while/i);
  },
);

it('https:// written for a server that speaks plain http is told as that, and not asked again', async () => {
  const port = await listen(
    http.createServer((_req, res) => {
      res.end('{}');
    }),
  );
  const err = await gatewayFailure(
    callGateway(
      configFor(`https://127.0.0.1:${port}/v1/chat/completions`, { maxRetries: 2, retryBaseDelayMs: 1 }),
      {
        messages: userSays('hi'),
      },
    ),
  );
  const copy = failureCopy(err).error;
  expect(copy).toMatch(/plain http/i);
  expect(copy).toContain(`http://127.0.0.1:${port}`);
  expect(err.retryable).toBe(false);
});
