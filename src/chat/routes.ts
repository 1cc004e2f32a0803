/**
 * `GET /api/chat/status` and `POST /api/chat` (seed section 1; REFERENCE section 4 "Chat").
 * Buffered mode answers `{reply, speak?, followup?, capped?}` with the status the turn ended
 * with; `stream: true` answers server-sent events (status, token, reset, reply, error, stopped,
 * done) with an id on each. Errors that happen before the stream opens (400, 503) stay JSON.
 */
import type { FastifyInstance } from 'fastify';
import { notFound, unavailable } from '../errors.js';
import { SseStream } from '../http/sse.js';
import type { TurnEvent } from './agent/turn-events.js';
import { parseChatRequest } from './chat-request.js';
import type { ChatService } from './chat-service.js';

/** Registers the chat routes. */
export function chatRoutes(app: FastifyInstance, chat: ChatService): void {
  app.get('/api/chat/status', async () => ({ configured: chat.configured() }));

  app.post('/api/chat', async (req, reply) => {
    const body = parseChatRequest(req.body);
    if (!chat.configured()) {
      throw unavailable('chat is not configured: set CHAT_ENDPOINT_URL (and CHAT_API_KEY, CHAT_MODEL)', 'CHAT_NOT_CONFIGURED');
    }
    if (body.conversationId !== undefined) {
      throw notFound(`no conversation with id "${body.conversationId}"`, 'CONVERSATION_NOT_FOUND');
    }
    // a client going away never stops the turn (seed): only DELETE /api/chat/turn/:id will
    const stop = new AbortController();
    if (!body.stream) {
      const result = await chat.run(body, () => {}, stop.signal);
      if (result.reason === 'stopped') return { stopped: true };
      if (result.payload) return reply.status(result.status).send(result.payload);
      return reply.status(result.status).send({ error: result.error, code: 'GATEWAY_ERROR' });
    }
    reply.hijack();
    const sse = new SseStream(reply.raw);
    let id = 0;
    const emit = (e: TurnEvent) => sse.send(e.type, e.data, ++id);
    try {
      await chat.run(body, emit, stop.signal);
    } catch (err) {
      req.log.error({ err }, 'chat turn failed');
      emit({ type: 'error', data: { error: 'The chat turn failed unexpectedly. Please try again.', status: 500 } });
      emit({ type: 'done', data: {} });
    } finally {
      sse.close();
    }
  });
}
