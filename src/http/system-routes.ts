/**
 * `/healthz` (public liveness) and `/api/instance` (branding),
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Instance } from '../instance.js';
import { inBody } from './body-fields.js';

/** `POST /api/user/tz`: the browser's IANA time zone (checked by setTimeZone, 400 naming `tz`). */
const TimeZoneBody = Type.Object({
  tz: Type.Optional(Type.Unknown({ description: 'an IANA time zone, e.g. Europe/Berlin' })),
});

/** Registers the infrastructure routes. */
export function systemRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/healthz', { config: { auth: 'public' } }, async () => ({ status: 'ok' }));
  app.post('/api/user/tz', { schema: { body: TimeZoneBody } }, async (req) => {
    const tz = req.body.tz;
    const changed = inBody(() => inst.user.setTimeZone(tz));
    return { ok: true, tz: inst.user.timeZone(), changed };
  });
  app.get('/api/instance', async () => ({
    name: inst.config.instanceName,
    chatAgent: { name: inst.config.chatAgentName, emoji: inst.config.chatAgentEmoji },
    demo: inst.config.demo,
    cloud: inst.config.cloud,
  }));
}
