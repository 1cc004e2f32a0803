/**
 * buildApp(instance): the Fastify instance with every route module registered, the auth gate,
 * the error handler and the JSON body rules (no type coercion: bad input is a 4xx, never
 * silently converted; ARCHITECTURE "Two traps").
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { authenticate, type Principal } from './auth/principal.js';
import { cardRoutes } from './cards/routes.js';
import { errorHandler } from './http/error-handler.js';
import { systemRoutes } from './http/system-routes.js';
import type { Instance } from './instance.js';
import { notFound } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth gate for every /api/* request. */
    principal: Principal | null;
  }
}

/** Paths under /api/ that need no credentials. */
const PUBLIC_API_PATHS = new Set<string>();

/** Builds the HTTP app for an open instance (not yet listening). */
export function buildApp(inst: Instance): FastifyInstance {
  const app = Fastify({
    logger: { level: inst.config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    bodyLimit: inst.config.bodyLimitBytes,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } },
    trustProxy: false,
  });
  app.decorateRequest('principal', null);
  // the API speaks JSON only: a text/plain body is 415, not a string handed to the routes
  app.removeContentTypeParser('text/plain');
  // RFC 7396 merge patches may arrive with their own media type
  app.addContentTypeParser('application/merge-patch+json', { parseAs: 'string' }, (req, body, done) => {
    app.getDefaultJsonParser('error', 'error')(req, body as string, done);
  });
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    reply.header('Cache-Control', 'no-store');
    const path = req.url.split('?')[0];
    if (PUBLIC_API_PATHS.has(path)) return;
    req.principal = authenticate(req.headers, req.socket.remoteAddress, inst.config.agentApiToken);
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((req) => {
    throw notFound(`no route ${req.method} ${req.url.split('?')[0]}`);
  });
  systemRoutes(app, inst);
  cardRoutes(app, inst);
  return app;
}
