/**
 * The files that make the web app installable (web/public/, copied by Vite to the root of
 * dist/web): `/manifest.webmanifest`, `/icons/<name>.png` and the service worker `/sw.js`. They
 * are public: they hold no data, and a browser fetches the manifest and icons without
 * credentials. The service worker must sit at the root to control every page, and is served
 * `no-cache` so a new version is picked up at the next visit. In demo mode `/sw.js` is 404
 * (src/auth/demo-policy.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { notFound } from '../errors.js';
import { defaultWebDir } from './web-routes.js';

/** Icon file names served under /icons/. */
const ICON_NAME = /^[a-z0-9-]{1,64}\.png$/;

async function sendFile(reply: FastifyReply, file: string, type: string, cache: string) {
  let body: Buffer;
  try {
    body = await fs.readFile(file);
  } catch {
    throw notFound(`no file ${path.basename(file)} (run npm run build)`);
  }
  return reply
    .header('Content-Type', type)
    .header('Cache-Control', cache)
    .header('X-Content-Type-Options', 'nosniff')
    .send(body);
}

/** Registers the manifest, icon and service-worker routes. `dir` is the built app (default dist/web). */
export function pwaRoutes(app: FastifyInstance, opts: { dir?: string } = {}): void {
  const dir = opts.dir ?? defaultWebDir();
  app.get('/manifest.webmanifest', { config: { auth: 'public' } }, (_req, reply) =>
    sendFile(reply, path.join(dir, 'manifest.webmanifest'), 'application/manifest+json', 'no-cache'),
  );
  app.get('/sw.js', { config: { auth: 'public' } }, (_req, reply) => {
    reply.header('Service-Worker-Allowed', '/');
    return sendFile(reply, path.join(dir, 'sw.js'), 'text/javascript; charset=utf-8', 'no-cache');
  });
  app.get('/icons/:name', { config: { auth: 'public' } }, (req, reply) => {
    const name = (req.params as { name: string }).name;
    if (!ICON_NAME.test(name)) throw notFound(`no icon ${name}`);
    return sendFile(reply, path.join(dir, 'icons', name), 'image/png', 'public, max-age=86400');
  });
}
