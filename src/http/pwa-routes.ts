/**
 * The files that make the web app installable (web/public/, copied by Vite to the root of
 * dist/web): `/manifest.webmanifest`, `/icons/<name>.png` and the service worker `/sw.js`. They
 * are public: they hold no data, and a browser fetches the manifest and icons without
 * credentials. The service worker must sit at the root to control every page; it is served
 * `no-cache` (so a new version is picked up at the next visit) with `Service-Worker-Allowed: /`.
 * Headers and the compressed copies: static-files.ts. In demo mode `/sw.js` is 404
 * (src/auth/demo-policy.ts). Registered by webRoutes, which sets up the file sender.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.js';
import { textJavascript } from './static-files.js';

/** `/icons/:name`: one of the app's icon files. */
const IconParams = Type.Object({ name: Type.String() });

/** Icon file names served under /icons/. */
const ICON_NAME = /^[a-z0-9-]{1,64}\.png$/;

/** Registers the manifest, icon and service-worker routes (files of the built app, see static-files.ts). */
export function pwaRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/manifest.webmanifest', { config: { auth: 'public' } }, (_req, reply) =>
    reply.sendFile('manifest.webmanifest'),
  );
  app.get('/sw.js', { config: { auth: 'public' }, onSend: textJavascript }, (_req, reply) =>
    reply.sendFile('sw.js'),
  );
  app.get('/icons/:name', { config: { auth: 'public' }, schema: { params: IconParams } }, (req, reply) => {
    const name = req.params.name;
    if (!ICON_NAME.test(name)) throw notFound(`no icon ${name}`);
    return reply.sendFile(`icons/${name}`);
  });
}
