/**
 * The parsed value of a JSON body the body checks refused after it parsed (a number JavaScript
 * cannot keep, nesting too deep): the route never sees it, but an error answer may need a part
 * of it that is sound, such as the `id` of a JSON-RPC request, which its error must repeat.
 */
import type { FastifyRequest } from 'fastify';

const refused = new WeakMap<object, unknown>();

/** Keeps `value` as the refused body of `req`. */
export function keepRefusedBody(req: FastifyRequest, value: unknown): void {
  refused.set(req.raw, value);
}

/** The body `req` sent that the checks refused, or undefined. */
export function refusedBodyOf(req: FastifyRequest): unknown {
  return refused.get(req.raw);
}
