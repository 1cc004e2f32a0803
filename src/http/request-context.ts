/**
 * The request a piece of work started from, carried along async calls (node:async_hooks).
 * A chat turn outlives its request (it goes on when the page disconnects), yet its log lines
 * should carry the request's id: work started inside a request sees that request's logger here,
 * however detached it later becomes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { asClientWork } from '../store/home-freeze.js';

const current = new AsyncLocalStorage<FastifyBaseLogger>();

/**
 * Makes each request's logger (pino child with `reqId`) the current one for all it starts, and
 * marks all it starts as work for a client (refused while the home is frozen for a restore).
 */
export function installRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    current.run(req.log, () => asClientWork(done));
  });
}

/** The logger of the request the caller's work started from, or `fallback` outside any request. */
export function requestLog(fallback: FastifyBaseLogger): FastifyBaseLogger {
  return current.getStore() ?? fallback;
}

/**
 * An `{info, warn}` logger for work outside HTTP (the instance: ingest, push, start-up) that
 * writes through `base`, or through the logger of the request the work runs for when there is
 * one: every line then has pino's time and level, and the request's id beside its
 * `request completed` line.
 */
export function followingRequestLog(base: FastifyBaseLogger): {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
} {
  return {
    info: (obj, msg) => requestLog(base).info(obj, msg),
    warn: (obj, msg) => requestLog(base).warn(obj, msg),
  };
}
