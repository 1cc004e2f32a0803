/**
 * Links Klebb hands out from a request on a loopback address: with
 * HEALTH_ORIGIN unset the passkey relying party id is `localhost`, and a browser refuses
 * passkeys for it on `127.0.0.1`, so invite links, the HAE endpoint URL and the start message
 * name `localhost` and the port, never the address.
 */
import http from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});
afterAll(async () => {
  await killAllChildren();
});

const agent = 'loopback-links-agent-token-0123';
const admin = 'loopback-links-admin-token-0123';

/** A request with a chosen Host header (fetch does not let a caller set Host). */
function withHost(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: any }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('links from a request on 127.0.0.1 or [::1]', () => {
  it('admin invites, the HAE endpoint URL and a person’s invite name localhost and the port', async () => {
    s = await startServer({ env: { AGENT_API_TOKEN: agent, KLEBB_ADMIN_TOKEN: admin } });
    const port = new URL(s.url).port;
    expect(s.url).toBe(`http://127.0.0.1:${port}`);

    const inv = await s.api('/api/admin/invites', { json: { label: 'sam' }, token: admin });
    expect(inv.status).toBe(201);
    expect(inv.body.registerUrl).toBe(
      `http://localhost:${port}/register#code=${encodeURIComponent(inv.body.code)}`,
    );

    const status = await s.api('/api/health-auto-export/status', { token: agent });
    expect(status.body.endpointUrl).toBe(`http://localhost:${port}/api/health-auto-export`);
    for (const host of [`[::1]:${port}`, `127.0.0.2:${port}`]) {
      const r = await withHost(s.url, 'GET', '/api/health-auto-export/status', {
        host,
        authorization: `Bearer ${agent}`,
      });
      expect([host, r.body.endpointUrl]).toEqual([host, `http://localhost:${port}/api/health-auto-export`]);
    }

    // a person signed in on a page at 127.0.0.1 asks for an invite for another device
    const laptop = new SoftAuthenticator(s.url);
    const first = await register(s, laptop, { code: codeOf(s.inst.auth.setupLink() as string) });
    expect(first.verify?.status).toBe(200);
    const own = await s.api('/api/invites', { method: 'POST', headers: browser(s.url, first.cookie) });
    expect(own.status).toBe(201);
    expect(own.body.registerUrl).toMatch(new RegExp(`^http://localhost:${port}/register#code=`));
  });

  it('with HEALTH_ORIGIN set, links use it whatever the request came on', async () => {
    s = await startServer({ env: { KLEBB_ADMIN_TOKEN: admin, HEALTH_ORIGIN: 'http://localhost:8080' } });
    const inv = await s.api('/api/admin/invites', { json: {}, token: admin });
    expect(inv.body.registerUrl).toMatch(/^http:\/\/localhost:8080\/register#code=/);
  });

  it.each([
    ['127.0.0.1', (port: number) => `127.0.0.1:${port}, this machine only`],
    // the default HOST: every address, not the one URL listen() picked (it said 127.0.0.1)
    ['0.0.0.0', (port: number) => `0.0.0.0:${port}, every IPv4 address of this machine`],
  ])(
    'the start message names the URL to open and, with HOST=%s, where it truly listens',
    async (host, where) => {
      const box = sandboxHome();
      try {
        const child = await spawnServer({ home: box.home, env: { KLEBB_LOG_LEVEL: 'info', HOST: host } });
        const line = child
          .output()
          .split('\n')
          .find((l) => l.includes('Klebb is running'));
        expect(line, child.output()).toBeDefined();
        expect(JSON.parse(line as string)).toMatchObject({
          url: `http://localhost:${child.port}`,
          address: where(child.port),
          msg: `Klebb is running: open http://localhost:${child.port}; listening on ${where(child.port)}`,
        });
        await child.stop();
      } finally {
        box.remove();
      }
    },
  );
});
