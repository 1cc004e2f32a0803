/**
 * `GET /api/events`: the live feed an open page listens to ("Cards appear, change and
 * disappear ... without a page reload"; docs/API.md "Live events"). Server-sent events:
 * - `ready` once, at the start: `data: {"at":"<ISO time>"}` (the page re-reads what it shows
 *   after a reconnect, since events sent while it was away are not kept);
 * - `card` per change: `data: {"type":"card-changed"|"card-removed"|"data-changed","id":"<card
 *   id>","version"?:n}` (`version`, on `data-changed`, is the card's new data version, the number
 *   in its data ETag `"v<n>"`).
 * Events carry no health data, only which card changed; the page re-reads what it shows. `: ping`
 * comments every 15 s keep proxies from closing a quiet stream. A page that stops reading is
 * dropped once a megabyte waits for it (src/http/sse.ts); it reconnects and re-reads. Every stream ends when the server
 * closes (Fastify `preClose`) or the instance shuts down, so open pages never hold a shutdown up.
 */
import type { FastifyInstance } from 'fastify';
import type { CardEvent } from '../cards/card-loader.js';
import type { Instance } from '../instance.js';
import { SSE_PING_INTERVAL_MS } from '../limits.js';
import { SseStream } from './sse.js';

/** The last line of a stream whose session or token ended: the page's reconnect gets 401. */
const CREDENTIAL_ENDED_COMMENT = 'closed: signed out or the token was revoked';

/** Registers `GET /api/events` (signed-in callers only, like every non-public route). */
export function eventRoutes(app: FastifyInstance, inst: Instance): void {
  const open = new Set<() => void>();
  // app.close() waits for open connections: end every stream first
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.get('/api/events', async (req, reply) => {
    reply.hijack();
    const sse = new SseStream(reply.raw, { onSlowClient: () => inst.metrics.observeSlowClient('events') });
    // the credential is checked again before each event and at each heartbeat: a tab signed
    // out elsewhere or a revoked token stops hearing which cards change
    const principal = req.principal;
    const holds = () => !principal || inst.auth.stillHolds(principal);
    const onCard = (e: CardEvent) => {
      // what a page needs and no more (a card-removed's mayReturn is the server's own business)
      if (holds()) sse.send('card', e.type === 'card-removed' ? { type: e.type, id: e.id } : e);
      else credentialEnded();
    };
    const recheck = setInterval(() => {
      if (!holds()) credentialEnded();
    }, SSE_PING_INTERVAL_MS);
    recheck.unref();
    const end = () => {
      if (!open.delete(end)) return;
      clearInterval(recheck);
      inst.events.off('card', onCard);
      inst.shutdownSignal.removeEventListener('abort', end);
      sse.close();
    };
    const credentialEnded = () => {
      sse.comment(CREDENTIAL_ENDED_COMMENT);
      end();
    };
    open.add(end);
    inst.events.on('card', onCard);
    inst.shutdownSignal.addEventListener('abort', end);
    req.raw.socket.on('close', end);
    reply.raw.on('close', end);
    if (inst.shutdownSignal.aborted) return end();
    sse.send('ready', { at: new Date().toISOString() });
  });
}
