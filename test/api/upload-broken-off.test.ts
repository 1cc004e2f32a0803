/**
 * An upload that breaks off mid-body (the client sends less than its Content-Length and closes
 * its side, or goes away altogether) is refused with the catalogue's 400 BODY_READ_FAILED on
 * every upload route (an import archive, an Apple Health export, a report, a Health Auto Export
 * push), never a generic BAD_REQUEST, and nothing of it is kept.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'upload-broken-off-token';
let s: TestServer;
let haeToken = '';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends the headers (Content-Length 4000) and 1000 bytes of body, then `how`: `half-close` ends
 * the sending side (the answer can still be read), `disconnect` drops the connection. Resolves
 * with the raw answer (empty when there was none).
 */
function brokenUpload(
  path: string,
  headers: Record<string, string>,
  how: 'half-close' | 'disconnect',
): Promise<string> {
  const port = Number(new URL(s.url).port);
  return new Promise((resolve) => {
    let out = '';
    const sock = net.connect(port, '127.0.0.1', () => {
      const head = Object.entries({ host: 'localhost', 'content-length': '4000', ...headers })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      sock.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
      sock.write(Buffer.alloc(1000, 0x61), () => {
        // once the bytes are out, the client gives up
        setTimeout(() => (how === 'half-close' ? sock.end() : sock.destroy()), 50);
      });
    });
    sock.on('data', (d) => {
      out += d;
    });
    sock.on('close', () => resolve(out));
    sock.on('error', () => resolve(out));
  });
}

const jsonOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  haeToken = (await s.api('/api/health-auto-export/token', { method: 'POST', token: T })).body.token;
  expect(haeToken).toBeTruthy();
});
afterAll(async () => {
  await s.close();
});

describe('an upload cut short (less than its Content-Length, then the client closes its side)', () => {
  const routes: [string, string, Record<string, string>][] = [
    ['an import archive', '/api/import/upload', { 'content-type': 'application/zip' }],
    ['an Apple Health export', '/api/apple-health/import', { 'content-type': 'application/zip' }],
    ['a report', '/api/reports/upload', { 'content-type': 'text/plain', 'x-klebb-filename': 'lab.txt' }],
    ['a Health Auto Export push', '/api/health-auto-export', { 'content-type': 'application/json' }],
  ];
  for (const [what, path, headers] of routes) {
    it(`${what}: 400 BODY_READ_FAILED`, async () => {
      const auth = path === '/api/health-auto-export' ? haeToken : T;
      const raw = await brokenUpload(path, { ...headers, authorization: `Bearer ${auth}` }, 'half-close');
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      const body = jsonOf(raw);
      expect(body.code).toBe('BODY_READ_FAILED');
      expect(body.error).toMatch(/broke off/);
    });
  }

  it('leaves no archive to import', async () => {
    const r = await s.api('/api/import/start', { method: 'POST', token: T });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('NO_UPLOAD');
  });

  it('a JSON body cut short elsewhere stays 400 BAD_CONTENT_LENGTH', async () => {
    const raw = await brokenUpload(
      '/api/conversations',
      { 'content-type': 'application/json', authorization: `Bearer ${T}` },
      'half-close',
    );
    expect(jsonOf(raw).code).toBe('BAD_CONTENT_LENGTH');
  });
});

describe('an upload whose client goes away mid-body', () => {
  it('an Apple Health export: its progress says failed with BODY_READ_FAILED', async () => {
    await brokenUpload(
      '/api/apple-health/import',
      { 'content-type': 'application/zip', authorization: `Bearer ${T}` },
      'disconnect',
    );
    let p: { phase?: string; code?: string; running?: boolean } = {};
    for (let i = 0; i < 200; i++) {
      p = (await s.api('/api/apple-health/import/progress', { token: T })).body;
      if (p.phase === 'failed') break;
      await sleep(20);
    }
    expect(p).toMatchObject({ phase: 'failed', code: 'BODY_READ_FAILED', running: false });
  });
});
