/**
 * Web Push for one instance: the VAPID keys, the subscriptions, the notification state, the
 * minute timer that runs the scheduler (src/push/scheduler.ts) and the sending. The timer is a
 * self-rescheduling `setTimeout` aligned to the start of each minute, plus one tick at start-up
 * (that is the catch-up after downtime). In demo mode none of it starts.
 */
import type https from 'node:https';
import type { CardContext } from '../cards/card-context.js';
import type { CardEvent } from '../cards/card-loader.js';
import { KlebbError, notFound } from '../errors.js';
import { CARD_RETURN_MS, MAX_PUSH_PAYLOAD_BYTES, TEST_PUSH_INTERVAL_MS } from '../limits.js';
import { deletedCardChoices } from './deleted-card-choices.js';
import { type DeviceResult, deviceResults } from './device-result.js';
import { type FireRecord, type ItemState, NotificationState } from './notification-state.js';
import { encryptedSize, type SenderOptions, sendPush } from './push-sender.js';
import { pushTopic } from './push-topic.js';
import { cardReminders, listReminders, type ReminderRef } from './reminder-list.js';
import { type DueReminder, fitPayload } from './reminder-payload.js';
import { armIfNew, type DueEvent, dueReminder, evaluate } from './scheduler.js';
import { SubscriptionStore } from './subscription-store.js';
import { previousSlot } from './trigger-slots.js';
import { loadOrCreateVapidKeys, type VapidKeys } from './vapid-keys.js';
import { wallClockAt } from './zoned-time.js';

/** Test seams: a clock, an HTTPS agent trusting a stand-in push service, a short backoff, no timer. */
export interface PushDeps {
  clock?: () => Date;
  agent?: https.Agent;
  retryBaseMs?: number;
  /** Start the minute timer with the instance (default true; tests drive `tick` themselves). */
  autoStart?: boolean;
}

/** What one fire did (also the answer of a test push). */
export interface FireResult {
  status: string;
  sent: number;
  failed: number;
  devices: number;
  /** Each device's outcome, with the reason when it did not get the message. */
  results: DeviceResult[];
}

/** Whether a reminder will reach anyone, and if not why (for the chat agent and the settings page). */
export interface DeliveryStatus {
  devices: number;
  will_arrive: boolean;
  reason: 'no-devices' | 'paused' | 'switched-off' | 'card-off' | null;
}

interface Log {
  info: (obj: object, msg?: string) => void;
  warn: (obj: object, msg?: string) => void;
}

