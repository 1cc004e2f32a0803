/**
 * The door every request passes, installed by buildApp in place of a bare auth hook:
 * 0. an HTTP/1.1 request without `Host` → 400 HOST_REQUIRED (src/http/client-errors.ts);
 * 1. @fastify/cookie parses cookies, the security headers are set (src/auth/security-headers.ts;
 *    both before the gate, so refusals carry the headers too);
 * 2. the route's `config.auth` decides who may call it: `public`, `admin` (KLEBB_ADMIN_TOKEN),
 *    or by default a signed-in principal (AuthService.authenticate: bearer, session, or this
 *    machine while no passkey exists) → 401;
 * 3. a state-changing request with a foreign `Origin` → 403 BAD_ORIGIN (src/auth/origin.ts);
 * 4. a read-only named token on anything but GET/HEAD → 403 READ_ONLY_TOKEN; any named token on
 *    a route that reveals or manages a secret (isCredentialRoute) → 403 CREDENTIALS_NEED_SIGN_IN;
 * 5. rate limits: per token for bearer requests, per address for routes marked
 *    `config.signIn`, per address for refused credentials (here, and in routes that check their
 *    own token through `app.countRefusedCredential`, the HAE webhook) → 429 with Retry-After
 *    (on a route marked `config.refusesAfterBody`, /mcp, a token's 429 is thrown once the body
 *    is read, before anything acts on it, so its JSON-RPC error can repeat the request's id);
 * 6. in demo mode, src/auth/demo-policy.ts: its refusals here, before any body is read (so a
 *    refused upload is never stored, not even spooled), its canned answers in a preHandler.
 * The decision is made on the matched route's config, never on the raw URL text.
 */
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, KlebbError } from '../errors.js';
import { hostProblem } from '../http/client-errors.js';
import type { Instance } from '../instance.js';
import { DEMO_CHAT_REPLY, demoDecision } from './demo-policy.js';
import { heldRefusalOf, holdRefusal } from './held-refusal.js';
import { checkOrigin, isSafeMethod } from './origin.js';
import { rateLimiters } from './rate-limits.js';
import { installSecurityHeaders } from './security-headers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts a credential a route refused on its own (the Health Auto Export webhook's token)
     * against the client address, like a wrong bearer at the gate: past KLEBB_AUTH_FAILURE_LIMIT
     * a minute it throws 429 RATE_LIMITED with Retry-After; otherwise it returns and the route
     * throws its own 401. Counts only when an `Authorization` header was sent.
     */
    countRefusedCredential(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyContextConfig {
    /** A sign-in or registration route: rate-limited per client address (KLEBB_AUTH_RATE_LIMIT). */
    signIn?: boolean;
    /**
     * A JSON-RPC route whose errors repeat the request's id: a rate-limit refusal is decided
     * when the request begins but thrown once its body is read (src/auth/held-refusal.ts).
     */
    refusesAfterBody?: boolean;
  }
}

/**
 * Routes that reveal or manage a secret: the Health Auto Export
 * token (whoever reads it can write through the webhook), named tokens, invites and passkeys.
 * Named agent tokens, read-only or read-write, get 403 on them; a passkey session, this machine
 * before the first passkey, and AGENT_API_TOKEN (full access, docs/API.md
 * "Tokens for scripts and agents") pass the gate (the token, invite and passkey handlers refuse AGENT_API_TOKEN too).
 * @param url the matched route's pattern.
 */
export function isCredentialRoute(url: string | undefined): boolean {
  if (!url) return false;
  return (
    url.startsWith('/api/health-auto-export/token') ||
    url === '/api/tokens' ||
    url.startsWith('/api/tokens/') ||
    url === '/api/invites' ||
    url.startsWith('/api/invites/') ||
    url === '/api/credentials' ||
    url.startsWith('/api/credentials/')
  );
}

/** Registers the plugins and hooks of the gate on `app` (call before the routes). */
export function installGate(app: FastifyInstance, inst: Instance): void {
  const env = inst.config.auth;
  app.register(fastifyCookie, { hook: 'onRequest' });
  installSecurityHeaders(app, env);
  app.register(fastifyRateLimit, { global: false });
  const limits = rateLimiters(app, env);
  app.decorate('countRefusedCredential', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.headers.authorization !== undefined) await limits.failure(req, reply);
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const noHost = hostProblem(req.raw);
    if (noHost) throw noHost;
    const config = req.routeOptions.config;
    try {
      if (config?.auth === 'admin') inst.auth.authenticateAdmin(req.headers);
      else if (config?.auth !== 'public') req.principal = inst.auth.authenticate(req);
    } catch (err) {
      // a credential was presented and refused: count it against the address
      if (err instanceof KlebbError && err.status === 401 && req.headers.authorization !== undefined) {
        await limits.failure(req, reply);
      }
      throw err;
    }
    checkOrigin(req.method, req.headers, env.origin);
    const p = req.principal;
    // (a route marked readOnlyChecked enforces read-only access itself: /mcp offers such a token read tools only)
    if (
      p?.kind === 'named-token' &&
      p.access === 'read' &&
      !isSafeMethod(req.method) &&
      !config?.readOnlyChecked
    ) {
      throw forbidden(`The token "${p.name}" is read-only: it cannot change anything`, 'READ_ONLY_TOKEN');
    }
    if (p?.kind === 'named-token' && isCredentialRoute(req.routeOptions.url)) {
      throw forbidden(
        'Agent tokens cannot read or manage credentials: sign in with a passkey',
        'CREDENTIALS_NEED_SIGN_IN',
      );
    }
    try {
      await limits.agent(req, reply);
    } catch (err) {
      if (!(config?.refusesAfterBody && err instanceof KlebbError && err.status === 429)) throw err;
      holdRefusal(req, err);
      return;
    }
    if (config?.signIn) await limits.signIn(req, reply);
    if (inst.config.demo) {
      const d = demoDecision(req.method, req.routeOptions.url);
      if (d && 'refuse' in d) throw d.refuse;
    }
  });

  // a held refusal is thrown before validation and every preHandler: the body is never acted on
  app.addHook('preValidation', async (req) => {
    const refusal = heldRefusalOf(req);
    if (refusal) throw refusal;
  });

  if (inst.config.demo) {
    app.addHook('preHandler', async (req, reply) => {
      const d = demoDecision(req.method, req.routeOptions.url);
      if (!d) return;
      if ('refuse' in d) throw d.refuse;
      if (d.answer === 'json') return reply.send(d.body);
      if (d.answer === 'chat-status') return reply.send({ configured: true, demo: true });
      const reply1 = { reply: DEMO_CHAT_REPLY };
      const body = req.body;
      if (typeof body === 'object' && body !== null && 'stream' in body && body.stream === true) {
        return reply
          .type('text/event-stream; charset=utf-8')
          .header('Cache-Control', 'no-cache, no-transform')
          .send(`event: reply\ndata: ${JSON.stringify(reply1)}\n\nevent: done\ndata: {}\n\n`);
      }
      return reply.send(reply1);
    });
  }
}
