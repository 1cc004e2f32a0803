/**
 * Security headers with helmet: on every answer `nosniff`,
 * `Referrer-Policy: no-referrer`, `X-Frame-Options: SAMEORIGIN`, same-origin opener and resource
 * policies, and HSTS when HEALTH_ORIGIN is HTTPS. The Content-Security-Policy goes on pages
 * only (src/http/web-routes.ts calls `reply.helmet(pageHelmet)`): JSON answers run no scripts.
 *
 * The headers depend only on the options, never on the request, so helmet runs once at start-up
 * (on a response that records what it sets) and each request gets the recorded list: the same
 * headers @fastify/helmet would set, without building helmet's middleware on every request.
 *
 * The page policy: our own scripts only and never inline ones, styles from our own files,
 * framed only by ourselves, no plugins. Inline `style` attributes are not needed: Preact and
 * uPlot set styles through the CSSOM (`el.style.x = ...`, `style.cssText`), which CSP does not
 * govern; test/e2e/auth-csp.test.ts proves it in Chromium, so `style-src` stays `'self'`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { AuthEnv } from './auth-env.js';

declare module 'fastify' {
  interface FastifyReply {
    /** Sets the security headers of the global options with `opts` over them (a page: `pageHelmet`). */
    helmet(opts?: HelmetOptions): void;
  }
}

/** The page policy, directive by directive. */
export const PAGE_CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'media-src': ["'self'", 'blob:'],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
};

/** The page policy as one header value (for servers built without helmet, e.g. unit tests). */
export const PAGE_CSP = Object.entries(PAGE_CSP_DIRECTIVES)
  .map(([k, v]) => `${k} ${v.join(' ')}`)
  .join('; ');

/** Options of `reply.helmet()` for a page: the global headers plus the page policy. */
export const pageHelmet = {
  contentSecurityPolicy: { useDefaults: false, directives: PAGE_CSP_DIRECTIVES },
} as const;

/** The global helmet options for an instance. */
export function helmetOptions(env: AuthEnv): HelmetOptions {
  return {
    contentSecurityPolicy: false,
    strictTransportSecurity: env.secureCookies ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'sameorigin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  };
}

/** What helmet does to a response for some options: headers it sets, headers it removes. */
interface HeaderEdits {
  set: [string, string][];
  remove: string[];
}

/** Runs helmet once on a response that only records its edits. */
export function helmetHeaders(options: HelmetOptions): HeaderEdits {
  const edits: HeaderEdits = { set: [], remove: [] };
  const recorder = {
    setHeader: (name: string, value: unknown) => edits.set.push([name, String(value)]),
    removeHeader: (name: string) => edits.remove.push(name),
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return edits;
}

function apply(res: ServerResponse, edits: HeaderEdits): void {
  for (const [name, value] of edits.set) res.setHeader(name, value);
  for (const name of edits.remove) res.removeHeader(name);
}

/**
 * Sets the global headers on every answer (an onRequest hook: refusals carry them too; call
 * before the auth gate's hook) and decorates `reply.helmet(opts)` for pages.
 */
export function installSecurityHeaders(app: FastifyInstance, env: AuthEnv): void {
  const options = helmetOptions(env);
  const global = helmetHeaders(options);
  const page = helmetHeaders({ ...options, ...pageHelmet } as HelmetOptions);
  app.addHook('onRequest', (_req, reply, done) => {
    apply(reply.raw, global);
    done();
  });
  app.decorateReply('helmet', function (this: FastifyReply, opts?: HelmetOptions) {
    apply(this.raw, opts === pageHelmet ? page : helmetHeaders({ ...options, ...opts } as HelmetOptions));
  });
}
