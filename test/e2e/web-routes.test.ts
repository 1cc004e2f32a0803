/**
 * How the server hands out the web app (src/http/web-routes.ts), over plain HTTP:
 * - a page request on any client route gets index.html, `no-cache`, and the CSP (own scripts
 *   only, no inline script, framed only by itself, no plugins);
 * - the built files under /assets are public, cached for a year, sent as the brotli or gzip copy
 *   the build wrote when the client accepts it, else as they are (Vary: Accept-Encoding always);
 * - HEAD answers the GET's headers without a body;
 * - the service worker is served from the root, no-cache, with Service-Worker-Allowed: /;
 * - pages go through the gate (from off the machine without credentials: 401), assets do not;
 * - /api paths, non-HTML requests and file-like paths keep the JSON 404;
 * - without dist/web a page request explains how to build it.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoutes } from '../../src/http/web-routes.js';
import { repoRoot } from '../helpers/sandbox-home.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { assertWebBuilt } from './browser.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const OFF_MACHINE = { 'x-forwarded-for': '203.0.113.5' };

/** A GET (or HEAD) by node:http, which, unlike fetch, leaves the body as it came over the wire. */
function raw(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject)
      .end();
  });
}

let s: TestServer;
let assets: string[];
beforeAll(async () => {
  assertWebBuilt();
  assets = fs.readdirSync(path.join(repoRoot, 'dist/web/assets'));
  s = await startServer({ env: { AGENT_API_TOKEN: 'right' } });
});
afterAll(async () => {
  await s?.close();
});

describe('pages', () => {
  it('every client route answers index.html with no-cache and the CSP', async () => {
    const index = fs.readFileSync(path.join(repoRoot, 'dist/web/index.html'), 'utf8');
    for (const route of [
      '/',
      '/day/2026-04-20',
      '/calendar',
      '/trends',
      '/reports',
      '/settings',
      '/widget',
      '/nowhere',
    ]) {
      const r = await s.api(route, { headers: HTML });
      expect(r.status, route).toBe(200);
      expect(r.text, route).toBe(index);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-cache');
      const csp = r.headers.get('content-security-policy') ?? '';
      const directives = new Map(
        csp
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([k, ...v]) => [k, v]),
      );
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(directives.get('script-src')).toEqual(["'self'"]);
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'self'"]);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
    }
  });

  it('index.html has no inline script, and its ETag answers 304', async () => {
    const r = await s.api('/', { headers: HTML });
    expect(r.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    const etag = r.headers.get('etag');
    expect(etag).toBeTruthy();
    // fetch adds `Cache-Control: no-cache` to a request with If-None-Match unless one is given,
    // and a no-cache request is answered in full; a browser's reload sends max-age=0
    const again = await s.api('/', {
      headers: { ...HTML, 'if-none-match': etag as string, 'cache-control': 'max-age=0' },
    });
    expect(again.status).toBe(304);
  });

  it('pages are behind the gate: from off the machine they need the token', async () => {
    expect((await s.api('/settings', { headers: { ...HTML, ...OFF_MACHINE } })).status).toBe(401);
    expect((await s.api('/settings', { headers: { ...HTML, authorization: 'Bearer wrong' } })).status).toBe(
      401,
    );
    expect((await s.api('/settings', { headers: { ...HTML, ...OFF_MACHINE }, token: 'right' })).status).toBe(
      200,
    );
  });

  it('API paths, non-HTML requests and file-like paths keep the JSON 404', async () => {
    for (const [p, headers] of [
      ['/api/no-such-route', HTML],
      ['/API/manifests/x/y/z', HTML],
      ['/settings', { accept: 'application/json' }],
      ['/settings', {}],
      ['/robots.txt', HTML],
      ['/settings', { accept: 'text/html;q=0' }],
    ] as const) {
      const r = await s.api(p, { headers });
      expect(r.status, `${p} ${JSON.stringify(headers)}`).toBe(404);
      expect(r.body.code).toBe('NOT_FOUND');
      expect(r.headers.get('content-security-policy')).toBeNull();
    }
  });

  it('the root is the page for curl too (Accept */* or none), and 404 JSON when JSON is asked for', async () => {
    for (const headers of [{ accept: '*/*' }, {}] as Record<string, string>[]) {
      const r = await s.api('/', { headers });
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.text).toContain('<div id="app">');
    }
    expect((await s.api('/', { headers: { accept: 'application/json' } })).status).toBe(404);
  });
});

