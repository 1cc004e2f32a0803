/**
 * `/healthz` (public liveness) and `/api/instance` (branding),
 */
import type { FastifyInstance } from 'fastify';
import type { Instance } from '../instance.js';

/** Registers the infrastructure routes. */
export function systemRoutes(app: FastifyInstance, inst: Instance): void {
  app.get('/healthz', { config: { auth: 'public' } }, async () => ({ status: 'ok' }));
  app.post('/api/user/tz', { schema: { body: { type: 'object' } } }, async (req) => {
    const tz = (req.body as { tz?: unknown }).tz;
    const changed = inst.user.setTimeZone(tz);
    return { ok: true, tz: inst.user.timeZone(), changed };
  });
  app.get('/api/instance', async () => ({
    name: inst.config.instanceName,
    chatAgent: { name: inst.config.chatAgentName, emoji: inst.config.chatAgentEmoji },
    demo: inst.config.demo,
    cloud: inst.config.cloud,
  }));
}
