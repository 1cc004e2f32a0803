/**
 * The browser app (web/, built by Vite into dist/web/):
 * - `GET /assets/<file>`: the built JS, CSS and icons. Their names carry a content hash, so they
 *   are cached for a year (`immutable`), and they are public: they hold no data, and a sign-in
 *   page will need them before anyone is signed in. Text files are gzipped when the browser
 *   accepts it.
 * - `GET /<anything else>` asked for as a page (`Accept: text/html`, no `/api/` prefix, no file
 *   extension): index.html, with `Cache-Control: no-cache` and the Content-Security-Policy, so
 *   that a reload or a shared link on a client route (`/day/2026-04-20`, `/settings`) opens the
 *   app there. These go through the normal gate like every route not marked public: today that
 *   lets in a browser on this machine (loopback) and a bearer token.
 * - `GET /` answers index.html also to a client that does not ask for HTML (curl's default Accept
 *   of any type, or none), unless it asks for JSON.
 * - Any other unmatched GET keeps the JSON 404 of the rest of the server.
 * - Sign-in pages (`/login`, `/setup`, `/register`) are the same index.html, public; once a
 *   passkey exists, a page request without credentials is redirected to
 *   `/login?next=<path>` instead of answered 401. The page's CSP is set with
 *   @fastify/helmet (src/auth/security-headers.ts).
 * When dist/web is missing (only `tsc` was run), a page request answers a short HTML page that
 * says to run `npm run build`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_CSP, pageHelmet } from '../auth/security-headers.js';
import { KlebbError, notFound } from '../errors.js';
import { projectRoot } from '../home/project-root.js';
import { errorHandler } from './error-handler.js';

/** The policy of the app's page: its own scripts only, never inline ones; no plugins; framed only by itself. */
export const APP_CSP = PAGE_CSP;

/** Client routes anyone may open: the sign-in, first-run setup and invite pages (web/auth/). */
export const SIGN_IN_PAGES = ['/login', '/setup', '/register'] as const;

/** Cache header of the hashed build files. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const ASSET_TYPES: Record<string, { type: string; compress: boolean }> = {
  '.js': { type: 'text/javascript; charset=utf-8', compress: true },
  '.mjs': { type: 'text/javascript; charset=utf-8', compress: true },
  '.css': { type: 'text/css; charset=utf-8', compress: true },
  '.svg': { type: 'image/svg+xml', compress: true },
  '.json': { type: 'application/json; charset=utf-8', compress: true },
  '.webmanifest': { type: 'application/manifest+json', compress: true },
  '.txt': { type: 'text/plain; charset=utf-8', compress: true },
  '.png': { type: 'image/png', compress: false },
  '.jpg': { type: 'image/jpeg', compress: false },
  '.webp': { type: 'image/webp', compress: false },
  '.ico': { type: 'image/x-icon', compress: true },
  '.woff2': { type: 'font/woff2', compress: false },
};

/** One flat file name as Vite writes it under assets/ (no slashes, no leading dot). */
const ASSET_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,200}$/;

/** Files smaller than this are sent as they are. */
const GZIP_MIN_BYTES = 1024;

export interface WebRoutesOptions {
  /** The built app (default: dist/web of the project root). */
  dir?: string;
  /**
   * Where a page request without credentials is sent (`/login` once a passkey exists), or null
   * to answer it 401 like any other request (no passkey yet). Default: never redirect.
   */
  signInPath?: () => string | null;
}

/** The folder Vite builds into: `<project root>/dist/web`, from src/ (tests) and dist/src/ alike. */
export function defaultWebDir(): string {
  return path.join(projectRoot(), 'dist', 'web');
}

