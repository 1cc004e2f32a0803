/**
 * The public sign-in routes under `/auth/` (docs/API.md
 * "Sign-in routes"). They are open to anyone by design; the sign-in and registration ones are
 * rate-limited per address (`config.signIn`), and the POSTs pass the Origin check like every
 * state-changing request. The work is in AuthService; these parse, set the cookie and shape.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { inBody, inQuery } from '../http/body-fields.js';
import type { Instance } from '../instance.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

const AnyObject = Type.Object({}, { additionalProperties: true });
/** `GET /auth/register/available?code=`: the setup code or an invite to check. */
const AvailableQuery = Type.Object({ code: Type.Optional(Type.String()) });

/** Registers `/auth/*`. */
export function authRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const auth = inst.auth;
  const secure = inst.config.auth.secureCookies;
  const open = { auth: 'public' } as const;
  const signIn = { auth: 'public', signIn: true } as const;

  app.get('/auth/status', { config: open }, async (req) => {
    const p = auth.identify(req);
    return {
      setup: !auth.hasPasskeys(),
      authenticated: p !== null,
      kind: p?.kind ?? null,
      label: p?.kind === 'session' ? p.label : null,
      name: inst.config.instanceName,
      demo: inst.config.demo,
      cloud: inst.config.cloud,
    };
  });

  app.get(
    '/auth/register/available',
    { config: signIn, schema: { querystring: AvailableQuery } },
    async (req) => inQuery(() => auth.availability(req, req.query.code)),
  );

  app.post('/auth/register/options', { config: signIn }, async (req) =>
    inBody(() => auth.startRegistration(req, req.body)),
  );

  app.post('/auth/register/verify', { config: signIn, schema: { body: AnyObject } }, async (req, reply) => {
    const r = await inBody(() => auth.finishRegistration(req, req.body));
    if (r.sessionToken !== null) setSessionCookie(reply, r.sessionToken, secure);
    return { verified: true, label: r.label, credentialId: r.credentialId };
  });

  app.post('/auth/login/options', { config: signIn }, async () => auth.startLogin());

  app.post('/auth/login/verify', { config: signIn, schema: { body: AnyObject } }, async (req, reply) => {
    const r = await inBody(() => auth.finishLogin(req, req.body));
    setSessionCookie(reply, r.sessionToken, secure);
    return { verified: true, label: r.label };
  });

  app.post('/auth/logout', { config: open }, async (req, reply) => {
    auth.logout(req);
    clearSessionCookie(reply, secure);
    return { ok: true };
  });

  app.post('/auth/demo-login', { config: signIn }, async (req, reply) => {
    setSessionCookie(reply, auth.demoLogin(req), secure);
    return { ok: true, label: 'demo' };
  });
}
