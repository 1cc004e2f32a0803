/**
 * `/api/conversations`: list by recency, create,
 * fetch, rename, replace messages, delete, and `POST /search` with the needle in the body (chat
 * text stays out of URLs and access logs). Also the legacy `/api/chat/history` transcript.
 */
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../errors.js';
import type { Instance } from '../../instance.js';
import { foldLegacyHistory, legacyHistory } from './legacy-history.js';

const IdParams = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const;
/** A body that must be a JSON object (its fields are checked by the plain functions). */
const AnyObject = { type: 'object' } as const;

/** Registers the conversation routes. */
export function conversationRoutes(app: FastifyInstance, inst: Instance): void {
  const store = inst.conversations;
  type IdReq = { Params: { id: string } };

  app.get('/api/conversations', async () => ({ conversations: store.list() }));

  app.post('/api/conversations', { schema: { body: AnyObject } }, async (req, reply) => {
    const b = req.body as { title?: unknown; messages?: unknown };
    return reply.status(201).send({ conversation: store.create(b) });
  });

  app.post('/api/conversations/search', { schema: { body: AnyObject } }, async (req) => ({
    conversations: store.search((req.body as { q?: unknown }).q),
  }));

  app.get<IdReq>('/api/conversations/:id', { schema: { params: IdParams } }, async (req) => ({
    conversation: store.require(req.params.id),
  }));

  app.patch<IdReq>(
    '/api/conversations/:id',
    { schema: { params: IdParams, body: AnyObject } },
    async (req) => {
      const body = req.body as { title?: unknown };
      // a rename must say what to: a body without `title` is a mistake, not "clear the title"
      if (!Object.hasOwn(body, 'title')) {
        throw badRequest('title is required (null clears it)', [{ path: 'title', message: 'is required' }]);
      }
      return { conversation: store.rename(req.params.id, body.title) };
    },
  );

  app.delete<IdReq>('/api/conversations/:id', { schema: { params: IdParams } }, async (req) => {
    inst.turns.stop(req.params.id);
    store.delete(req.params.id);
    return { ok: true, id: req.params.id };
  });

  app.put<IdReq>(
    '/api/conversations/:id/messages',
    { schema: { params: IdParams, body: AnyObject } },
    async (req) => {
      store.assertExists(req.params.id);
      // a running turn would append its reply to a list that no longer holds its question
      inst.turns.assertFree(req.params.id);
      return {
        conversation: store.replaceMessages(req.params.id, (req.body as { messages?: unknown }).messages),
      };
    },
  );

  // ---- legacy single transcript (GET/PUT/DELETE /api/chat/history) ----
  const legacy = legacyHistory(inst.layout.home);
  app.get('/api/chat/history', async () => ({ messages: legacy.read() }));
  app.put('/api/chat/history', { schema: { body: AnyObject } }, async (req) => ({
    ok: true,
    messages: legacy.write((req.body as { messages?: unknown }).messages),
  }));
  app.delete('/api/chat/history', async () => {
    legacy.clear();
    return { ok: true };
  });
  app.post('/api/chat/history/fold', async () => foldLegacyHistory(legacy, store));
}