/** The push machinery of one home. */
export class PushService {
  readonly keys: VapidKeys;
  readonly subs: SubscriptionStore;
  readonly state: NotificationState;
  private readonly clock: () => Date;
  private readonly sender: SenderOptions;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly opts: {
      home: string;
      subject: string;
      instanceName: string;
      cards: CardContext;
      timeZone: () => string;
      log: Log;
      /** Loopback and private endpoints allowed (KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS). */
      allowPrivateEndpoints?: boolean;
      deps?: PushDeps;
      /** Told how late each minute tick fired, seconds. */
      onTickLag?: (seconds: number) => void;
    },
  ) {
    this.keys = loadOrCreateVapidKeys(opts.home);
    this.subs = new SubscriptionStore(opts.home);
    this.state = new NotificationState(opts.home);
    this.deletedChoices = deletedCardChoices(opts.home);
    for (const problem of this.state.problems) {
      opts.log.warn({ file: this.state.file }, `notification state: ${problem}`);
    }
    for (const problem of this.subs.problems) opts.log.warn({ file: this.subs.file }, problem);
    this.clock = opts.deps?.clock ?? (() => new Date());
    this.sender = {
      vapid: { subject: opts.subject, publicKey: this.keys.publicKey, privateKey: this.keys.privateKey },
      tokens: new Map(),
      agent: opts.deps?.agent,
      retryBaseMs: opts.deps?.retryBaseMs,
      allowPrivate: opts.allowPrivateEndpoints,
    };
  }

  /** The user's time zone (the browser's report, else the server's). */
  timeZone(): string {
    return this.opts.timeZone();
  }

  /** Starts the minute timer (and the start-up tick), unless the deps said not to. */
  start(): void {
    if (this.opts.deps?.autoStart === false || this.closed) return;
    this.track(this.tick());
    this.scheduleNext();
  }

  private scheduleNext(): void {
    const now = this.clock().getTime();
    const delay = 60_000 - (now % 60_000) + 25;
    this.timer = setTimeout(() => {
      // how late the timer fired (a busy event loop or a machine that slept): an operator's figure
      this.opts.onTickLag?.(Math.max(0, this.clock().getTime() - (now + delay)) / 1000);
      this.track(this.tick());
      this.scheduleNext();
    }, delay);
    this.timer.unref();
  }

  private track(p: Promise<unknown>): void {
    const q = p.catch((err) => this.opts.log.warn({ err: (err as Error).message }, 'reminder tick failed'));
    this.inFlight.add(q);
    void q.finally(() => this.inFlight.delete(q));
  }

  /** Stops the timer and waits (at most `graceMs`) for pushes being sent. */
  async stop(graceMs = 2000): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.inFlight.size === 0) return;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((r) => setTimeout(r, graceMs).unref()),
    ]);
  }

  /**
   * Runs the scheduler for the minute of `now` and sends what is due. The decision is saved
   * before anything is sent.
   * @returns the events fired with their results.
   */
  async tick(now = this.clock()): Promise<{ event: DueEvent; result: FireResult }[]> {
    const ev = evaluate(this.opts.cards, this.state, now.getTime(), () => this.timeZone());
    const pruned = this.subs.pruneDead(now);
    for (const s of ev.skipped) {
      if (s.status === 'nothing-due') continue;
      const cardId = s.id.slice(0, s.id.indexOf('#'));
      this.state.record(fireRecord(now, 'scheduled', cardId, [s.id], s.slot, s.status, 0, 0));
    }
    if (ev.changed || ev.skipped.length > 0) this.state.save();
    if (pruned > 0) this.opts.log.info({ pruned }, 'dropped push subscriptions dead for a week');
    const out: { event: DueEvent; result: FireResult }[] = [];
    for (const event of ev.events) {
      out.push({
        event,
        result: await this.send(event.cardId, event.slot, event.reminders, 'scheduled', now),
      });
    }
    return out;
  }

  /** Sends one card's reminders to every live subscription and records the outcome. */
  private async send(
    cardId: string,
    slot: string | null,
    reminders: DueReminder[],
    kind: 'scheduled' | 'test',
    now: Date,
  ): Promise<FireResult> {
    const subs = this.subs.live();
    let sent = 0;
    let failed = 0;
    let status = 'no-devices';
    let results: DeviceResult[] = [];
    if (subs.length > 0) {
      const measure = (json: string) => encryptedSize(subs[0], json, this.sender);
      const fitted = (max: number) =>
        fitPayload(reminders, slot, this.opts.instanceName, measure, { test: kind === 'test', max }).json;
      const topic = pushTopic(
        reminders.map((r) => r.id),
        slot,
      );
      const json = fitted(MAX_PUSH_PAYLOAD_BYTES);
      let outcomes = await Promise.all(subs.map((s) => sendPush(s, json, topic, this.sender)));
      // a service that takes less than the usual 4096 bytes (413) gets the message once more,
      // made to fit half of that: fewer items and shorter texts, rather than nothing
      const tooLarge = new Set(outcomes.filter((o) => o.result === 'too-large').map((o) => o.id));
      if (tooLarge.size > 0) {
        const smaller = fitted(Math.floor(MAX_PUSH_PAYLOAD_BYTES / 2));
        const again = new Map(
          (
            await Promise.all(
              subs.filter((s) => tooLarge.has(s.id)).map((s) => sendPush(s, smaller, topic, this.sender)),
            )
          ).map((o) => [o.id, o]),
        );
        outcomes = outcomes.map((o) => again.get(o.id) ?? o);
      }
      for (const o of outcomes) if (o.result === 'gone') this.subs.removeId(o.id);
      this.subs.noteResults(
        outcomes.flatMap((o) =>
          o.result === 'gone'
            ? []
            : [
                {
                  id: o.id,
                  status: o.status,
                  // too large even at half the size: the message failed, the address did not
                  result: o.result === 'too-large' ? 'failed' : o.result,
                  reason: o.reason ?? null,
                },
              ],
        ),
        now,
      );
      sent = outcomes.filter((o) => o.result === 'sent').length;
      failed = outcomes.length - sent;
      results = deviceResults(subs, outcomes);
      status = sent === 0 ? 'failed' : failed > 0 ? 'partial' : 'sent';
    }
    if (this.closed && kind === 'scheduled') return { status, sent, failed, devices: subs.length, results };
    for (const r of reminders) {
      const s = this.state.item(r.id);
      if (kind === 'scheduled') {
        s.lastFired = now.toISOString();
        s.lastFireStatus = status;
      }
    }
    this.state.record(
      fireRecord(
        now,
        kind,
        cardId,
        reminders.map((r) => r.id),
        slot,
        status,
        sent,
        failed,
      ),
    );
    this.state.save();
    return { status, sent, failed, devices: subs.length, results };
  }

  /**
   * Sends one reminder now, whatever its trigger, quiet hours or pause (the person asked). The
   * minute between two tests of a reminder starts only when a device got this one: with no device
   * yet, or none reached, the person who fixes that (adds a device) may try again at once.
   * @throws 404 NOTIFICATION_NOT_FOUND for an unknown id; 429 TEST_TOO_SOON within
   * TEST_PUSH_INTERVAL_MS of the last test of the same reminder that reached a device.
   */
  async testFire(id: string, now = this.clock()): Promise<FireResult> {
    const ref = this.find(id);
    const s = this.state.item(id);
    const last = s.lastTestAt ? Date.parse(s.lastTestAt) : Number.NaN;
    if (!Number.isNaN(last) && now.getTime() - last < TEST_PUSH_INTERVAL_MS) {
      const wait = Math.ceil((TEST_PUSH_INTERVAL_MS - (now.getTime() - last)) / 1000);
      throw new KlebbError(
        429,
        'TEST_TOO_SOON',
        `One test per reminder a minute: try again in ${wait} s`,
        undefined,
        {
          retryAfter: wait,
        },
      );
    }
    // taken now, so a second test asked for while this one is sending waits its minute too;
    // given back below when no device got it
    const before = s.lastTestAt;
    s.lastTestAt = now.toISOString();
    this.state.save();
    const giveBack = () => {
      const cur = this.state.item(id);
      if (cur.lastTestAt !== now.toISOString()) return;
      if (before === undefined) delete cur.lastTestAt;
      else cur.lastTestAt = before;
      this.state.save();
    };
    let result: FireResult;
    try {
      result = await this.sendTest(ref, now);
    } catch (err) {
      giveBack();
      throw err;
    }
    if (result.sent === 0) giveBack();
    return result;
  }

  /** Sends reminder `ref` as a test now. */
  private sendTest(ref: ReminderRef, now: Date): Promise<FireResult> {
    const tz = this.timeZone();
    const wall = wallClockAt(now.getTime(), tz);
    const reminder = dueReminder(ref, this.opts.cards, wall.date, wall.time, tz);
    if (reminder.reminders && reminder.reminders.due_now.length === 0) {
      // nothing is due right now: the test still shows what the reminder looks like
      reminder.title = reminder.title.trim() || String(ref.item.title);
      reminder.body = reminder.body.trim() || String(ref.item.label);
    }
    return this.send(ref.card.id, null, [reminder], 'test', now);
  }

  /** The reminder with this `<card>#<item>` id. @throws 404 NOTIFICATION_NOT_FOUND. */
  find(id: string): ReminderRef {
    const cardId = id.slice(0, Math.max(0, id.indexOf('#')));
    const card = this.opts.cards.registry.get(cardId);
    const ref = card ? cardReminders(card, this.state).find((r) => r.id === id) : undefined;
    if (!ref)
      throw notFound(`no reminder "${id}" (ids are "<card id>#<reminder id>")`, 'NOTIFICATION_NOT_FOUND');
    return ref;
  }

  /**
   * Arms the new or changed reminders of a card at once, so one set at 20:59 for 21:00 fires at
   * 21:00 (the next tick would otherwise see it first at 21:00 and wait for tomorrow).
   */
  armCard(cardId: string, now = this.clock()): void {
    const card = this.opts.cards.registry.get(cardId);
    if (!card) return;
    const refs = cardReminders(card, this.state);
    // a card without reminders needs no time zone (nor Intl's data for it)
    if (refs.length === 0) return;
    const tz = this.timeZone();
    const wall = wallClockAt(now.getTime(), tz);
    let changed = false;
    for (const ref of refs) {
      if (armIfNew(ref, this.state, previousSlot(ref.trigger, now.getTime(), wall, tz))) changed = true;
    }
    if (changed) this.saveQuietly();
  }

  /**
   * Follows card changes: arms changed reminders; forgets the state of a card gone for good. A
   * card file that vanishes and comes back within CARD_RETURN_MS (a sync tool deleting before it
   * downloads, a slow rename) is the same card: its reminders keep what they knew (when they
   * were last sent and how that went, the slot last handled), so nothing is sent again or missed;
   * a card deleted through the app or API is forgotten at once, except the person's choices (which
   * reminders are on, their privacy), kept in a file of the home (a restart in between does not
   * lose them) until the card comes back by an undo of the deletion, which puts them back; a new
   * card made under the same id starts with the defaults.
   */
  onCardEvent(e: CardEvent): void {
    if (this.closed) return;
    if (e.type === 'card-changed') {
      this.goneCards.delete(e.id);
      const choices = this.takeDeletedChoices(e.id);
      if (e.restored && choices && this.state.putChoices(choices)) this.saveQuietly();
      this.armCard(e.id);
    } else if (e.type === 'card-removed' && !e.mayReturn) {
      // deleted on purpose (the app, the API, a tool): forgotten at once
      const choices = this.state.takeCard(e.id);
      if (choices === null) return;
      if (Object.keys(choices).length > 0) this.holdDeletedChoices(e.id, choices);
      this.saveQuietly();
    } else if (e.type === 'card-removed') {
      this.goneCards.set(e.id, this.clock().getTime());
      const later = setTimeout(() => this.forgetGoneCards(), CARD_RETURN_MS + 1000);
      later.unref();
    }
  }

  /** The reminder choices of cards deleted on purpose, newest last (at most DELETED_CHOICES_KEPT). */
  private readonly deletedChoices;

  private holdDeletedChoices(cardId: string, choices: Record<string, ItemState>): void {
    try {
      this.deletedChoices.hold(cardId, choices);
    } catch (err) {
      const msg = (err as Error).message;
      this.opts.log.warn({ err: msg, cardId }, 'could not keep the reminder choices of a deleted card');
    }
  }

  private takeDeletedChoices(cardId: string): Record<string, ItemState> | undefined {
    try {
      return this.deletedChoices.take(cardId);
    } catch (err) {
      const msg = (err as Error).message;
      this.opts.log.warn({ err: msg, cardId }, 'could not update the reminder choices of a deleted card');
      return undefined;
    }
  }

  /** Cards removed at a time (ms): their reminder state is dropped once they stayed away CARD_RETURN_MS. */
  private readonly goneCards = new Map<string, number>();

  /** Drops the reminder state of the cards gone for longer than CARD_RETURN_MS by `now`. */
  forgetGoneCards(now = this.clock()): void {
    if (this.closed) return;
    let dropped = false;
    for (const [id, at] of this.goneCards) {
      if (now.getTime() - at < CARD_RETURN_MS) continue;
      this.goneCards.delete(id);
      if (!this.opts.cards.registry.has(id) && this.state.dropCard(id)) dropped = true;
    }
    if (dropped) this.saveQuietly();
  }

  private saveQuietly(): void {
    try {
      this.state.save();
    } catch (err) {
      this.opts.log.warn({ err: (err as Error).message }, 'could not save the notification state');
    }
  }

  /** Whether reminders of `ref` (or any, without one) will reach a device now. */
  deliveryStatus(ref?: ReminderRef): DeliveryStatus {
    const devices = this.subs.live().length;
    const paused = this.state.data.paused_until;
    let reason: DeliveryStatus['reason'] = null;
    if (devices === 0) reason = 'no-devices';
    else if (ref && !ref.active) reason = 'card-off';
    else if (ref && !ref.enabled) reason = 'switched-off';
    else if (paused && Date.parse(paused) > this.clock().getTime()) reason = 'paused';
    return { devices, will_arrive: reason === null, reason };
  }

  /** Every reminder with its state, for `GET /api/notifications`. */
  list(): ReminderRef[] {
    return listReminders(this.opts.cards, this.state);
  }
}

function fireRecord(
  now: Date,
  kind: 'scheduled' | 'test',
  cardId: string,
  items: string[],
  slot: string | null,
  status: string,
  sent: number,
  failed: number,
): FireRecord {
  return { at: now.toISOString(), kind, card_id: cardId, items, slot, status, sent, failed };
}
