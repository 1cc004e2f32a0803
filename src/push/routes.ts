/**
 * Web Push and reminder routes (docs/API.md "Notifications"). They parse, authorise and shape;
 * the work is in PushService (src/push/push-service.ts). In demo mode the gate answers the
 * `/api/push/` routes 410 and refuses the writes.
 */

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { headGraphemes } from '../common/graphemes.js';
import { INSTANT_MESSAGE } from '../common/instants.js';
import { badRequest, KlebbError, notFound } from '../errors.js';
import type { Instance } from '../instance.js';
import { MAX_PUSH_ENDPOINT_CHARS, MAX_PUSH_NICKNAME_CHARS, PUSH_REJECTIONS_BEFORE_DEAD } from '../limits.js';
import { Privacy, TimeOfDay } from '../schemas/notifications.js';
import { deviceNickname } from './device-nickname.js';
import { notDeliveredWords } from './device-result.js';
import { pushEndpointProblem } from './endpoint-host.js';
import { pauseUntilInstant } from './pause-until.js';
import type { ReminderRef } from './reminder-list.js';
import type { SubscriptionRow } from './subscription-store.js';

const Endpoint = Type.String({ minLength: 1, maxLength: MAX_PUSH_ENDPOINT_CHARS });
const SubscribeBody = Type.Object({
  endpoint: Endpoint,
  keys: Type.Object({
    p256dh: Type.String({ minLength: 1, maxLength: 200 }),
    auth: Type.String({ minLength: 1, maxLength: 100 }),
  }),
  // counted in characters as a person counts them by deviceNickname (a family emoji is one)
  nickname: Type.Optional(
    Type.Union([Type.Null(), Type.String({ maxLength: MAX_PUSH_NICKNAME_CHARS * 16 })]),
  ),
  expirationTime: Type.Optional(Type.Union([Type.Null(), Type.Number()])),
  // the endpoint this one takes over from (the service worker's pushsubscriptionchange); null, as
  // a browser's absent oldSubscription serialises, is none, as for the other optional fields
  replaces: Type.Optional(Type.Union([Type.Null(), Endpoint])),
});
const EndpointBody = Type.Object({ endpoint: Endpoint });
const ReminderId = Type.String({ minLength: 3, maxLength: 200 });
const StateBody = Type.Object({
  id: ReminderId,
  enabled: Type.Optional(Type.Boolean()),
  privacy: Type.Optional(Privacy),
});
const Time = TimeOfDay;
/**
 * Only the two settings: a key it does not know (`pause_until`, a `days` of quiet hours) is a
 * mistake to name, not something to answer 200 for while nothing of it is kept.
 */
const GlobalBody = Type.Object(
  {
    quiet_hours: Type.Optional(
      Type.Union([Type.Null(), Type.Object({ start: Time, end: Time }, { additionalProperties: false })]),
    ),
    paused_until: Type.Optional(Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 40 })])),
  },
  { additionalProperties: false },
);
const TestBody = Type.Object({ id: ReminderId });

/** Decodes a base64url key; null when it is not base64url. */
function b64url(s: string): Buffer | null {
  return /^[A-Za-z0-9_-]+={0,2}$/.test(s) ? Buffer.from(s, 'base64url') : null;
}

/**
 * Checks a subscription's endpoint and keys beyond their types: the endpoint an https URL the
 * server may send to (src/push/endpoint-host.ts), the keys of the right sizes.
 * @throws 400 INVALID_SUBSCRIPTION naming the field.
 */