/** True when the Accept header asks for HTML (a browser navigating), not when it only allows it. */
export function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.trim().split(';');
    if (type.trim().toLowerCase() !== 'text/html') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    if (coding.trim().toLowerCase() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/** The page shown when the app has not been built. */
const NOT_BUILT_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Klebb: web app not built</title></head>
<body><h1>The Klebb web app is not built</h1>
<p>The server is running, but <code>dist/web</code> is missing. In the Klebb folder run
<code>npm run build</code> (or <code>npm ci</code>, which builds too), then reload this page.</p>
<p>The API answers meanwhile: see <code>docs/API.md</code>.</p></body></html>
`;

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
}

/** Registers the asset route and the page fallback. */
export function webRoutes(app: FastifyInstance, opts: WebRoutesOptions = {}): void {
  const dir = opts.dir ?? defaultWebDir();
  const assetsDir = path.join(dir, 'assets');
  const cache = new Map<string, CachedFile>();

  /** Reads a file, reusing the last read (and its gzip) while size and mtime are unchanged. */
  async function load(file: string, compress: boolean): Promise<CachedFile | null> {
    let stat: Awaited<ReturnType<typeof fs.stat>>;
    try {
      stat = await fs.stat(file);
    } catch {
      return null;
    }
    if (!stat.isFile()) return null;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit;
    let body: Buffer;
    try {
      body = await fs.readFile(file);
    } catch {
      return null;
    }
    const entry: CachedFile = {
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      body,
      gzip: compress && body.length >= GZIP_MIN_BYTES ? gzipSync(body, { level: 9 }) : null,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    };
    if (cache.size > 256) cache.clear();
    cache.set(file, entry);
    return entry;
  }

  function sendFile(req: FastifyRequest, reply: FastifyReply, f: CachedFile, type: string): FastifyReply {
    reply.header('Content-Type', type).header('ETag', f.etag).header('X-Content-Type-Options', 'nosniff');
    if (f.gzip) reply.header('Vary', 'Accept-Encoding');
    if (req.headers['if-none-match'] === f.etag) return reply.code(304).send();
    if (f.gzip && acceptsGzip(req.headers['accept-encoding'])) {
      return reply.header('Content-Encoding', 'gzip').send(f.gzip);
    }
    return reply.send(f.body);
  }

  app.get('/assets/*', { config: { auth: 'public' } }, async (req, reply) => {
    const name = (req.params as { '*': string })['*'];
    const kind = ASSET_TYPES[path.extname(name).toLowerCase()];
    if (!ASSET_NAME.test(name) || !kind) throw notFound(`no asset ${name}`);
    const f = await load(path.join(assetsDir, name), kind.compress);
    if (!f) throw notFound(`no asset ${name}`);
    reply.header('Cache-Control', ASSET_CACHE_CONTROL);
    return sendFile(req, reply, f, kind.type);
  });

  async function page(req: FastifyRequest, reply: FastifyReply) {
    const pathname = req.url.split('?')[0];
    const last = pathname.slice(pathname.lastIndexOf('/') + 1);
    const isApi = /^\/api(\/|$)/i.test(pathname);
    // the root is the app's front door: `curl http://host:8080/` (Accept */* or none) gets the page
    // too, not a JSON 404 that reads as "nothing here"; other paths stay 404 unless asked as a page
    const front = pathname === '/' && !/json/i.test(req.headers.accept ?? '');
    if (isApi || last.includes('.') || !(front || acceptsHtml(req.headers.accept))) {
      throw notFound(`no route ${req.method} ${pathname}`);
    }
    reply.header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer');
    const f = await load(path.join(dir, 'index.html'), true);
    if (!f) {
      return reply
        .code(503)
        .header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'")
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT_HTML);
    }
    reply.header('Cache-Control', 'no-cache').header('X-Frame-Options', 'SAMEORIGIN');
    if (typeof reply.helmet === 'function') reply.helmet(pageHelmet);
    else reply.header('Content-Security-Policy', APP_CSP);
    return sendFile(req, reply, f, 'text/html; charset=utf-8');
  }

  // Pages: every path no other route claims. The router prefers static and parametric routes,
  // so this sees only what would otherwise be a 404. A page asked for without credentials goes
  // to the sign-in page once there is one to go to.
  app.get(
    '/*',
    {
      errorHandler(err, req, reply) {
        const to = opts.signInPath?.();
        const pathname = req.url.split('?')[0];
        if (
          to &&
          err instanceof KlebbError &&
          err.status === 401 &&
          req.headers.authorization === undefined &&
          !/^\/api(\/|$)/i.test(pathname) &&
          !pathname.slice(pathname.lastIndexOf('/') + 1).includes('.') &&
          acceptsHtml(req.headers.accept)
        ) {
          return reply.redirect(`${to}?next=${encodeURIComponent(req.url)}`, 302);
        }
        return errorHandler(err, req, reply);
      },
    },
    page,
  );

  for (const p of SIGN_IN_PAGES) app.get(p, { config: { auth: 'public' } }, page);
}
