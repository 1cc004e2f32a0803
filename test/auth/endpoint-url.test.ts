/**
 * The Health Auto Export endpoint URL shown in Settings is never taken from an arbitrary Host
 * header: HEALTH_ORIGIN when set, else the loopback Host or the
 * address the request arrived on. `Host: evil.example` must not turn it into an attacker's URL.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** GET with a forged Host header (fetch does not let a caller set Host). */
function getWithHost(base: string, path: string, headers: Record<string, string>): Promise<any> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    http
      .get({ host: u.hostname, port: u.port, path, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}

const token = 'endpoint-url-agent-token-0123';

describe('HAE endpointUrl', () => {
  it('comes from HEALTH_ORIGIN when set, whatever the Host', async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: token, HEALTH_ORIGIN: 'https://health.example.org' } });
    const r = await getWithHost(s.url, '/api/health-auto-export/status', {
      authorization: `Bearer ${token}`,
      host: 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(r.status).toBe(200);
    expect(r.body.endpointUrl).toBe('https://health.example.org/api/health-auto-export');
  });

  it('without HEALTH_ORIGIN: the address the request came on, never a foreign Host', async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: token } });
    const port = new URL(s.url).port;
    const evil = await getWithHost(s.url, '/api/health-auto-export/status', {
      authorization: `Bearer ${token}`,
      host: 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(evil.body.endpointUrl).toBe(`http://127.0.0.1:${port}/api/health-auto-export`);
    const local = await getWithHost(s.url, '/api/health-auto-export/status', {
      authorization: `Bearer ${token}`,
      host: `localhost:${port}`,
    });
    expect(local.body.endpointUrl).toBe(`http://localhost:${port}/api/health-auto-export`);
  });
});
