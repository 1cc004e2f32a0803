/**
 * push-scheduler: one minute of the reminder scheduler with 200 cards of 10 reminders each
 * (2000 reminders) and 20 push subscriptions; target < 5 ms of server time per tick.
 *
 * How: a fresh home opened in-process (`openInstance`, no file watcher, the minute timer off),
 * 200 cards created through the card store, each with 10 reminders (daily and weekly, times
 * spread over the day from a seeded generator, never at minute :07 of an hour), 20 subscriptions
 * (made-up P-256 keys on an unreachable https endpoint). A day of minutes is decided first so
 * every reminder is armed and has a last slot, as on a server that has been running. Then:
 * - `tick`: two days decided minute by minute; the minutes at :07 (nothing due: the usual
 *   minute) through `PushService.tick(now)`, timed from call to return;
 * - `due`: a minute where one card's 10 reminders are all due: the decision for all 2000
 *   reminders plus what the send does before the network, for every subscription: fitting the
 *   payload (one measuring encryption) and `web-push` encrypting the request for each (20 ×
 *   ECDH, HKDF, AES-GCM; the ES256 VAPID token is signed once per push service and hour). The
 *   HTTP requests themselves are not timed.
 */
import { createECDH, randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCard, deleteCard, WELCOME_CARD_ID } from '../src/cards/card-crud.js';
import { loadConfig } from '../src/config.js';
import { openInstance } from '../src/instance.js';
import { encryptedSize } from '../src/push/push-sender.js';
import { fitPayload } from '../src/push/reminder-payload.js';
import { evaluate } from '../src/push/scheduler.js';
import type { Benchmark } from './lib/bench.js';
import { rng } from './lib/chat.js';
import { progress } from './lib/report.js';
import { summarize } from './lib/stats.js';
import { makeTempDir, removeTempDir } from './lib/temp.js';

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const pad = (n: number) => String(n).padStart(2, '0');

function manifest(i: number, rand: () => number, dueCard: boolean) {
  const items = Array.from({ length: 10 }, (_, k) => {
    let h = Math.floor(rand() * 24);
    let m = Math.floor(rand() * 60);
    if (m === 7) m = 8;
    if (dueCard) {
      h = 12;
      m = 30;
    }
    const time = `${pad(h)}:${pad(m)}`;
    const trigger =
      k % 3 === 2
        ? { type: 'weekly', time, days: DAYS.filter(() => rand() < 0.5).concat('mon') }
        : { type: 'daily', time };
    return {
      id: `r${k}`,
      label: `Reminder ${k} of card ${i}`,
      title: 'Time to log',
      body: `Open card ${i} and add today's entry`,
      trigger: { ...trigger, days: trigger.days ? [...new Set(trigger.days)] : undefined },
      privacy: k % 2 ? 'public' : 'private',
    };
  });
  return {
    $schema: 'klebb.datafile.v1',
    meta: { id: `bench-${i}`, label: `Bench card ${i}`, notifications: { items } },
    data: [],
  };
}

