/**
 * Self-service for signed-in people:
 * their passkeys (`/api/credentials`), invites to add a device (`/api/invites`), and named agent
 * tokens (`/api/tokens`). Behind the normal gate; AuthService.requireSession / requirePerson
 * then refuse tokens (403), and demo mode (410).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inBody } from '../http/body-fields.js';
import type { Instance } from '../instance.js';
import { parseInviteDays } from './auth-service.js';
import { clearSessionCookie } from './session-cookie.js';

const IdParams = Type.Object({ id: Type.String({ minLength: 1 }) });
const AnyObject = Type.Object({}, { additionalProperties: true });
/** `POST /api/invites`: the body may be left out. */
const InviteBody = Type.Optional(
  Type.Object({ expiresInDays: Type.Optional(Type.Unknown({ description: 'days the invite stays valid' })) }),
);

function who(req: FastifyRequest): string {
  const p = req.principal;
  return p?.kind === 'session' ? `session:${p.label}` : (p?.kind ?? 'unknown');
}

/** Registers the self-service routes. */
export function accountRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const auth = inst.auth;

  app.get('/api/credentials', async (req) => ({
    credentials: auth.listPasskeys(auth.requireSession(req.principal)),
  }));

  app.delete('/api/credentials/:id', { schema: { params: IdParams } }, async (req, reply) => {
    const p = auth.requireSession(req.principal);
    const { id } = req.params;
    const r = auth.removePasskey(p, id, req.ip);
    if (r.signedOut) clearSessionCookie(reply, inst.config.auth.secureCookies);
    return { ok: true, id, ...r };
  });

  app.post('/api/invites', { schema: { body: InviteBody } }, async (req, reply) => {
    const p = auth.requireSession(req.principal);
    const days = inBody(() => parseInviteDays(req.body?.expiresInDays));
    return reply.status(201).send(auth.createInvite(p.label, days, `session:${p.label}`, req.headers));
  });

  app.get('/api/tokens', async (req) => {
    auth.requirePerson(req.principal);
    return { tokens: auth.listTokens() };
  });

  app.post('/api/tokens', { schema: { body: AnyObject } }, async (req, reply) => {
    auth.requirePerson(req.principal);
    return reply.status(201).send(inBody(() => auth.createToken(req.body, who(req))));
  });

  app.delete('/api/tokens/:id', { schema: { params: IdParams } }, async (req) => {
    auth.requirePerson(req.principal);
    const { id } = req.params;
    return { ok: true, token: auth.revokeToken(id, who(req)) };
  });
}
