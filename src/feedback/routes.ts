/**
 * `POST /api/feedback` (the in-app form) and `GET /api/admin/feedback?since=` (operator, with
 * the KLEBB_ADMIN_TOKEN bearer).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { isIsoDate } from '../common/dates.js';
import { badRequest } from '../errors.js';
import type { Instance } from '../instance.js';
import { appendFeedback, readFeedback, shapeFeedback } from './feedback-log.js';

/** `GET /api/admin/feedback?since=`: entries after this ISO date-time (the last `cursor`). */
const SinceQuery = Type.Object({ since: Type.Optional(Type.String()) });

/** Registers the feedback routes. */
export function feedbackRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/api/feedback', async (req, reply) => {
    const entry = shapeFeedback(req.body);
    appendFeedback(inst.layout.metaDir, entry);
    return reply.status(201).send({ ok: true });
  });

  app.get(
    '/api/admin/feedback',
    { config: { auth: 'admin' }, schema: { querystring: SinceQuery } },
    async (req) => {
      const since = req.query.since;
      // Date.parse reads 2026-02-30 as March 2nd: the day itself must be one of the calendar
      const day = since?.match(/^\d{4}-\d{2}-\d{2}/)?.[0];
      if (since !== undefined && (Number.isNaN(Date.parse(since)) || (day && !isIsoDate(day)))) {
        throw badRequest('since must be an ISO date-time', [
          { path: 'query.since', message: 'must be an ISO date-time' },
        ]);
      }
      const entries = readFeedback(
        inst.layout.metaDir,
        since === undefined ? undefined : new Date(since).toISOString(),
      );
      return { entries, cursor: entries.length ? entries[entries.length - 1].ts : (since ?? null) };
    },
  );
}
