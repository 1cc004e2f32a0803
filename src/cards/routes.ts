/**
 * HTTP routes of the card store (docs/API.md "Manifests", "Data", "Rows", "Views").
 * Thin: parse, authorise (the global auth hook has already run), call a plain function, shape.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import { inBody } from '../http/body-fields.js';
import { sendReplay } from '../http/idempotent-replies.js';
import type { Instance } from '../instance.js';
import { CardIdParams } from '../schemas/common.js';
import {
  CardReorderBody,
  DataBody,
  ManifestBody,
  ManifestPatch,
  ViewParams,
  ViewQuery,
} from '../schemas/manifests.js';
import {
  AppendRowInput,
  ReadRowsInput,
  RemoveRowOptional,
  ReorderRowsInput,
  UpdateRowInput,
} from '../schemas/rows.js';
import { createCard, deleteCard, listCards, patchCard, readCardJson } from './card-crud.js';
import {
  appendRow,
  readDataJson,
  readRows,
  removeRow,
  reorderRows,
  replaceData,
  updateRow,
} from './card-data.js';
import { cardEtag } from './card-etag.js';
import { reorderCards, setCardEnabled, settingsCards, viewCards } from './card-order.js';
import { assertIfMatch } from './etag.js';
import { personDayOf } from './request-person-day.js';
import { viewJsonWithData } from './view-data.js';

function actorOf(req: FastifyRequest): string {
  return req.principal?.actor ?? 'local';
}

function ifMatch(req: FastifyRequest): string | undefined {
  const h = req.headers['if-match'];
  return Array.isArray(h) ? h.join(',') : h;
}

function sendJsonText(reply: FastifyReply, json: string | Buffer, etag?: string) {
  if (etag) reply.header('ETag', etag);
  // a Buffer goes out faster than a long string (res.end(string) re-encodes it)
  return reply
    .type('application/json; charset=utf-8')
    .send(typeof json === 'string' ? Buffer.from(json) : json);
}

/** Registers every card route on `app`. */
export function cardRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = inst.cards;
  const params = CardIdParams;

  // the listing is served from a cached Buffer until a card, an error or any data changes
  let listCache: { key: string; body: Buffer } | undefined;
  app.get('/api/manifests', async (_req, reply) => {
    const key = `${ctx.registry.generation}:${ctx.store.changes.lastId}`;
    if (listCache?.key !== key) listCache = { key, body: Buffer.from(JSON.stringify(listCards(ctx))) };
    return reply.type('application/json; charset=utf-8').send(listCache.body);
  });

  app.post('/api/manifests', { schema: { body: ManifestBody } }, async (req, reply) => {
    const result = createCard(ctx, req.body, actorOf(req));
    return reply.status(201).send(result);
  });

  app.post('/api/manifests/reorder', { schema: { body: CardReorderBody } }, async (req, reply) => {
    const r = inBody(() => reorderCards(ctx, req.body.order, { ifMatch: ifMatch(req) }));
    reply.header('ETag', r.etag);
    return r;
  });

  app.get('/api/manifests/:id', { schema: { params } }, async (req, reply) => {
    const { json } = readCardJson(ctx, req.params.id);
    // the answer holds the file and the data: its tag changes with either (card-etag.ts)
    return sendJsonText(reply, json, cardEtag(ctx, req.params.id));
  });

  app.patch('/api/manifests/:id', { schema: { params, body: ManifestPatch } }, async (req, reply) => {
    const r = patchCard(ctx, req.params.id, req.body, { ifMatch: ifMatch(req) });
    const etag = cardEtag(ctx, req.params.id);
    reply.header('ETag', etag);
    return { ...r, etag };
  });

  app.delete('/api/manifests/:id', { schema: { params } }, async (req) =>
    deleteCard(ctx, req.params.id, actorOf(req), { ifMatch: ifMatch(req) }),
  );

  app.get('/api/manifests/:id/data', { schema: { params } }, async (req, reply) => {
    const { json, etag } = readDataJson(ctx, req.params.id);
    return sendJsonText(reply, json, etag);
  });

  app.post('/api/manifests/:id/data', { schema: { params, body: DataBody } }, async (req, reply) => {
    const r = inBody(() =>
      replaceData(ctx, req.params.id, req.body.data, { actor: actorOf(req), ifMatch: ifMatch(req) }),
    );
    reply.header('ETag', r.etag);
    return r;
  });

  // ---- rows (row path grammar: docs/API.md "Rows") ----

  // a parameter it does not take (`from`, `date`, a misspelt `limt`) is 400 naming it: ignored,
  // it would answer every row as if a filter had been applied
  const ReadRowsQuery = Type.Object(ReadRowsInput.properties, { additionalProperties: false });

  app.get(
    '/api/manifests/:id/rows',
    { schema: { params, querystring: ReadRowsQuery } },
    async (req, reply) => {
      const { path, order, limit, offset } = req.query;
      const { result, etag } = readRows(ctx, req.params.id, path, { order, limit, offset });
      // a page after the first sent with the first's ETag: rows added or removed in between would
      // shift the offset, repeating or skipping rows, so a changed card is 412 (read from the start)
      const wanted = ifMatch(req);
      if (wanted !== undefined) assertIfMatch(wanted, [etag, cardEtag(ctx, req.params.id)]);
      reply.header('ETag', etag);
      return result;
    },
  );

  // a person's row at the top of a dated card has its date checked as the entry forms and the
  // chat's row tools check it: a day after their today needs futureAllowed (422 DATE_NOT_ALLOWED)
  app.post('/api/manifests/:id/rows', { schema: { params, body: AppendRowInput } }, async (req, reply) => {
    // a retry of an append whose answer was lost (same Idempotency-Key) gets that answer again
    const once = inst.replies.begin(req);
    if (once.replay) return sendReplay(reply, once.replay);
    const r = inBody(() =>
      appendRow(ctx, req.params.id, req.body.path, req.body.value, {
        actor: actorOf(req),
        ifMatch: ifMatch(req),
        personDay: personDayOf(req, inst),
      }),
    );
    // the answer is returned, not sent: an async handler that returns `reply` makes Fastify
    // await the reply (listeners on the socket until it finishes), a cost on every write
    once.keep(201, r, r.etag);
    reply.status(201).header('ETag', r.etag);
    return r;
  });

  app.patch('/api/manifests/:id/rows', { schema: { params, body: UpdateRowInput } }, async (req, reply) => {
    const r = inBody(() =>
      updateRow(ctx, req.params.id, req.body.path, req.body.changes, {
        actor: actorOf(req),
        ifMatch: ifMatch(req),
        personDay: personDayOf(req, inst),
      }),
    );
    reply.header('ETag', r.etag);
    return r;
  });

  app.delete(
    '/api/manifests/:id/rows',
    { schema: { params, querystring: RemoveRowOptional, body: Type.Optional(RemoveRowOptional) } },
    async (req, reply) => {
      const path = req.query.path ?? req.body?.path;
      if (path === undefined) {
        throw badRequest('path is required (query ?path= or JSON body {path})', [
          { path: 'query.path', message: 'is required (or send it as the JSON body {"path": …})' },
        ]);
      }
      const r = removeRow(ctx, req.params.id, path, { actor: actorOf(req), ifMatch: ifMatch(req) });
      reply.header('ETag', r.etag);
      return r;
    },
  );

  app.post(
    '/api/manifests/:id/rows/reorder',
    { schema: { params, body: ReorderRowsInput } },
    async (req, reply) => {
      const { path, key, order } = req.body;
      const r = inBody(() =>
        reorderRows(ctx, req.params.id, path, key, order, { actor: actorOf(req), ifMatch: ifMatch(req) }),
      );
      reply.header('ETag', r.etag);
      return r;
    },
  );

  // ---- views and settings ----

  app.get(
    '/api/views/:view',
    { schema: { params: ViewParams, querystring: ViewQuery } },
    async (req, reply) => {
      const { view } = req.params;
      const withData = req.query.data;
      if (withData === '1' || withData === 'recent') {
        return sendJsonText(reply, viewJsonWithData(ctx, view, withData === '1' ? 'whole' : 'recent'));
      }
      return viewCards(ctx, view);
    },
  );

  app.get('/api/settings/cards', async (_req, reply) => {
    const r = settingsCards(ctx);
    reply.header('ETag', r.etag);
    return r;
  });

  app.post('/api/settings/cards/:id/enable', { schema: { params } }, async (req, reply) => {
    const r = setCardEnabled(ctx, req.params.id, true, { ifMatch: ifMatch(req) });
    reply.header('ETag', cardEtag(ctx, req.params.id));
    return r;
  });

  app.post('/api/settings/cards/:id/disable', { schema: { params } }, async (req, reply) => {
    const r = setCardEnabled(ctx, req.params.id, false, { ifMatch: ifMatch(req) });
    reply.header('ETag', cardEtag(ctx, req.params.id));
    return r;
  });
}
