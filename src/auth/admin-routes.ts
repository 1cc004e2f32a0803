/**
 * The control plane's part in accounts, behind
 * KLEBB_ADMIN_TOKEN: invites for any account (the way in for the first passkey with
 * KLEBB_CLOUD=1), a health summary and a read-only list of passkeys. No admin delete exists.
 */
import type { FastifyInstance } from 'fastify';
import { inBody } from '../http/body-fields.js';
import type { Instance } from '../instance.js';
import { optionalObject, parseInviteDays, parseLabel } from './auth-service.js';

const admin = { auth: 'admin' } as const;

/** Registers the admin account routes. */
export function adminAuthRoutes(app: FastifyInstance, inst: Instance): void {
  const auth = inst.auth;

  app.post('/api/admin/invites', { config: admin }, async (req, reply) => {
    const { label, days } = inBody(() => {
      const body = optionalObject(req.body) as { label?: unknown; expiresInDays?: unknown };
      return { label: parseLabel(body.label, 'label'), days: parseInviteDays(body.expiresInDays) };
    });
    const invite = auth.createInvite(label, days, 'admin', req.headers);
    return reply.status(201).send(invite);
  });

  app.get('/api/admin/health', { config: admin }, async () => ({
    ok: true,
    setup: !auth.hasPasskeys(),
    cloud: inst.config.cloud,
    demo: inst.config.demo,
    rpId: inst.config.auth.rpId,
    origin: inst.config.auth.origin ?? null,
    credentialCount: auth.passkeys.count(),
  }));

  app.get('/api/admin/credentials', { config: admin }, async () => ({
    users: auth.passkeys.users().map((u) => ({
      label: u.label,
      credentials: u.credentials.map((c) => ({
        id: c.id,
        nickname: c.nickname,
        deviceType: c.deviceType,
        backedUp: c.backedUp,
        registeredAt: c.registeredAt,
        lastUsedAt: c.lastUsedAt,
      })),
    })),
  }));
}
