/**
 * The 404 for a request no route takes. When the path is one a route has, under other methods
 * (a browser opening the Health Auto Export URL, PUT sent where PATCH is meant), the message
 * names those methods, so the caller knows the path was right and the method was not.
 */
import type { FastifyRequest } from 'fastify';
import { notFound } from '../errors.js';
import { pathPartTooLong } from './path-parts.js';

/** A route template (`/api/manifests/:id/rows`) as a pattern for concrete paths; null for wildcards. */
function templatePattern(url: string): RegExp | null {
  // a wildcard (the web app's pages, its assets) takes every path under it: it says nothing
  if (url.includes('*')) return null;
  const parts = url
    .split('/')
    .map((p) => (p.startsWith(':') ? '[^/]+' : p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('/')}/?$`);
}

const patterns = new Map<string, RegExp | null>();

/** The methods routes take at `pathname`, in the route table's order (HEAD left out). */
function methodsAt(req: FastifyRequest, pathname: string): string[] {
  const out: string[] = [];
  for (const r of req.server.routeTable ?? []) {
    let re = patterns.get(r.url);
    if (re === undefined) {
      re = templatePattern(r.url);
      patterns.set(r.url, re);
    }
    if (re?.test(pathname) && !out.includes(r.method)) out.push(r.method);
  }
  return out;
}

/**
 * The error for a request no route matched: 414 for a path part too long, else 404 NOT_FOUND
 * `no route <METHOD> <path>`, followed by `: this path takes GET, POST` when routes take the
 * path under other methods.
 */
export function noRoute(req: FastifyRequest) {
  const pathname = req.url.split('?')[0];
  const tooLong = pathPartTooLong(pathname);
  if (tooLong) return tooLong;
  const others = methodsAt(req, decodeURIComponentSafe(pathname)).filter((m) => m !== req.method);
  const hint = others.length > 0 ? `: this path takes ${others.join(', ')}` : '';
  return notFound(`no route ${req.method} ${pathname}${hint}`);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURI(s);
  } catch {
    return s;
  }
}
