/**
 * Self-service for signed-in people:
 * their passkeys (`/api/credentials`), invites to add a device (`/api/invites`), and named agent
 * tokens (`/api/tokens`). Behind the normal gate; AuthService.requireSession / requirePerson
 * then refuse tokens (403), and demo mode (410).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Instance } from '../instance.js';
import { optionalObject, parseInviteDays } from './auth-service.js';
import { clearSessionCookie } from './session-cookie.js';

const IdParams = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const;
const AnyObject = { type: 'object' } as const;

function who(req: FastifyRequest): string {
  const p = req.principal;
  return p?.kind === 'session' ? `session:${p.label}` : (p?.kind ?? 'unknown');
}

/** Registers the self-service routes. */
export function accountRoutes(app: FastifyInstance, inst: Instance): void {
  const auth = inst.auth;

  app.get('/api/credentials', async (req) => ({
    credentials: auth.listPasskeys(auth.requireSession(req.principal)),
  }));

  app.delete('/api/credentials/:id', { schema: { params: IdParams } }, async (req, reply) => {
    const p = auth.requireSession(req.principal);
    const { id } = req.params as { id: string };
    const r = auth.removePasskey(p, id, req.ip);
    if (r.signedOut) clearSessionCookie(reply, inst.config.auth.secureCookies);
    return { ok: true, id, ...r };
  });

  app.post('/api/invites', async (req, reply) => {
    const p = auth.requireSession(req.principal);
    const days = parseInviteDays((optionalObject(req.body) as { expiresInDays?: unknown }).expiresInDays);
    return reply.status(201).send(auth.createInvite(p.label, days, `session:${p.label}`, req.headers));
  });

  app.get('/api/tokens', async (req) => {
    auth.requirePerson(req.principal);
    return { tokens: auth.listTokens() };
  });

  app.post('/api/tokens', { schema: { body: AnyObject } }, async (req, reply) => {
    auth.requirePerson(req.principal);
    return reply.status(201).send(auth.createToken(req.body, who(req)));
  });

  app.delete('/api/tokens/:id', { schema: { params: IdParams } }, async (req) => {
    auth.requirePerson(req.principal);
    const { id } = req.params as { id: string };
    return { ok: true, token: auth.revokeToken(id, who(req)) };
  });
}
