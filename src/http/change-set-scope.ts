/**
 * Every REST request is one change set: each route handler runs in a fresh change scope whose
 * actor is the caller's (`web`, `token:<name>`, …), so all the writes one request makes (a card
 * and the welcome card it hides, say) are undone together. See src/store/change-scope.ts.
 */
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { inChangeSet } from '../store/change-scope.js';

/** Wraps every route registered after this call. */
export function changeSetPerRequest(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function (this: FastifyInstance, req, reply) {
      return inChangeSet({ actor: req.principal?.actor ?? 'local', fresh: true }, () =>
        handler.call(this, req, reply),
      );
    } as RouteHandlerMethod;
  });
}