export const pushScheduler: Benchmark = {
  name: 'push-scheduler',
  title: 'Reminders: one scheduler minute, 200 cards × 10 reminders, 20 subscriptions',
  async run(ctx) {
    const dir = makeTempDir('push-scheduler');
    const home = path.join(dir, 'home');
    const cards = ctx.quick ? 20 : 200;
    const start = Date.parse('2030-06-03T00:00:00Z');
    const inst = await openInstance(loadConfig({ HEALTH_HOME: home, KLEBB_LOG_LEVEL: 'silent' }), {
      watch: false,
      push: { autoStart: false, clock: () => new Date(start) },
    });
    try {
      inst.user.setTimeZone('Europe/Berlin');
      const rand = rng(14);
      for (let i = 0; i < cards; i++) {
        const m = manifest(i, rand, i === 0);
        createCard(inst.cards, JSON.parse(JSON.stringify(m)), 'bench-seed');
      }
      if (inst.cards.registry.has(WELCOME_CARD_ID)) deleteCard(inst.cards, WELCOME_CARD_ID, 'bench-seed');
      for (let s = 0; s < 20; s++) {
        const ecdh = createECDH('prime256v1');
        ecdh.generateKeys();
        inst.push.subs.upsert(
          {
            endpoint: `https://push.invalid/bench/${s}`,
            keys: {
              p256dh: ecdh.getPublicKey().toString('base64url'),
              auth: randomBytes(16).toString('base64url'),
            },
          },
          new Date(start),
        );
      }
      progress(`push-scheduler: ${cards} cards seeded; deciding a day of minutes to arm them`);
      const berlin = () => 'Europe/Berlin';
      // a day already run: every reminder armed and its last slot recorded (decisions only, no sends)
      for (let t = start; t < start + 86_400_000; t += 60_000) {
        evaluate(inst.cards, inst.push.state, t, berlin);
      }
      inst.push.state.save();
      const samples: number[] = [];
      const cpuSamples: number[] = [];
      // three more days minute by minute (decisions as the timer would make them); the ticks at
      // :07, where no reminder is due, are timed through PushService.tick
      for (let t = start + 86_400_000; t < start + 3 * 86_400_000; t += 60_000) {
        if (new Date(t).getUTCMinutes() !== 7) {
          evaluate(inst.cards, inst.push.state, t, berlin);
          continue;
        }
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const fired = await inst.push.tick(new Date(t));
        samples.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpuSamples.push((c.user + c.system) / 1000);
        if (fired.length > 0)
          throw new Error(`a reminder fired at ${new Date(t).toISOString()}: the fixture is wrong`);
      }
      // a minute where card 0's ten reminders are due (12:30 Berlin = 10:30Z in June)
      const dueAt = start + 3 * 86_400_000 + 10.5 * 3_600_000;
      const subs = inst.push.subs.live();
      const vapid = {
        subject: inst.config.push.subject,
        publicKey: inst.push.keys.publicKey,
        privateKey: inst.push.keys.privateKey,
      };
      // as a PushService does: one token map kept across messages
      const sender = { vapid, tokens: new Map() };
      const dueSamples: number[] = [];
      let decided = start + 3 * 86_400_000;
      for (let rep = 0; rep < (ctx.quick ? 2 : 3); rep++) {
        const at = dueAt + rep * 86_400_000;
        for (; decided < at; decided += 60_000) evaluate(inst.cards, inst.push.state, decided, berlin);
        decided += 60_000;
        const t0 = performance.now();
        const ev = evaluate(inst.cards, inst.push.state, at, berlin);
        for (const e of ev.events) {
          const { json } = fitPayload(e.reminders, e.slot, 'Klebb', (j) => encryptedSize(subs[0], j, sender));
          // the encryption and headers sendPush makes for each device (the same request options)
          for (const s of subs) encryptedSize(s, json, sender);
        }
        dueSamples.push(performance.now() - t0);
        if (!ev.events.some((e) => e.cardId === 'bench-0')) throw new Error('expected card 0 to be due');
      }
      const tick = summarize(samples);
      const cpu = summarize(cpuSamples);
      const due = summarize(dueSamples);
      return {
        figures: [
          {
            key: 'tick_median_ms',
            label: 'tick, nothing due: median',
            value: tick.median,
            unit: 'ms',
            target: { op: '<', value: 5 },
          },
          {
            key: 'tick_cpu_median_ms',
            label: 'tick, nothing due: process CPU time, median',
            value: cpu.median,
            unit: 'ms',
          },
          { key: 'tick_p95_ms', label: 'tick, nothing due: p95', value: tick.p95, unit: 'ms' },
          { key: 'tick_max_ms', label: 'tick, nothing due: max', value: tick.max, unit: 'ms' },
          {
            key: 'due_median_ms',
            label: 'minute with one card due: decide + encrypt for 20 devices, median',
            value: due.median,
            unit: 'ms',
          },
          { key: 'due_p95_ms', label: 'minute with one card due: p95', value: due.p95, unit: 'ms' },
        ],
        notes: [
          `${cards} cards × 10 reminders, 20 subscriptions, time zone Europe/Berlin; ${tick.n} nothing-due ticks, ${due.n} due minutes`,
          'the due figure includes the other cards due that minute, if any, and 21 encryptions per card (one to measure the payload, one per device); network time is not counted',
        ],
      };
    } finally {
      await inst.close();
      removeTempDir(dir);
    }
  },
};
