/**
 * The Health Auto Export routes and the Apple Health
 * upload. Token, status and discoveries need the normal auth (session or agent bearer); the
 * webhook does its own (hae/webhook/routes.ts).
 *
 * - `GET /api/health-auto-export/token` → `{token, lastRegeneratedAt}` (nulls when none)
 * - `POST /api/health-auto-export/token` → 201 `{token, lastRegeneratedAt}`; 409 if one exists
 * - `POST /api/health-auto-export/token/regenerate` → `{token, lastRegeneratedAt}` (old one invalid at once)
 * - `DELETE /api/health-auto-export/token` → `{ok, tokenSet: false}` (the webhook then answers 501)
 * - `GET /api/health-auto-export/status` → `{tokenSet, endpointUrl, lastPush}`
 * - `GET /api/health-auto-export/discoveries` → `{undismissed: {supported: {<category>: [{metric,
 *   firstSeenAt}]}, unsupported: [...]}, dismissed: [...]}`
 * - `POST /api/health-auto-export/discoveries/:metric/dismiss|unhide` → `{ok, metric, dismissed}`;
 *   404 for a metric never seen or another action
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { trustedBase } from '../auth/origin.js';
import { notFound } from '../errors.js';
import type { Instance } from '../instance.js';
import { appleHealthImportRoute } from './apple-health/routes.js';
import { resolveMetric } from './hae/format/catalogue.js';
import type { HaeIngest } from './hae/service.js';
import { HAE_WEBHOOK_PATH, haeWebhookRoute } from './hae/webhook/routes.js';

/**
 * The URL a phone should post to: HEALTH_ORIGIN when set, else the loopback Host or the address
 * the request arrived on (src/auth/origin.ts trustedBase), never an arbitrary Host header.
 */
export function endpointUrl(
  req: Pick<FastifyRequest, 'headers' | 'socket'>,
  origin: string | undefined,
): string {
  return `${trustedBase(req.headers, req.socket, origin)}${HAE_WEBHOOK_PATH}`;
}

/** Registers every ingestion route for the instance's HAE ingestion. */
export function ingestRoutes(app: FastifyInstance, inst: Pick<Instance, 'hae' | 'config'>): void {
  const svc: HaeIngest = inst.hae;
  haeWebhookRoute(app, svc);
  appleHealthImportRoute(app, svc);

  app.get('/api/health-auto-export/token', async () => svc.tokens.read());

  app.post('/api/health-auto-export/token', async (_req, reply) => {
    return reply.code(201).send(svc.tokens.generate());
  });

  app.post('/api/health-auto-export/token/regenerate', async () => svc.tokens.regenerate());

  app.delete('/api/health-auto-export/token', async () => {
    svc.tokens.clear();
    return { ok: true, tokenSet: false };
  });

  app.get('/api/health-auto-export/status', async (req) => ({
    tokenSet: svc.tokens.read().token !== null,
    endpointUrl: endpointUrl(req, inst.config.auth.origin),
    lastPush: svc.lastPush('hae'),
  }));

  app.get('/api/health-auto-export/discoveries', async () => svc.discoveries());

  app.post<{ Params: { metric: string; action: string } }>(
    '/api/health-auto-export/discoveries/:metric/:action',
    async (req) => {
      const { metric, action } = req.params;
      if (action !== 'dismiss' && action !== 'unhide') {
        throw notFound(`unknown action "${action}": use dismiss or unhide`, 'UNKNOWN_ACTION');
      }
      if (!svc.setDismissed(metric, action === 'dismiss')) {
        throw notFound(`metric "${metric}" was never seen in a push`, 'UNKNOWN_METRIC');
      }
      return {
        ok: true,
        metric: resolveMetric(metric)?.reads ?? metric.trim().toLowerCase(),
        dismissed: action === 'dismiss',
      };
    },
  );
}
