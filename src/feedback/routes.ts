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

/**
 * `since` as the ISO stamp the notes' `ts` are compared with (as text), or null when it names no
 * instant a stamp can write: what Date.parse cannot read, a day off the calendar (Date.parse reads
 * 2026-02-30 as March 2nd), or a year past 9999 or before 0000 (`+010000-01-01`, whose stamp
 * sorts before every note and returned them all).
 */
function sinceStamp(since: string): string | null {
  const day = since.match(/^\d{4}-\d{2}-\d{2}/)?.[0];
  const ms = Date.parse(since);
  if (Number.isNaN(ms) || (day && !isIsoDate(day))) return null;
  const stamp = new Date(ms).toISOString();
  return /^\d{4}-/.test(stamp) ? stamp : null;
}

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
      const after = since === undefined ? undefined : sinceStamp(since);
      if (after === null) {
        throw badRequest('since must be an ISO date-time', [
          { path: 'query.since', message: 'must be an ISO date-time' },
        ]);
      }
      const entries = readFeedback(inst.layout.metaDir, after);
      return { entries, cursor: entries.length ? entries[entries.length - 1].ts : (since ?? null) };
    },
  );
}
