/**
 * `POST /api/feedback` (the in-app form) and `GET /api/admin/feedback?since=` (operator, with
 * the KLEBB_ADMIN_TOKEN bearer).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { INSTANT_MESSAGE, instantStamp } from '../common/instants.js';
import { badRequest } from '../errors.js';
import { inBody } from '../http/body-fields.js';
import type { Instance } from '../instance.js';
import { appendFeedback, readFeedback, shapeFeedback } from './feedback-log.js';

/** `GET /api/admin/feedback?since=`: entries after this ISO date-time (the last `cursor`). */
const SinceQuery = Type.Object({ since: Type.Optional(Type.String()) });

/** Registers the feedback routes. */
export function feedbackRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/api/feedback', async (req, reply) => {
    const entry = inBody(() => shapeFeedback(req.body));
    appendFeedback(inst.layout.metaDir, entry);
    return reply.status(201).send({ ok: true });
  });

  app.get(
    '/api/admin/feedback',
    { config: { auth: 'admin' }, schema: { querystring: SinceQuery } },
    async (req) => {
      const since = req.query.since;
      const after = since === undefined ? undefined : instantStamp(since);
      if (after === null) {
        throw badRequest('since must be an ISO date-time', [
          { path: 'query.since', message: INSTANT_MESSAGE },
        ]);
      }
      const entries = readFeedback(inst.layout.metaDir, after);
      return { entries, cursor: entries.length ? entries[entries.length - 1].ts : (since ?? null) };
    },
  );
}
