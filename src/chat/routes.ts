/**
 * Chat routes:
 * - `GET /api/chat/status` → `{configured}`.
 * - `POST /api/chat`: buffered `{reply, speak?, followup?, capped?}` with the turn's status, or
 *   `stream: true` server-sent events (status, token, reset, reply, error, stopped, done), ids on
 *   each. With `conversationId` the turn is detached: the hub runs it and this request is one
 *   listener. Errors before the stream opens (400, 404, 409, 503) stay JSON.
 * - `GET /api/chat/turn/:conversationId`: reattach (replay after Last-Event-ID or ?after=N, then
 *   live until done); 204 when nothing runs or lingers.
 * - `DELETE /api/chat/turn/:conversationId`: stop → `{ok}`; 404 when nothing runs.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { badRequest, type ErrorCode, notFound, unavailable } from '../errors.js';
import { inBody } from '../http/body-fields.js';
import { SseStream } from '../http/sse.js';
import { WHOLE_NUMBER_TEXT } from '../http/url-numbers.js';
import type { Instance } from '../instance.js';
import { TurnParams, TurnQuery } from '../schemas/conversations.js';
import type { TurnEvent, TurnResult } from './agent/turn-events.js';
import { approvalRoutes } from './approvals/routes.js';
import { parseChatRequest, turnRequest } from './chat-request.js';
import type { ChatService } from './chat-service.js';
import { startConversationTurn } from './turns/conversation-turn.js';
import type { NumberedEvent, TurnHub } from './turns/turn-hub.js';

function bufferedAnswer(reply: FastifyReply, result: TurnResult | undefined) {
  const failed = (error: string | undefined, code: ErrorCode) => ({ error, code });
  if (!result) return reply.status(500).send(failed('The chat turn failed unexpectedly.', 'INTERNAL'));
  if (result.reason === 'stopped') return reply.send({ stopped: true });
  if (result.payload) return reply.status(result.status).send(result.payload);
  return reply.status(result.status).send(failed(result.error, 'GATEWAY_ERROR'));
}

/** Streams a hub turn to one client: replay after `afterId`, then live events until `done`. */
function streamHubTurn(
  hub: TurnHub,
  onSlowClient: () => void,
  conversationId: string,
  afterId: number | undefined,
  reply: FastifyReply,
): boolean {
  let sse: SseStream | undefined;
  const write = (e: NumberedEvent) => {
    sse?.send(e.event.type, e.event.data, e.id);
    if (e.event.type === 'done') sse?.close();
  };
  const att = hub.attach(conversationId, afterId, write);
  if (!att) return false;
  reply.hijack();
  sse = new SseStream(reply.raw, { onSlowClient });
  reply.raw.on('close', att.detach);
  sse.sendMany(att.replay.map((e) => ({ event: e.event.type, data: e.event.data, id: e.id })));
  if (att.done || att.replay.some((e) => e.event.type === 'done')) sse.close();
  return true;
}

/**
 * The event id to replay after: the `Last-Event-ID` header (what a browser's EventSource sends
 * when it reconnects) wins over `?after=`; none (or an empty one) is the turn's start. An id not
 * written as a whole number in decimal digits is 400 naming where it came from.
 */
function parseAfter(lastEventId: unknown, after: unknown): number | undefined {
  const fromHeader = typeof lastEventId === 'string' && lastEventId !== '';
  const raw = fromHeader ? lastEventId : typeof after === 'string' ? after : '';
  if (raw === '') return undefined;
  if (!WHOLE_NUMBER_TEXT.test(raw) || !Number.isSafeInteger(Number(raw)))
    throw badRequest('Last-Event-ID / after must be an event id (a whole number)', [
      {
        path: fromHeader ? 'headers.last-event-id' : 'query.after',
        message: 'must be a whole number written in decimal digits (like 0 or 25)',
      },
    ]);
  return Number(raw);
}

/** Registers the chat routes. */
export function chatRoutes(app: FastifyInstance, chat: ChatService, inst: Instance): void {
  const hub = inst.turns;
  const onSlowClient = () => inst.metrics.observeSlowClient('chat');

  app.get('/api/chat/status', async () => ({ configured: chat.configured() }));
  approvalRoutes(app, chat.approvals);

  app.post('/api/chat', async (req, reply) => {
    const body = inBody(() => parseChatRequest(req.body));
    if (!chat.configured()) {
      throw unavailable(
        'chat is not configured: set CHAT_ENDPOINT_URL (and CHAT_API_KEY, CHAT_MODEL)',
        'CHAT_NOT_CONFIGURED',
      );
    }
    const conversationId = body.conversationId;
    if (conversationId !== undefined) {
      const { result } = startConversationTurn(
        { chat, conversations: inst.conversations, turns: hub },
        { ...body, conversationId },
      );
      if (!body.stream) return bufferedAnswer(reply, await result);
      streamHubTurn(hub, onSlowClient, conversationId, undefined, reply);
      return reply;
    }
    // no conversation: the client owns the transcript (less what the content filter refused);
    // a disconnect still never stops the turn
    const stateless = turnRequest(body);
    const stop = new AbortController();
    if (!body.stream) return bufferedAnswer(reply, await chat.run(stateless, () => {}, stop.signal));
    reply.hijack();
    const sse = new SseStream(reply.raw, { onSlowClient });
    let id = 0;
    const emit = (e: TurnEvent) => sse.send(e.type, e.data, ++id);
    try {
      await chat.run(stateless, emit, stop.signal);
    } catch (err) {
      req.log.error({ err }, 'chat turn failed');
      emit({
        type: 'error',
        data: { error: 'The chat turn failed unexpectedly. Please try again.', status: 500 },
      });
      emit({ type: 'done', data: {} });
    } finally {
      sse.close();
    }
    return reply;
  });

  const turn = app.withTypeProvider<TypeBoxTypeProvider>();
  turn.get(
    '/api/chat/turn/:conversationId',
    { schema: { params: TurnParams, querystring: TurnQuery } },
    async (req, reply) => {
      const { conversationId } = req.params;
      const after = parseAfter(req.headers['last-event-id'], req.query.after);
      if (!streamHubTurn(hub, onSlowClient, conversationId, after, reply)) return reply.status(204).send();
      return reply;
    },
  );

  turn.delete('/api/chat/turn/:conversationId', { schema: { params: TurnParams } }, async (req) => {
    const { conversationId } = req.params;
    if (!hub.stop(conversationId))
      throw notFound('no turn is running for this conversation', 'NO_RUNNING_TURN');
    return { ok: true };
  });
}
