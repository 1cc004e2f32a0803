/**
 * `POST /api/feedback` (the in-app form) and `GET /api/admin/feedback?since=` (operator, with
 * the KLEBB_ADMIN_TOKEN bearer).
 */
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';
import type { Instance } from '../instance.js';
import { appendFeedback, readFeedback, shapeFeedback } from './feedback-log.js';

/** Registers the feedback routes. */
export function feedbackRoutes(app: FastifyInstance, inst: Instance): void {
  app.post('/api/feedback', async (req, reply) => {
    const entry = shapeFeedback(req.body);
    appendFeedback(inst.layout.metaDir, entry);
    return reply.status(201).send({ ok: true });
  });

  app.get('/api/admin/feedback', { config: { auth: 'admin' } }, async (req) => {
    const since = (req.query as { since?: string }).since;
    if (since !== undefined && Number.isNaN(Date.parse(since))) {
      throw badRequest('since must be an ISO date-time', [
        { path: 'query.since', message: 'must be an ISO date-time' },
      ]);
    }
    const entries = readFeedback(
      inst.layout.metaDir,
      since === undefined ? undefined : new Date(since).toISOString(),
    );
    return { entries, cursor: entries.length ? entries[entries.length - 1].ts : (since ?? null) };
  });
}
