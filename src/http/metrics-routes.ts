/**
 * `GET /metrics`: Prometheus exposition text, behind the admin token (KLEBB_ADMIN_TOKEN), and the
 * hook that counts every answered request by its route template (never the raw URL, whose ids
 * would make one series per card and could carry secrets).
 */
import type { FastifyInstance } from 'fastify';
import type { Instance } from '../instance.js';

/** Registers the metrics route and the counting hook. */
export function metricsRoutes(app: FastifyInstance, inst: Instance): void {
  const metrics = inst.metrics;
  // a callback hook, not an async one: no promise per request for work that never waits
  app.addHook('onResponse', (req, reply, done) => {
    const bytesIn = Number(req.headers['content-length'] ?? 0);
    metrics.observeRequest({
      route: req.routeOptions.url ?? 'unmatched',
      method: req.method,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
      bytesIn: Number.isFinite(bytesIn) ? bytesIn : 0,
    });
    done();
  });
  app.get('/metrics', { config: { auth: 'admin' } }, async (_req, reply) => {
    const { contentType, text } = await metrics.render();
    return reply.type(contentType).send(text);
  });
}
