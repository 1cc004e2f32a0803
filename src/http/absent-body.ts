/**
 * A request sent without any body (`curl -X POST`, a bare `fetch`: no Content-Type, nothing after
 * the headers) to a route that takes a JSON object. When every field of that object is optional
 * (`{title?, messages?}`) it is read as `{}`: there is nothing the caller left out. When the route
 * needs fields, the 400 says the body is missing and names them, where the schema check would
 * say "body must be object", which reads as if a wrong body had come.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import { badRequest } from '../errors.js';

/** The fields an object schema requires, or null when `schema` is no object schema. */
function requiredFields(schema: unknown): string[] | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as { type?: unknown; required?: unknown };
  if (s.type !== 'object') return null;
  return Array.isArray(s.required) ? s.required.map(String) : [];
}

/** True when the request carried no body at all (a JSON `null` has a Content-Type). */
function nothingSent(req: FastifyRequest): boolean {
  return (req.body === undefined || req.body === null) && req.headers['content-type'] === undefined;
}

/** Installs the rule on every route registered after this call. */
export function absentBodyIsEmptyObject(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const required = requiredFields(route.schema?.body);
    if (required === null) return;
    const check = (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
      if (!nothingSent(req)) return done();
      if (required.length === 0) {
        req.body = {};
        return done();
      }
      const message = `is missing: send a JSON object with ${required.join(', ')} and the header Content-Type: application/json`;
      done(badRequest(`body ${message}`, [{ path: 'body', message }]));
    };
    const own = route.preValidation;
    route.preValidation = [check as preValidationHookHandler, ...(own ? [own].flat() : [])];
  });
}