describe('assets', () => {
  it('are public, cached for a year and gzipped when asked', async () => {
    const js = assets.find((a) => a.endsWith('.js'));
    const css = assets.find((a) => a.endsWith('.css'));
    expect(js && css).toBeTruthy();
    for (const [name, type] of [
      [js, 'text/javascript; charset=utf-8'],
      [css, 'text/css; charset=utf-8'],
    ] as const) {
      const onDisk = fs.readFileSync(path.join(repoRoot, 'dist/web/assets', name as string));
      const plain = await s.api(`/assets/${name}`, { headers: OFF_MACHINE });
      expect(plain.status).toBe(200);
      expect(plain.headers.get('content-type')).toBe(type);
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
      expect(plain.text).toBe(onDisk.toString('utf8'));
      const res = await fetch(`${s.url}/assets/${name}`, { headers: { 'accept-encoding': 'gzip' } });
      // fetch decodes gzip itself: read the raw header and the decoded body
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(Buffer.from(await res.arrayBuffer()).equals(onDisk)).toBe(true);
    }
  });

  it('are sent as the brotli, gzip or plain file by Accept-Encoding, with the same bytes', async () => {
    const js = assets.filter((a) => a.endsWith('.js')).sort()[0];
    const onDisk = fs.readFileSync(path.join(repoRoot, 'dist/web/assets', js));
    expect(onDisk.length).toBeGreaterThan(1024);
    const url = `${s.url}/assets/${js}`;
    const br = await raw(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(onDisk.length);
    expect(brotliDecompressSync(br.body).equals(onDisk)).toBe(true);
    const gz = await raw(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(onDisk)).toBe(true);
    for (const headers of [
      { 'accept-encoding': 'identity' },
      {},
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ] as Record<string, string>[]) {
      const plain = await raw(url, headers);
      expect(plain.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(plain.body.equals(onDisk), JSON.stringify(headers)).toBe(true);
    }
    for (const r of [br, gz]) {
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(r.headers.vary?.toLowerCase()).toContain('accept-encoding');
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
    }
  });

  it('answer HEAD with the headers of GET and no body', async () => {
    const js = assets.find((a) => a.endsWith('.js')) as string;
    const get = await raw(`${s.url}/assets/${js}`, { 'accept-encoding': 'br' });
    const head = await raw(`${s.url}/assets/${js}`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const h of ['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control']) {
      expect(head.headers[h], h).toBe(get.headers[h]);
    }
    const page = await raw(`${s.url}/settings`, { ...HTML, 'accept-encoding': 'gzip' }, 'HEAD');
    expect(page.status).toBe(200);
    expect(page.body.length).toBe(0);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-encoding']).toBe('gzip');
  });

  it('refuse names outside the build folder and unknown files', async () => {
    for (const p of [
      '/assets/nope.js',
      '/assets/..%2Fpackage.json',
      '/assets/%2e%2e/index.html',
      '/assets/x/../../package.json',
      '/assets/a.exe',
      '/assets/.hidden.js',
    ]) {
      const r = await s.api(p, { headers: { authorization: 'Bearer right' } });
      expect(r.status, p).toBe(404);
      expect(r.body?.code, p).toBe('NOT_FOUND');
    }
  });
});

describe('the page by Accept-Encoding', () => {
  it('a client route gets index.html as brotli, gzip or plain text, no-cache every time', async () => {
    const index = fs.readFileSync(path.join(repoRoot, 'dist/web/index.html'));
    const decode: Record<string, (b: Buffer) => Buffer> = {
      br: brotliDecompressSync,
      gzip: gunzipSync,
      identity: (b) => b,
    };
    for (const [accept, want] of [
      ['br', 'br'],
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', 'identity'],
    ] as const) {
      const r = await raw(`${s.url}/day/2026-04-20`, { ...HTML, 'accept-encoding': accept });
      expect(r.status, accept).toBe(200);
      expect(r.headers['content-encoding'] ?? 'identity', accept).toBe(want);
      expect(decode[want](r.body).equals(index), accept).toBe(true);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });
});

describe('installable app files', () => {
  it('the service worker is served from the root, no-cache, allowed to control every page', async () => {
    const onDisk = fs.readFileSync(path.join(repoRoot, 'dist/web/sw.js'));
    for (const accept of ['br', 'gzip', 'identity']) {
      const r = await raw(`${s.url}/sw.js`, { 'accept-encoding': accept, ...OFF_MACHINE });
      expect(r.status, accept).toBe(200);
      expect(r.headers['service-worker-allowed'], accept).toBe('/');
      expect(r.headers['cache-control'], accept).toBe('no-cache');
      expect(r.headers['content-type'], accept).toBe('text/javascript; charset=utf-8');
      const body =
        accept === 'br' ? brotliDecompressSync(r.body) : accept === 'gzip' ? gunzipSync(r.body) : r.body;
      expect(body.equals(onDisk), accept).toBe(true);
    }
    const manifest = await raw(`${s.url}/manifest.webmanifest`, OFF_MACHINE);
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const icons = fs.readdirSync(path.join(repoRoot, 'dist/web/icons'));
    const icon = await raw(`${s.url}/icons/${icons[0]}`, OFF_MACHINE);
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=86400');
    expect((await raw(`${s.url}/icons/nope.png`, OFF_MACHINE)).headers['cache-control']).not.toMatch(
      /max-age/,
    );
  });
});

describe('without a build', () => {
  it('a page request says to run npm run build', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-noweb-'));
    const app = Fastify();
    webRoutes(app, { dir: path.join(empty, 'web') });
    try {
      const r = await app.inject({ method: 'GET', url: '/', headers: HTML });
      expect(r.statusCode).toBe(503);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('npm run build');
      const asset = await app.inject({ method: 'GET', url: '/assets/index.js' });
      expect(asset.statusCode).toBe(404);
    } finally {
      await app.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