function checkSubscription(
  endpoint: string,
  keys: { p256dh: string; auth: string },
  allowPrivate: boolean,
): void {
  const bad = (path: string, message: string) =>
    badRequest(`invalid subscription: ${path} ${message}`, [{ path, message }], 'INVALID_SUBSCRIPTION');
  const problem = pushEndpointProblem(endpoint, allowPrivate);
  if (problem) throw bad('body.endpoint', problem);
  const key = b64url(keys.p256dh);
  if (key?.length !== 65 || key[0] !== 4) {
    throw bad('body.keys.p256dh', 'must be a base64url uncompressed P-256 public key (65 bytes)');
  }
  const auth = b64url(keys.auth);
  if (auth?.length !== 16) throw bad('body.keys.auth', 'must be a base64url 16-byte secret');
}

function view(ref: ReminderRef, inst: Instance) {
  const st = inst.push.state.peek(ref.id);
  const meta = ref.card.manifest.meta;
  return {
    id: ref.id,
    card_id: ref.card.id,
    item_id: ref.itemId,
    label: String(ref.item.label ?? ''),
    card_label: String(meta.label ?? ref.card.id),
    card_emoji: typeof meta.emoji === 'string' ? meta.emoji : null,
    title: String(ref.item.title ?? ''),
    body: String(ref.item.body ?? ''),
    trigger: ref.trigger,
    privacy: ref.privacy,
    enabled: ref.enabled,
    active: ref.active,
    last_fired: st?.lastFired ?? null,
    last_fire_status: st?.lastFireStatus ?? null,
  };
}

/** Why a dead subscription gets no reminders, in words for the settings page. */
function deadWhy(row: SubscriptionRow): string {
  const status = row.lastStatus ?? 0;
  const said = row.lastReason ? `: ${row.lastReason}` : '';
  if (row.deadReason === 'refused' || status === 401 || status === 403)
    return `its push service refused this server's signature (HTTP ${status}${said})`;
  const what = status >= 300 && status < 400 ? `a redirect (HTTP ${status})` : `HTTP ${status}${said}`;
  return `its push service answered ${what} ${row.rejections ?? PUSH_REJECTIONS_BEFORE_DEAD} times in a row instead of taking the reminder`;
}

/** The subscriptions that no longer get reminders, so the person can turn that device on again. */
function stoppedDevices(inst: Instance) {
  return inst.push.subs
    .all()
    .filter((r) => r.dead)
    .map((r) => ({
      id: r.id.slice(0, 12),
      nickname: r.nickname,
      host: new URL(r.endpoint).host,
      user_agent: r.userAgent,
      since: r.deadSince,
      last_status: r.lastStatus,
      reason: deadWhy(r),
    }));
}

function globalState(inst: Instance) {
  return { quiet_hours: inst.push.state.data.quiet_hours, paused_until: inst.push.state.data.paused_until };
}

