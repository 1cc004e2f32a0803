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
import { badRequest } from '../errors.js';
import { normaliseTimeZone } from '../home/user-settings.js';
import type { Instance } from '../instance.js';
import { CardIdParams } from '../schemas/common.js';
import { EntryBody, EntryDeleteBody, EntryParams } from '../schemas/entries.js';
import { addEntry, deleteEntry, replaceEntry } from './card-entries.js';

/** Principal kinds that are people, bound by the write policy's date allowance. */
const PERSON_KINDS: readonly string[] = ['local', 'session'];

/** The header a client names its own IANA time zone in, for "today" of this write. */
export const TIME_ZONE_HEADER = 'x-klebb-time-zone';

/**
 * The time zone "today" is taken in for this request: the `X-Klebb-Time-Zone` header when sent (each
 * device its own, so a phone and a laptop in different zones each get their own today), else the
 * stored zone the browser last reported, else the server's. A fixed offset (`+05:30`, which
 * newer browsers may report) is read as its zone (offsetZone).
 * @throws 400 naming `headers.x-klebb-time-zone` when the header is not a known IANA zone.
 */
function requestTimeZone(req: FastifyRequest, inst: Instance): string | undefined {
  const h = req.headers[TIME_ZONE_HEADER];
  const raw = Array.isArray(h) ? h[0] : h;
  if (raw === undefined || raw === '') return inst.user.timeZone();
  const tz = normaliseTimeZone(raw);
  if (tz === undefined) {
    throw badRequest(
      `${TIME_ZONE_HEADER} must be an IANA time zone like Europe/Berlin, got "${String(raw).slice(0, 64)}"`,
      [{ path: `headers.${TIME_ZONE_HEADER}`, message: 'must be an IANA time zone' }],
    );
  }
  return tz;
}

function writeOptions(req: FastifyRequest, inst: Instance, expect: unknown) {
  const h = req.headers['if-match'];
  const kind = req.principal?.kind ?? 'local';
  const timeZone = requestTimeZone(req, inst);
  return {
    actor: req.principal?.actor ?? 'local',
    ifMatch: Array.isArray(h) ? h.join(',') : h,
    today: todayIn(timeZone),
    timeZone,
    skipDateRule: !PERSON_KINDS.includes(kind),
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
      const r = addEntry(ctx, req.params.id, req.body.entry, writeOptions(req, inst, req.body.expect));
      return reply.status(201).header('ETag', r.etag).send(r);
    },
  );

  app.put(
    '/api/manifests/:id/entries/:index',
    { schema: { params: EntryParams, body: EntryBody } },
    async (req, reply) => {
      const { id, index } = req.params;
      const r = replaceEntry(ctx, id, index, req.body.entry, writeOptions(req, inst, req.body.expect));
      return reply.header('ETag', r.etag).send(r);
    },
  );

  app.delete(
    '/api/manifests/:id/entries/:index',
    { schema: { params: EntryParams, body: Type.Optional(EntryDeleteBody) } },
    async (req, reply) => {
      const { id, index } = req.params;
      const r = deleteEntry(ctx, id, index, writeOptions(req, inst, req.body?.expect));
      return reply.header('ETag', r.etag).send(r);
    },
  );
}
