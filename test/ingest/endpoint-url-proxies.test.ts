/**
 * The address Settings › Health Auto Export tells the person to type into the phone, behind the
 * reverse proxies people run: chains that append to X-Forwarded-Proto, a host with the scheme's
 * own port, nginx's `$host` without the port the site was reached on, RFC 7239 `Forwarded`, and
 * `X-Forwarded-Ssl`. The URL is the one the browser used; headers from an address that is not a
 * listed proxy are never believed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const token = 'endpoint-proxies-agent-token-0123456789';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { KLEBB_TRUSTED_PROXIES: '127.0.0.0/8,::1', AGENT_API_TOKEN: token } });
});
afterAll(async () => {
  await s.close();
});

const endpointFor = async (headers: Record<string, string>) =>
  (await s.api('/api/health-auto-export/status', { token, headers })).body.endpointUrl as string;

it.each([
  // a CDN in front of nginx, each appending its own view: the browser reached the CDN over https
  [
    { 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'health.example.org' },
    'https://health.example.org',
  ],
  [
    { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'health.example.org:443' },
    'https://health.example.org',
  ],
  // nginx on 8443 with `Host $host` and `X-Forwarded-Port $server_port`
  [
    { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'health.example.org', 'x-forwarded-port': '8443' },
    'https://health.example.org:8443',
  ],
  // a proxy that speaks RFC 7239 only
  [{ forwarded: 'for=192.0.2.60;proto=https;host="health.example.org"' }, 'https://health.example.org'],
  // Apache's mod_proxy with mod_ssl's X-Forwarded-Ssl
  [{ 'x-forwarded-host': 'health.example.org', 'x-forwarded-ssl': 'on' }, 'https://health.example.org'],
])('%j → %s/api/health-auto-export', async (headers, base) => {
  expect(await endpointFor(headers)).toBe(`${base}/api/health-auto-export`);
});

it('forwarded headers from an address that is not a listed proxy are ignored', async () => {
  const direct = await startServer({ env: { KLEBB_TRUSTED_PROXIES: '10.0.0.1', AGENT_API_TOKEN: token } });
  try {
    const forged: Record<string, string>[] = [
      { forwarded: 'proto=https;host=evil.example' },
      { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example', 'x-forwarded-port': '444' },
    ];
    for (const headers of forged) {
      const r = await direct.api('/api/health-auto-export/status', { token, headers });
      expect(r.body.endpointUrl).toBe(`http://localhost:${new URL(direct.url).port}/api/health-auto-export`);
    }
  } finally {
    await direct.close();
  }
});