/** Registers the push and notification routes. */
export function pushRoutes(fastify: FastifyInstance, inst: Instance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const push = inst.push;

  app.get('/api/push/vapid-public-key', async () => ({ key: push.keys.publicKey, keyId: push.keys.keyId }));

  app.post('/api/push/subscribe', { schema: { body: SubscribeBody } }, async (req, reply) => {
    const { endpoint, keys } = req.body;
    checkSubscription(endpoint, keys, inst.config.push.allowPrivateEndpoints);
    // a browser that renewed this device's subscription: the device keeps its name, and the old
    // endpoint goes now rather than staying listed as a second device until a reminder to it fails
    const replaces = req.body.replaces ?? undefined;
    const replaced = replaces !== undefined && replaces !== endpoint ? push.subs.find(replaces) : undefined;
    const nickname = deviceNickname(req.body.nickname) ?? replaced?.nickname ?? undefined;
    const ua = req.headers['user-agent'];
    const r = push.subs.upsert(
      {
        endpoint,
        keys,
        nickname,
        userAgent: typeof ua === 'string' ? headGraphemes(ua, 300) : undefined,
        replaces: replaced?.endpoint,
      },
      new Date(),
    );
    return reply.code(r.created ? 201 : 200).send(r);
  });

  app.post('/api/push/subscribe/heartbeat', { schema: { body: EndpointBody } }, async (req) => {
    const id = push.subs.revive(req.body.endpoint);
    if (!id) throw notFound('this browser is not subscribed: subscribe again', 'SUBSCRIPTION_NOT_FOUND');
    return { ok: true, id };
  });

  app.post('/api/push/unsubscribe', { schema: { body: EndpointBody } }, async (req, reply) => {
    push.subs.remove(req.body.endpoint);
    return reply.code(204).send();
  });

  app.get('/api/notifications', async () => ({
    notifications: push.list().map((r) => view(r, inst)),
    ...globalState(inst),
    devices: push.subs.live().length,
    stopped_devices: stoppedDevices(inst),
    tz: push.timeZone(),
  }));

  app.post('/api/notifications/state', { schema: { body: StateBody } }, async (req) => {
    const { id, enabled, privacy } = req.body;
    const ref = push.find(id);
    const s = push.state.item(id);
    if (privacy !== undefined) s.privacy = privacy;
    if (enabled !== undefined && enabled !== ref.enabled) {
      s.enabled = enabled;
      // switched on again: it waits for its next slot, never fires one from while it was off
      delete s.trigger;
    }
    push.state.save();
    if (enabled === true) push.armCard(ref.card.id);
    return { ok: true, notification: view(push.find(id), inst) };
  });

  app.post('/api/notifications/global-state', { schema: { body: GlobalBody } }, async (req) => {
    const { quiet_hours, paused_until } = req.body;
    const until = typeof paused_until === 'string' ? pauseUntilInstant(paused_until, push.timeZone()) : null;
    if (typeof paused_until === 'string' && until === null) {
      throw badRequest('paused_until must be an ISO date-time or null', [
        { path: 'body.paused_until', message: `${INSTANT_MESSAGE}, or null` },
      ]);
    }
    // the same start and end is no window (or the whole day?): either way not what anyone meant
    if (quiet_hours && quiet_hours.start === quiet_hours.end) {
      const message = `must differ from start (${quiet_hours.start}); send null to turn quiet hours off`;
      throw badRequest(`quiet_hours.end ${message}`, [{ path: 'body.quiet_hours.end', message }]);
    }
    if (quiet_hours !== undefined) push.state.data.quiet_hours = quiet_hours;
    if (paused_until !== undefined) {
      push.state.data.paused_until = until === null ? null : new Date(until).toISOString();
    }
    push.state.save();
    return { ok: true, ...globalState(inst) };
  });

  app.post('/api/notifications/test', { schema: { body: TestBody } }, async (req, reply) => {
    try {
      const r = await push.testFire(req.body.id);
      return {
        ok: r.sent > 0,
        ...r,
        ...(r.sent > 0 ? {} : { reason: notDeliveredWords(r.devices, r.results) }),
      };
    } catch (err) {
      if (err instanceof KlebbError && err.code === 'TEST_TOO_SOON') {
        reply.header('Retry-After', String(err.extra?.retryAfter ?? 60));
      }
      throw err;
    }
  });

  app.get('/api/diagnostics', async () => ({
    tz: push.timeZone(),
    vapid_key_id: push.keys.keyId,
    subscriptions: push.subs.all().map((s) => ({
      id: s.id.slice(0, 12),
      host: new URL(s.endpoint).host,
      nickname: s.nickname,
      userAgent: s.userAgent,
      createdAt: s.createdAt,
      lastSentAt: s.lastSentAt,
      lastStatus: s.lastStatus,
      lastReason: s.lastReason ?? null,
      dead: s.dead,
      deadSince: s.deadSince,
      deadReason: s.deadReason ?? null,
      rejections: s.rejections ?? 0,
    })),
    recent_fires: [...push.state.data.recent_fires].reverse(),
    ...globalState(inst),
    state_problems: [
      ...push.state.problems.map((p) => `notifications.state.json: ${p}`),
      ...push.subs.problems,
    ],
  }));
}
