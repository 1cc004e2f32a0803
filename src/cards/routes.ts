/**
 * HTTP routes of the card store (docs/API.md "Manifests", "Data", "Rows", "Views").
 * Thin: parse, authorise (the global auth hook has already run), call a plain function, shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import type { Instance } from '../instance.js';
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
import { reorderCards, setCardEnabled, settingsCards, viewCards } from './card-order.js';
import { dataEtag } from './etag.js';
import { viewJsonWithData } from './view-data.js';

const IdParams = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const;
/** A body that must be a JSON object (its fields are checked by the plain functions). */
const AnyObject = { type: 'object' } as const;

type IdReq = FastifyRequest<{ Params: { id: string } }>;

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

function intQuery(q: Record<string, string | undefined>, name: string): number | undefined {
  const raw = q[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw badRequest(`${name} must be a whole number up to 2^53`, [
      { path: `query.${name}`, message: 'must be a whole number' },
    ]);
  }
  return Number(raw);
}

/** Registers every card route on `app`. */
export function cardRoutes(app: FastifyInstance, inst: Instance): void {
  const ctx = inst.cards;

  // the listing is served from a cached Buffer until a card, an error or any data changes
  let listCache: { key: string; body: Buffer } | undefined;
  app.get('/api/manifests', async (_req, reply) => {
    const key = `${ctx.registry.generation}:${ctx.store.changes.lastId}`;
    if (listCache?.key !== key) listCache = { key, body: Buffer.from(JSON.stringify(listCards(ctx))) };
    return reply.type('application/json; charset=utf-8').send(listCache.body);
  });

  app.post('/api/manifests', async (req, reply) => {
    const result = createCard(ctx, req.body, actorOf(req));
    return reply.status(201).send(result);
  });

  app.post('/api/manifests/reorder', { schema: { body: AnyObject } }, async (req) =>
    reorderCards(ctx, (req.body as { order?: unknown }).order),
  );

  app.get('/api/manifests/:id', { schema: { params: IdParams } }, async (req: IdReq, reply) => {
    const { json, version } = readCardJson(ctx, req.params.id);
    return sendJsonText(reply, json, dataEtag(version));
  });

  app.patch('/api/manifests/:id', { schema: { params: IdParams } }, async (req: IdReq) =>
    patchCard(ctx, req.params.id, req.body),
  );

  app.delete('/api/manifests/:id', { schema: { params: IdParams } }, async (req: IdReq) =>
    deleteCard(ctx, req.params.id, actorOf(req)),
  );

  app.get('/api/manifests/:id/data', { schema: { params: IdParams } }, async (req: IdReq, reply) => {
    const { json, etag } = readDataJson(ctx, req.params.id);
    return sendJsonText(reply, json, etag);
  });

  app.post(
    '/api/manifests/:id/data',
    { schema: { params: IdParams, body: AnyObject } },
    async (req: IdReq, reply) => {
      const body = req.body as { data?: unknown };
      const r = replaceData(ctx, req.params.id, body.data, { actor: actorOf(req), ifMatch: ifMatch(req) });
      reply.header('ETag', r.etag);
      return r;
    },
  );

  // ---- rows (row path grammar: docs/API.md "Rows") ----

  app.get('/api/manifests/:id/rows', { schema: { params: IdParams } }, async (req: IdReq, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const order = q.order;
    if (order !== undefined && order !== 'asc' && order !== 'desc') {
      throw badRequest('order must be "asc" or "desc"', [
        { path: 'query.order', message: 'must be asc or desc' },
      ]);
    }
    const { result, etag } = readRows(ctx, req.params.id, q.path, {
      order,
      limit: intQuery(q, 'limit'),
      offset: intQuery(q, 'offset'),
    });
    reply.header('ETag', etag);
    return result;
  });

  app.post(
    '/api/manifests/:id/rows',
    { schema: { params: IdParams, body: AnyObject } },
    async (req: IdReq, reply) => {
      const b = req.body as { path?: unknown; value?: unknown };
      const r = appendRow(ctx, req.params.id, b.path, b.value, {
        actor: actorOf(req),
        ifMatch: ifMatch(req),
      });
      return reply.status(201).header('ETag', r.etag).send(r);
    },
  );

  app.patch(
    '/api/manifests/:id/rows',
    { schema: { params: IdParams, body: AnyObject } },
    async (req: IdReq, reply) => {
      const b = req.body as { path?: unknown; changes?: unknown };
      const r = updateRow(ctx, req.params.id, b.path, b.changes, {
        actor: actorOf(req),
        ifMatch: ifMatch(req),
      });
      return reply.header('ETag', r.etag).send(r);
    },
  );

  app.delete('/api/manifests/:id/rows', { schema: { params: IdParams } }, async (req: IdReq, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const fromBody =
      req.body && typeof req.body === 'object' ? (req.body as { path?: unknown }).path : undefined;
    const path = q.path ?? fromBody;
    if (path === undefined) {
      throw badRequest('path is required (query ?path= or JSON body {path})', [
        { path: 'path', message: 'is required' },
      ]);
    }
    const r = removeRow(ctx, req.params.id, path, { actor: actorOf(req), ifMatch: ifMatch(req) });
    return reply.header('ETag', r.etag).send(r);
  });

  app.post(
    '/api/manifests/:id/rows/reorder',
    { schema: { params: IdParams, body: AnyObject } },
    async (req: IdReq, reply) => {
      const b = req.body as { path?: unknown; key?: unknown; order?: unknown };
      const r = reorderRows(ctx, req.params.id, b.path, b.key, b.order, {
        actor: actorOf(req),
        ifMatch: ifMatch(req),
      });
      return reply.header('ETag', r.etag).send(r);
    },
  );

  // ---- views and settings ----

  app.get('/api/views/:view', async (req, reply) => {
    const view = (req.params as { view: string }).view;
    const withData = (req.query as Record<string, string | undefined>).data;
    if (withData !== undefined && withData !== '0' && withData !== '1' && withData !== 'recent') {
      throw badRequest("data must be 1 (with each card's data), recent (generic cards' latest rows) or 0", [
        { path: 'query.data', message: 'must be 0, 1 or recent' },
      ]);
    }
    if (withData === '1' || withData === 'recent') {
      return sendJsonText(reply, viewJsonWithData(ctx, view, withData === '1' ? 'whole' : 'recent'));
    }
    return viewCards(ctx, view);
  });

  app.get('/api/settings/cards', async () => settingsCards(ctx));

  app.post('/api/settings/cards/:id/enable', { schema: { params: IdParams } }, async (req: IdReq) =>
    setCardEnabled(ctx, req.params.id, true),
  );

  app.post('/api/settings/cards/:id/disable', { schema: { params: IdParams } }, async (req: IdReq) =>
    setCardEnabled(ctx, req.params.id, false),
  );
}
