/**
 * Rate limits, with @fastify/rate-limit's limiter and its in-memory store:
 * - sign-in and registration requests per client address (KLEBB_AUTH_RATE_LIMIT per minute,
 *   default 30); the address is the socket's, or the one a trusted reverse proxy reports
 *   (KLEBB_TRUSTED_PROXIES): without that setting every visitor behind a proxy shares its budget;
 * - every request made with a bearer token, per token (KLEBB_AGENT_RATE_LIMIT per minute,
 *   default 6000: room for scripts and benchmarks, a brake on a runaway loop).
 * 0 switches a limit off. Past the limit: 429 RATE_LIMITED with `Retry-After` (seconds).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { KlebbError } from '../errors.js';
import type { AuthEnv } from './auth-env.js';

const WINDOW_MS = 60_000;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** 429 RATE_LIMITED saying when to come back. */
export function rateLimited(retryAfterS: number): KlebbError {
  return new KlebbError(429, 'RATE_LIMITED', `Too many requests: try again in ${retryAfterS} s`);
}

/** The key of a token-authenticated request, or null for people and anonymous callers. */
function tokenKey(req: FastifyRequest): string | null {
  const p = req.principal;
  if (p?.kind === 'agent-token') return 'agent-token';
  if (p?.kind === 'named-token') return `token:${p.tokenId}`;
  return null;
}

/** The two limiters of one app. Call after @fastify/rate-limit is registered (they are built on first use). */
export function rateLimiters(app: FastifyInstance, env: AuthEnv) {
  let signIn: Limiter | undefined;
  let agent: Limiter | undefined;

  async function apply(limiter: Limiter, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const r = await limiter(req);
    if (r.isAllowed) return;
    reply.header('x-ratelimit-limit', r.max).header('x-ratelimit-remaining', r.remaining);
    if (r.isExceeded) {
      reply.header('retry-after', Math.max(1, r.ttlInSeconds));
      throw rateLimited(Math.max(1, r.ttlInSeconds));
    }
  }

  let failures: Limiter | undefined;

  return {
    /**
     * Counts a refused credential (a wrong bearer or admin token) against the client address
     * and logs it (address only, never the token text). Past KLEBB_AUTH_FAILURE_LIMIT in a minute
     * the refusal becomes 429 with Retry-After.
     * @throws 429 past the limit; otherwise returns and the caller rethrows its 401.
     */
    async failure(req: FastifyRequest, reply: FastifyReply): Promise<void> {
      req.log.warn({ address: req.ip, url: req.routeOptions.url }, 'refused credential');
      if (env.authFailuresPerMin === 0) return;
      failures ??= app.createRateLimit({
        max: env.authFailuresPerMin,
        timeWindow: WINDOW_MS,
        keyGenerator: (r) => `auth-fail:${r.ip || 'unknown'}`,
      });
      await apply(failures, req, reply);
    },
    /** Counts a sign-in or registration request against its address. @throws 429 past the limit. */
    async signIn(req: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (env.authRateLimitPerMin === 0) return;
      signIn ??= app.createRateLimit({
        max: env.authRateLimitPerMin,
        timeWindow: WINDOW_MS,
        keyGenerator: (r) => `sign-in:${r.ip || 'unknown'}`,
      });
      await apply(signIn, req, reply);
    },
    /** Counts a bearer-token request against its token (others pass untouched). @throws 429 past the limit. */
    async agent(req: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (env.agentRateLimitPerMin === 0 || tokenKey(req) === null) return;
      agent ??= app.createRateLimit({
        max: env.agentRateLimitPerMin,
        timeWindow: WINDOW_MS,
        keyGenerator: (r) => tokenKey(r) ?? 'none',
      });
      await apply(agent, req, reply);
    },
  };
}
