/**
 * Security headers with @fastify/helmet: on every answer `nosniff`,
 * `Referrer-Policy: no-referrer`, `X-Frame-Options: SAMEORIGIN`, same-origin opener and resource
 * policies, and HSTS when HEALTH_ORIGIN is HTTPS. The Content-Security-Policy goes on pages
 * only (src/http/web-routes.ts calls `reply.helmet(pageHelmet)`): JSON answers run no scripts.
 *
 * The page policy: our own scripts only and never inline ones, styles from our own files,
 * framed only by ourselves, no plugins. Inline `style` attributes are not needed: Preact and
 * uPlot set styles through the CSSOM (`el.style.x = ...`, `style.cssText`), which CSP does not
 * govern; test/e2e/auth-csp.test.ts proves it in Chromium, so `style-src` stays `'self'`.
 */
import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { AuthEnv } from './auth-env.js';

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
export function helmetOptions(env: AuthEnv): FastifyHelmetOptions {
  return {
    global: true,
    contentSecurityPolicy: false,
    strictTransportSecurity: env.secureCookies ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'sameorigin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  };
}
