/**
 * An encapsulated Fastify scope whose routes receive the raw request stream as `req.body`: the
 * global JSON parser and body limit do not apply there (they would buffer and refuse a 100 MB
 * HAE body before our own limits run, and could not answer 413 while the body is still
 * arriving). Every content type, and a missing one, goes to the same pass-through parser.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { noteUpload } from '../http/client-errors.js';

/**
 * Registers `routes` inside a child scope with the pass-through parser. The routes read
 * `req.body` as a Readable (or undefined when the request has no body) and must consume or
 * `resume()` it.
 */
export function rawBodyScope(app: FastifyInstance, routes: (scope: FastifyInstance) => void): void {
  app.register(async (scope) => {
    // the body-decoding hook leaves these routes' bodies encoded: receiveBody decodes them under
    // the route's own limit (src/http/body-encoding.ts)
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), rawBody: true };
    });
    // a body cut short is answered as an upload that broke off (src/http/client-errors.ts)
    scope.addHook('onRequest', (req, _reply, done) => {
      noteUpload(req.raw);
      done();
    });
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    routes(scope);
  });
}

/** The request body stream a rawBodyScope route got, or undefined when there was none. */
export function bodyStream(body: unknown): Readable | undefined {
  return body !== null && typeof body === 'object' && typeof (body as Readable).pipe === 'function'
    ? (body as Readable)
    : undefined;
}
