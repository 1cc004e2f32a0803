/**
 * The browser app (web/, built by Vite into dist/web/, with a brotli and a gzip copy beside each
 * text file); the files are sent by @fastify/static (static-files.ts):
 * - `GET /assets/<file>`: the built JS, CSS and icons. Their names carry a content hash, so they
 *   are cached for a year (`immutable`), and they are public: they hold no data, and a sign-in
 *   page will need them before anyone is signed in. The brotli or gzip copy goes to a browser that
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
 *   helmet (src/auth/security-headers.ts).
 * - The manifest, icons and service worker: pwa-routes.ts.
 * HEAD is answered for every GET route (Fastify adds it) with the GET's headers and no body.
 * When dist/web is missing (only `tsc` was run), a page request answers a short HTML page that
 * says to run `npm run build`.
 */

import fs from 'node:fs';
import path from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_CSP, pageHelmet } from '../auth/security-headers.js';
import { KlebbError, notFound } from '../errors.js';
import { projectRoot } from '../home/project-root.js';
import { errorHandler } from './error-handler.js';
import { noRoute } from './no-route.js';
import { pwaRoutes } from './pwa-routes.js';
import { staticFiles, textJavascript } from './static-files.js';

/** The policy of the app's page: its own scripts only, never inline ones; no plugins; framed only by itself. */
export const APP_CSP = PAGE_CSP;

/** Client routes anyone may open: the sign-in, first-run setup and invite pages (web/auth/). */
export const SIGN_IN_PAGES = ['/login', '/setup', '/register'] as const;

/** Endings of the files Vite writes under assets/ that may be asked for (not the .br/.gz copies). */
const ASSET_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.css',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
  '.png',
  '.jpg',
  '.webp',
  '.ico',
  '.woff2',
]);

/** One flat file name as Vite writes it under assets/ (no slashes, no leading dot). */
const ASSET_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,200}$/;

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

/** The page shown when the app has not been built. */
const NOT_BUILT_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Klebb: web app not built</title></head>
<body><h1>The Klebb web app is not built</h1>
<p>The server is running, but <code>dist/web</code> is missing. In the Klebb folder run
<code>npm run build</code> (or <code>npm ci</code>, which builds too), then reload this page.</p>
<p>The API answers meanwhile: see <code>docs/API.md</code>.</p></body></html>
`;

/** Registers the file sender, the asset route, the page fallback and the PWA files. */
export function webRoutes(app: FastifyInstance, opts: WebRoutesOptions = {}): void {
  const dir = opts.dir ?? defaultWebDir();
  const indexFile = path.join(dir, 'index.html');
  staticFiles(app, dir);
  pwaRoutes(app);

  const assets = app.withTypeProvider<TypeBoxTypeProvider>();
  const AssetParams = Type.Object({ '*': Type.String() });
  assets.get(
    '/assets/*',
    { config: { auth: 'public' }, onSend: textJavascript, schema: { params: AssetParams } },
    (req, reply) => {
      const name = req.params['*'];
      if (!ASSET_NAME.test(name) || !ASSET_EXTENSIONS.has(path.extname(name).toLowerCase())) {
        throw notFound(`no asset ${name}`);
      }
      return reply.sendFile(`assets/${name}`);
    },
  );

  async function page(req: FastifyRequest, reply: FastifyReply) {
    const pathname = req.url.split('?')[0];
    const last = pathname.slice(pathname.lastIndexOf('/') + 1);
    const isApi = /^\/api(\/|$)/i.test(pathname);
    // the root is the app's front door: `curl http://host:8080/` (Accept */* or none) gets the page
    // too, not a JSON 404 that reads as "nothing here"; other paths stay 404 unless asked as a page
    const front = pathname === '/' && !/json/i.test(req.headers.accept ?? '');
    if (isApi || last.includes('.') || !(front || acceptsHtml(req.headers.accept))) {
      throw noRoute(req);
    }
    reply.header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer');
    if (!fs.existsSync(indexFile)) {
      return reply
        .code(503)
        .header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'")
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT_HTML);
    }
    reply.header('X-Frame-Options', 'SAMEORIGIN');
    if (typeof reply.helmet === 'function') reply.helmet(pageHelmet);
    else reply.header('Content-Security-Policy', APP_CSP);
    return reply.sendFile('index.html');
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
