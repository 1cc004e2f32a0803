/**
 * `/api/conversations`: list by recency, create,
 * fetch, rename, replace messages, delete, and `POST /search` with the needle in the body (chat
 * text stays out of URLs and access logs). Also the legacy `/api/chat/history` transcript.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../errors.js';
import { inBody } from '../../http/body-fields.js';
import type { Instance } from '../../instance.js';
import {
  ConversationParams,
  MessagesBody,
  NewConversation,
  RenameConversation,
  SearchBody,
} from '../../schemas/conversations.js';
import { foldLegacyHistory, legacyHistory } from './legacy-history.js';

/** Registers the conversation routes. */
export function conversationRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const store = inst.conversations;
  const params = ConversationParams;

  app.get('/api/conversations', async () => ({ conversations: store.list() }));

  app.post('/api/conversations', { schema: { body: NewConversation } }, async (req, reply) => {
    return reply.status(201).send({ conversation: inBody(() => store.create(req.body)) });
  });

  app.post('/api/conversations/search', { schema: { body: SearchBody } }, async (req) => ({
    conversations: inBody(() => store.search(req.body.q)),
  }));

  app.get('/api/conversations/:id', { schema: { params } }, async (req) => ({
    conversation: store.require(req.params.id),
  }));

  app.patch('/api/conversations/:id', { schema: { params, body: RenameConversation } }, async (req) => {
    const body = req.body;
    // a rename must say what to: a body without `title` is a mistake, not "clear the title"
    if (!Object.hasOwn(body, 'title')) {
      throw badRequest('title is required (null clears it)', [
        { path: 'body.title', message: 'is required' },
      ]);
    }
    return { conversation: inBody(() => store.rename(req.params.id, body.title)) };
  });

  app.delete('/api/conversations/:id', { schema: { params } }, async (req) => {
    inst.turns.stop(req.params.id);
    store.delete(req.params.id);
    return { ok: true, id: req.params.id };
  });

  app.put('/api/conversations/:id/messages', { schema: { params, body: MessagesBody } }, async (req) => {
    store.assertExists(req.params.id);
    // a running turn would append its reply to a list that no longer holds its question
    inst.turns.assertFree(req.params.id);
    return {
      conversation: inBody(() => store.replaceMessages(req.params.id, req.body.messages)),
    };
  });

  // ---- legacy single transcript (GET/PUT/DELETE /api/chat/history) ----
  const legacy = legacyHistory(inst.layout.home);
  app.get('/api/chat/history', async () => ({ messages: legacy.read() }));
  app.put('/api/chat/history', { schema: { body: MessagesBody } }, async (req) => ({
    ok: true,
    messages: inBody(() => legacy.write(req.body.messages)),
  }));
  app.delete('/api/chat/history', async () => {
    legacy.clear();
    return { ok: true };
  });
  app.post('/api/chat/history/fold', async () => foldLegacyHistory(legacy, store));
}
