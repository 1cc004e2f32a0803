/**
 * `GET /api/events`: the live feed an open page listens to (issue 5 "Cards appear, change and
 * disappear ... without a page reload"). Server-sent events, one `card` event per change:
 * `data: {"type":"card-changed"|"card-removed"|"data-changed","id":"<card id>","version"?:n}`.
 * Events carry no health data, only which card changed; the page re-reads what it shows. A page
 * that reconnects (the browser's EventSource does so by itself) re-reads everything it shows,
 * since events sent while it was away are not kept. The stream ends when the server shuts down.
 */
import type { FastifyInstance } from 'fastify';
import type { CardEvent } from '../cards/card-loader.js';
import type { Instance } from '../instance.js';
import { SseStream } from './sse.js';

/** Registers `GET /api/events` (signed-in callers only, like every non-public route). */
export function eventRoutes(app: FastifyInstance, inst: Instance): void {
  app.get('/api/events', async (req, reply) => {
    reply.hijack();
    const sse = new SseStream(reply.raw);
    const onCard = (e: CardEvent) => sse.send('card', e);
    const end = () => {
      inst.events.off('card', onCard);
      inst.shutdownSignal.removeEventListener('abort', end);
      sse.close();
    };
    inst.events.on('card', onCard);
    inst.shutdownSignal.addEventListener('abort', end);
    reply.raw.on('close', end);
    // tells the page the feed is live (it re-reads what it shows after a reconnect)
    sse.send('ready', { at: new Date().toISOString() });
  });
}
