/**
 * HTTP routes of the web app's entry writes (docs/API.md "Entries (the web app's writes)"):
 * `POST /api/manifests/:id/entries`, `PUT` and `DELETE /api/manifests/:id/entries/:index`.
 * Thin: parse, decide who is bound by the date allowance, call card-entries.ts, shape.
 *
 * People (the local browser, later signed-in sessions) are bound by the card's date allowance;
 * agents with a bearer token are not (they act for the owner). "Today" is the person's
 * calendar day in the time zone their browser reported (until then the server's).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { todayIn } from '../common/dates.js';
import { inBody } from '../http/body-fields.js';
import { sendReplay } from '../http/idempotent-replies.js';
import type { Instance } from '../instance.js';
import { CardIdParams } from '../schemas/common.js';
import { EntryBody, EntryDeleteBody, EntryParams } from '../schemas/entries.js';
import { addEntry, deleteEntry, replaceEntry } from './card-entries.js';
import { isPersonRequest, requestTimeZone } from './request-person-day.js';

function writeOptions(req: FastifyRequest, inst: Instance, expect: unknown) {
  const h = req.headers['if-match'];
  const timeZone = requestTimeZone(req, inst);
  return {
    actor: req.principal?.actor ?? 'local',
    ifMatch: Array.isArray(h) ? h.join(',') : h,
    today: todayIn(timeZone),
    timeZone,
    skipDateRule: !isPersonRequest(req),
    expect,
  };
}

/** Registers the entry routes on `app`. */
export function entryRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = inst.cards;

  app.post(
    '/api/manifests/:id/entries',
    { schema: { params: CardIdParams, body: EntryBody } },
    async (req, reply) => {
      // a retry of a write whose answer was lost (same Idempotency-Key) gets that answer again
      const once = inst.replies.begin(req);
      if (once.replay) return sendReplay(reply, once.replay);
      const r = inBody(() =>
        addEntry(ctx, req.params.id, req.body.entry, writeOptions(req, inst, req.body.expect)),
      );
      once.keep(201, r, r.etag);
      return reply.status(201).header('ETag', r.etag).send(r);
    },
  );

  app.put(
    '/api/manifests/:id/entries/:index',
    { schema: { params: EntryParams, body: EntryBody } },
    async (req, reply) => {
      const { id, index } = req.params;
      const r = inBody(() =>
        replaceEntry(ctx, id, index, req.body.entry, writeOptions(req, inst, req.body.expect)),
      );
      return reply.header('ETag', r.etag).send(r);
    },
  );

  app.delete(
    '/api/manifests/:id/entries/:index',
    { schema: { params: EntryParams, body: Type.Optional(EntryDeleteBody) } },
    async (req, reply) => {
      const { id, index } = req.params;
      const r = inBody(() => deleteEntry(ctx, id, index, writeOptions(req, inst, req.body?.expect)));
      return reply.header('ETag', r.etag).send(r);
    },
  );
}
