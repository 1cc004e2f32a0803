/**
 * A refusal the gate decided before the body was read but answers only once it has been: a
 * JSON-RPC route (`/mcp`) must repeat the request's `id` in its error, or the client cannot match
 * the refusal to its pending request and waits for its own timeout. The decision (and its count
 * against a rate limit) is made when the request begins, as for every other route; a
 * preValidation hook throws it before any handler runs, so the body is read but never acted on,
 * and the route's error handler answers it in place of whatever else went wrong with the body.
 */
import type { FastifyRequest } from 'fastify';
import type { KlebbError } from '../errors.js';

const held = new WeakMap<object, KlebbError>();

/** Keeps `err` as the refusal of `req`, to be thrown once its body is read. */
export function holdRefusal(req: FastifyRequest, err: KlebbError): void {
  held.set(req.raw, err);
}

/** The refusal held for `req`, or undefined. */
export function heldRefusalOf(req: FastifyRequest): KlebbError | undefined {
  return held.get(req.raw);
}
