/**
 * The reminder scheduler on a controlled clock: the real server (temporary home, real state
 * files) with its minute timer off, ticked minute by minute through daylight-saving changes,
 * quiet hours, pauses, restarts and downtime. Pushes go to the local push-service stand-in, so a
 * "fire" below is a decrypted message that arrived.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PushStandIn, type StandInSubscription, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
const open: TestServer[] = [];

beforeAll(async () => {
  push = await startPushStandIn();
});
afterAll(async () => {
  await push.close();
});
afterEach(async () => {
  while (open.length) await open.pop()?.close();
});

const MIN = 60_000;

interface Env {
  s: TestServer;
  sub: StandInSubscription;
  /** Ticks every minute from `from` to `to` (inclusive, ISO instants), returning the instants that fired per card. */
  run(from: string, to: string, stepMs?: number): Promise<{ at: string; card: string; items: string[] }[]>;
}

async function env(tz: string, cards: unknown[], home?: string): Promise<Env> {
  const s = await startServer({
    home,
    env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, retryBaseMs: 10, autoStart: false },
  });
  open.push(s);
  s.inst.user.setTimeZone(tz);
  for (const c of cards) {
    const r = await s.api('/api/manifests', { json: c });
    if (r.status !== 201) throw new Error(`card not created: ${r.text}`);
  }
  const sub = push.subscribe();
  if (!s.inst.push.subs.find(sub.endpoint)) {
    await s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: sub.keys } });
  }
  return {
    s,
    sub,
    async run(from, to, stepMs = MIN) {
      const out: { at: string; card: string; items: string[] }[] = [];
      for (let t = Date.parse(from); t <= Date.parse(to); t += stepMs) {
        for (const f of await s.inst.push.tick(new Date(t))) {
          out.push({
            at: new Date(t).toISOString(),
            card: f.event.cardId,
            items: f.event.reminders.map((r) => r.id),
          });
        }
      }
      return out;
    },
  };
}

function card(id: string, items: { id: string; trigger: unknown; title?: string; body?: string }[]) {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label: id,
      notifications: {
        items: items.map((i) => ({
          label: i.id,
          title: i.title ?? 'Time to log',
          body: i.body ?? 'Open the card',
          privacy: 'public',
          ...i,
        })),
      },
    },
    data: [],
  };
}

const daily = (time: string) => ({ type: 'daily', time });

describe('daylight-saving changes: a slot fires once, never zero or two times', () => {
  it('Europe/Berlin spring forward: 02:30 does not exist, it fires once at 03:30 summer time', async () => {
    const e = await env('Europe/Berlin', [card('c', [{ id: 'r', trigger: daily('02:30') }])]);
    // arm the evening before, then every minute through the night (00:00Z = 01:00 CET)
    await e.run('2030-03-30T20:00:00Z', '2030-03-30T20:00:00Z');
    const fired = await e.run('2030-03-31T00:00:00Z', '2030-03-31T03:00:00Z');
    expect(fired).toEqual([{ at: '2030-03-31T01:30:00.000Z', card: 'c', items: ['c#r'] }]);
  });

  it('Europe/Berlin fall back: 02:30 happens twice, it fires once at the first', async () => {
    const e = await env('Europe/Berlin', [card('c', [{ id: 'r', trigger: daily('02:30') }])]);
    await e.run('2030-10-26T20:00:00Z', '2030-10-26T20:00:00Z');
    const fired = await e.run('2030-10-26T23:00:00Z', '2030-10-27T03:00:00Z');
    expect(fired).toEqual([{ at: '2030-10-27T00:30:00.000Z', card: 'c', items: ['c#r'] }]);
  });

  it('America/New_York: the skipped 02:30 and the repeated 01:30 each fire once', async () => {
    const e = await env('America/New_York', [
      card('gap', [{ id: 'r', trigger: daily('02:30') }]),
      card('rep', [{ id: 'r', trigger: daily('01:30') }]),
    ]);
    await e.run('2030-03-09T12:00:00Z', '2030-03-09T12:00:00Z');
    // 2030-03-10: 02:00 EST jumps to 03:00 EDT; 02:30 is 03:30 EDT = 07:30Z
    const spring = await e.run('2030-03-10T05:00:00Z', '2030-03-10T09:00:00Z');
    expect(spring).toEqual([
      { at: '2030-03-10T06:30:00.000Z', card: 'rep', items: ['rep#r'] },
      { at: '2030-03-10T07:30:00.000Z', card: 'gap', items: ['gap#r'] },
    ]);
    // 2030-11-03: 02:00 EDT falls back to 01:00 EST; 01:30 happens at 05:30Z and 06:30Z
    await e.run('2030-11-02T12:00:00Z', '2030-11-02T12:00:00Z');
    const fall = await e.run('2030-11-03T04:00:00Z', '2030-11-03T08:30:00Z');
    expect(fall).toEqual([
      { at: '2030-11-03T05:30:00.000Z', card: 'rep', items: ['rep#r'] },
      { at: '2030-11-03T07:30:00.000Z', card: 'gap', items: ['gap#r'] },
    ]);
  });

  it('Australia/Lord_Howe: the half-hour shift skips 02:15 once and repeats 01:45 once', async () => {
    const e = await env('Australia/Lord_Howe', [
      card('gap', [{ id: 'r', trigger: daily('02:15') }]),
      card('rep', [{ id: 'r', trigger: daily('01:45') }]),
    ]);
    // 2030-04-07 02:00 (+11) becomes 01:30 (+10:30): 01:45 happens at 14:45Z and 15:15Z
    await e.run('2030-04-06T00:00:00Z', '2030-04-06T00:00:00Z');
    const fall = await e.run('2030-04-06T14:00:00Z', '2030-04-06T16:30:00Z');
    expect(fall).toEqual([
      { at: '2030-04-06T14:45:00.000Z', card: 'rep', items: ['rep#r'] },
      { at: '2030-04-06T15:45:00.000Z', card: 'gap', items: ['gap#r'] },
    ]);
    // 2030-10-06 02:00 (+10:30) becomes 02:30 (+11): 01:45 is 15:15Z the day before, 02:15 is
    // 02:45 = 15:45Z
    await e.run('2030-10-05T00:00:00Z', '2030-10-05T00:00:00Z');
    const spring = await e.run('2030-10-05T14:00:00Z', '2030-10-05T17:00:00Z');
    expect(spring).toEqual([
      { at: '2030-10-05T15:15:00.000Z', card: 'rep', items: ['rep#r'] },
      { at: '2030-10-05T15:45:00.000Z', card: 'gap', items: ['gap#r'] },
    ]);
  });
});

describe('a move to another time zone: the next local morning fires once', () => {
  it('west across the date line (Auckland to Los Angeles): the morning with the same date still fires', async () => {
    const e = await env('Pacific/Auckland', [card('c', [{ id: 'r', trigger: daily('08:00') }])]);
    await e.run('2030-06-09T00:00:00Z', '2030-06-09T00:00:00Z');
    // Auckland (+12) 10 June 08:00 is 9 June 20:00Z
    const home = await e.run('2030-06-09T19:00:00Z', '2030-06-09T20:30:00Z', 5 * MIN);
    expect(home).toEqual([{ at: '2030-06-09T20:00:00.000Z', card: 'c', items: ['c#r'] }]);
    // the flight lands: Los Angeles (−7) is still 9 June; its 10 June 08:00 is 15:00Z
    e.s.inst.user.setTimeZone('America/Los_Angeles');
    const away = await e.run('2030-06-09T20:35:00Z', '2030-06-10T16:00:00Z', 5 * MIN);
    expect(away).toEqual([{ at: '2030-06-10T15:00:00.000Z', card: 'c', items: ['c#r'] }]);
  });

  it('east across the date line (Los Angeles to Auckland): each morning once, none twice', async () => {
    const e = await env('America/Los_Angeles', [card('c', [{ id: 'r', trigger: daily('08:00') }])]);
    await e.run('2030-06-09T00:00:00Z', '2030-06-09T00:00:00Z');
    const home = await e.run('2030-06-10T14:30:00Z', '2030-06-10T15:30:00Z', 5 * MIN);
    expect(home).toEqual([{ at: '2030-06-10T15:00:00.000Z', card: 'c', items: ['c#r'] }]);
    // Auckland is already 11 June 03:30; its 11 June 08:00 is 10 June 20:00Z, then 12 June's
    e.s.inst.user.setTimeZone('Pacific/Auckland');
    const away = await e.run('2030-06-10T15:35:00Z', '2030-06-11T20:30:00Z', 5 * MIN);
    expect(away).toEqual([
      { at: '2030-06-10T20:00:00.000Z', card: 'c', items: ['c#r'] },
      { at: '2030-06-11T20:00:00.000Z', card: 'c', items: ['c#r'] },
    ]);
  });
});

describe('quiet hours, pause, weekly days, coalescing', () => {
  it('quiet hours over midnight hold back 23:30 and 06:30 but not 07:00', async () => {
    const e = await env('Europe/Berlin', [
      card('c', [
        { id: 'late', trigger: daily('23:30') },
        { id: 'early', trigger: daily('06:30') },
        { id: 'wake', trigger: daily('07:00') },
      ]),
    ]);
    await e.s.api('/api/notifications/global-state', {
      json: { quiet_hours: { start: '22:00', end: '07:00' } },
    });
    await e.run('2030-06-01T12:00:00Z', '2030-06-01T12:00:00Z');
    const fired = await e.run('2030-06-01T20:00:00Z', '2030-06-02T06:00:00Z');
    expect(fired).toEqual([{ at: '2030-06-02T05:00:00.000Z', card: 'c', items: ['c#wake'] }]);
    const list = (await e.s.api('/api/notifications')).body.notifications;
    expect(list.find((n: any) => n.id === 'c#late').last_fire_status).toBe('quiet');
    expect(list.find((n: any) => n.id === 'c#early').last_fire_status).toBe('quiet');
    expect(list.find((n: any) => n.id === 'c#wake').last_fire_status).toBe('sent');
  });

  it('pause holds everything; a slot at the end of the pause fires after it within the grace window', async () => {
    const e = await env('UTC', [card('c', [{ id: 'r', trigger: daily('08:00') }])]);
    await e.run('2030-06-01T00:00:00Z', '2030-06-01T00:00:00Z');
    await e.s.api('/api/notifications/global-state', { json: { paused_until: '2030-06-02T08:05:00Z' } });
    const during = await e.run('2030-06-01T07:00:00Z', '2030-06-02T08:04:00Z', 5 * MIN);
    expect(during).toEqual([]);
    const after = await e.run('2030-06-02T08:05:00Z', '2030-06-02T09:00:00Z');
    expect(after).toEqual([{ at: '2030-06-02T08:05:00.000Z', card: 'c', items: ['c#r'] }]);
  });

  it('weekly reminders fire on their days only', async () => {
    const e = await env('UTC', [
      card('c', [{ id: 'r', trigger: { type: 'weekly', time: '09:00', days: ['mon', 'thu'] } }]),
    ]);
    await e.run('2030-06-02T00:00:00Z', '2030-06-02T00:00:00Z');
    const fired = await e.run('2030-06-02T09:00:00Z', '2030-06-09T09:00:00Z', 30 * MIN);
    // 2030-06-03 is a Monday, 2030-06-06 a Thursday
    expect(fired.map((f) => f.at)).toEqual(['2030-06-03T09:00:00.000Z', '2030-06-06T09:00:00.000Z']);
  });

  it('reminders of one card due in the same minute arrive as one push; two cards, two pushes', async () => {
    const e = await env('UTC', [
      card('a', [
        { id: 'one', trigger: daily('08:00') },
        { id: 'two', trigger: daily('08:00') },
        { id: 'three', trigger: daily('08:00') },
      ]),
      card('b', [{ id: 'one', trigger: daily('08:00') }]),
    ]);
    await e.run('2030-06-01T00:00:00Z', '2030-06-01T00:00:00Z');
    const fired = await e.run('2030-06-01T08:00:00Z', '2030-06-01T08:02:00Z');
    expect(fired).toEqual([
      { at: '2030-06-01T08:00:00.000Z', card: 'a', items: ['a#one', 'a#two', 'a#three'] },
      { at: '2030-06-01T08:00:00.000Z', card: 'b', items: ['b#one'] },
    ]);
    const msgs = push.messagesFor(e.sub.id);
    expect(msgs).toHaveLength(2);
    expect(msgs[0].payload.type).toBe('coalesced');
    expect(msgs[0].payload.items.map((i: any) => i.id)).toEqual(['a#one', 'a#two', 'a#three']);
    expect(msgs[1].payload.type).toBe('single');
  });
});

describe('a phone that was offline', () => {
  it('gets every reminder of one card fired minutes apart: each reminder and slot has its own topic', async () => {
    const e = await env('UTC', [
      card('c', [
        { id: 'first', trigger: daily('21:00') },
        { id: 'second', trigger: daily('21:03') },
        { id: 'third', trigger: daily('21:03') },
      ]),
    ]);
    await e.run('2030-06-01T00:00:00Z', '2030-06-01T00:00:00Z');
    push.offline(e.sub.id);
    await e.run('2030-06-01T20:59:00Z', '2030-06-01T21:05:00Z');
    const kept = push.online(e.sub.id);
    expect(kept.map((m) => m.payload.items.map((i: any) => i.id))).toEqual([
      ['c#first'],
      ['c#second', 'c#third'],
    ]);
    for (const m of kept) expect(m.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    // the same reminder the next evening is another slot: its own topic too
    push.offline(e.sub.id);
    await e.run('2030-06-02T21:00:00Z', '2030-06-02T21:00:00Z');
    const next = push.online(e.sub.id);
    expect(next.map((m) => m.payload.items[0].id)).toEqual(['c#first']);
    expect(next[0].topic).not.toBe(kept[0].topic);
    expect(push.rejected).toEqual([]);
  });
});

describe('quiet hours across a daylight-saving change are judged by the time the reminder was set for', () => {
  // days before, of and after each change; the offset differs before and after it
  const zones: { tz: string; days: string[] }[] = [
    { tz: 'Europe/Berlin', days: ['2030-03-30', '2030-03-31', '2030-04-01'] },
    { tz: 'Europe/Berlin', days: ['2030-10-26', '2030-10-27', '2030-10-28'] },
    { tz: 'America/New_York', days: ['2030-03-09', '2030-03-10', '2030-03-11'] },
    { tz: 'America/New_York', days: ['2030-11-02', '2030-11-03', '2030-11-04'] },
    // a half-hour shift: 02:00 +10:30 becomes 02:30 +11, and back
    { tz: 'Australia/Lord_Howe', days: ['2030-10-05', '2030-10-06', '2030-10-07'] },
    { tz: 'Australia/Lord_Howe', days: ['2030-04-06', '2030-04-07', '2030-04-08'] },
  ];
  const local = (date: string, time: string, tz: string) => {
    // the instant of a wall-clock time, found by the offset Intl reports for it
    const guess = Date.parse(`${date}T${time}:00Z`);
    for (const probe of [guess - 14 * 3600_000, guess, guess + 14 * 3600_000]) {
      const parts = new Intl.DateTimeFormat('en-CA', {
        timeZone: tz,
        timeZoneName: 'longOffset',
      }).formatToParts(probe);
      const off = parts.find((p) => p.type === 'timeZoneName')?.value.replace('GMT', '') || '+00:00';
      const at = Date.parse(`${date}T${time}:00${off}`);
      const back = new Intl.DateTimeFormat('sv-SE', {
        timeZone: tz,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      }).format(at);
      if (back === `${date} ${time}`) return new Date(at).toISOString();
    }
    throw new Error(`no ${date} ${time} in ${tz}`);
  };

  for (const { tz, days } of zones) {
    it(`${tz} ${days[1]}: 07:30 stays quiet in 07:00-08:00 and 08:15 is sent, at local time, each day`, async () => {
      const e = await env(tz, [
        card('c', [
          { id: 'quiet', trigger: daily('07:30') },
          { id: 'sent', trigger: daily('08:15') },
          { id: 'night', trigger: daily('23:45') },
        ]),
      ]);
      await e.s.api('/api/notifications/global-state', {
        json: { quiet_hours: { start: '07:00', end: '08:00' } },
      });
      // armed a week before the change
      await e.run(local(shiftDay(days[0], -7), '12:00', tz), local(shiftDay(days[0], -7), '12:00', tz));
      const from = local(shiftDay(days[0], -1), '12:00', tz);
      const to = local(days[2], '12:00', tz);
      const fired = await e.run(from, to, 5 * MIN);
      const expected = [shiftDay(days[0], -1), ...days].flatMap((d) => [
        ...(d === shiftDay(days[0], -1) ? [] : [{ at: local(d, '08:15', tz), card: 'c', items: ['c#sent'] }]),
        ...(d === days[2] ? [] : [{ at: local(d, '23:45', tz), card: 'c', items: ['c#night'] }]),
      ]);
      expect(fired).toEqual(expected.sort((a, b) => a.at.localeCompare(b.at)));
      const fires = (await e.s.api('/api/diagnostics')).body.recent_fires as {
        at: string;
        items: string[];
        status: string;
      }[];
      const quiet = fires.filter((f) => f.items.includes('c#quiet') && f.at > from);
      expect(quiet.map((f) => f.status)).toEqual(['quiet', 'quiet', 'quiet']);
    });
  }
});

describe('quiet hours are also judged by the time a reminder would arrive', () => {
  it('Europe/Berlin spring forward: 02:30 arrives at 03:30, inside quiet hours from 03:00, and stays quiet', async () => {
    const e = await env('Europe/Berlin', [card('c', [{ id: 'r', trigger: daily('02:30') }])]);
    await e.s.api('/api/notifications/global-state', {
      json: { quiet_hours: { start: '03:00', end: '06:00' } },
    });
    await e.run('2030-03-30T20:00:00Z', '2030-03-30T20:00:00Z');
    expect(await e.run('2030-03-31T00:00:00Z', '2030-03-31T03:00:00Z')).toEqual([]);
    // the day after, 02:30 exists and is outside quiet hours
    expect(await e.run('2030-03-31T23:00:00Z', '2030-04-01T02:00:00Z')).toEqual([
      { at: '2030-04-01T00:30:00.000Z', card: 'c', items: ['c#r'] },
    ]);
  });

  it('Australia/Lord_Howe half-hour spring forward: 02:15 arrives at 02:45, inside quiet hours from 02:30', async () => {
    const e = await env('Australia/Lord_Howe', [card('c', [{ id: 'r', trigger: daily('02:15') }])]);
    await e.s.api('/api/notifications/global-state', {
      json: { quiet_hours: { start: '02:30', end: '06:00' } },
    });
    await e.run('2030-10-05T00:00:00Z', '2030-10-05T00:00:00Z');
    expect(await e.run('2030-10-05T14:00:00Z', '2030-10-05T17:00:00Z')).toEqual([]);
    // 2030-10-06 02:15 +11 is 15:15Z the day before
    expect(await e.run('2030-10-06T14:00:00Z', '2030-10-06T17:00:00Z')).toEqual([
      { at: '2030-10-06T15:15:00.000Z', card: 'c', items: ['c#r'] },
    ]);
  });

  it('a slot caught up after downtime is not sent once quiet hours have begun', async () => {
    const e = await env('America/New_York', [card('c', [{ id: 'r', trigger: daily('21:55') }])]);
    await e.s.api('/api/notifications/global-state', {
      json: { quiet_hours: { start: '22:00', end: '07:00' } },
    });
    await e.run('2030-06-01T12:00:00Z', '2030-06-01T12:00:00Z');
    // down from 21:50 to 22:05 EDT: the 21:55 slot is within the grace window, but it is 22:05
    expect(await e.run('2030-06-02T02:05:00Z', '2030-06-02T02:30:00Z')).toEqual([]);
    const list = (await e.s.api('/api/notifications')).body.notifications;
    expect(list.find((n: { id: string }) => n.id === 'c#r').last_fire_status).toBe('quiet');
    // back in time the next evening: sent at 21:55
    expect(await e.run('2030-06-03T01:50:00Z', '2030-06-03T02:00:00Z')).toEqual([
      { at: '2030-06-03T01:55:00.000Z', card: 'c', items: ['c#r'] },
    ]);
  });
});

/** `YYYY-MM-DD` moved by `n` calendar days. */
function shiftDay(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

describe('a card switched off and on again', () => {
  // a reminder switched back on waits for its next slot: a slot that came due while its card was
  // off (the card's master switch, or its notifications.enabled) is never sent when it comes back
  it.each([
    ['the master switch', 'settings'],
    ['notifications.enabled', 'manifest'],
  ])('by %s: the slot it missed while off is not sent after; the next one is', async (_what, how) => {
    const e = await env('UTC', [card('c', [{ id: 'r', trigger: daily('21:00') }])]);
    await e.run('2030-06-01T20:00:00Z', '2030-06-01T20:50:00Z', 10 * MIN);
    const set = async (on: boolean) => {
      if (how === 'settings') {
        const r = await e.s.api(`/api/settings/cards/c/${on ? 'enable' : 'disable'}`, { method: 'POST' });
        expect(r.status, r.text).toBe(200);
      } else {
        const meta = (await e.s.api('/api/manifests/c')).body.meta;
        const r = await e.s.api('/api/manifests/c', {
          method: 'PATCH',
          json: { meta: { notifications: { ...meta.notifications, enabled: on } } },
        });
        expect(r.status, r.text).toBe(200);
      }
    };
    await set(false);
    expect(await e.run('2030-06-01T20:51:00Z', '2030-06-01T21:05:00Z')).toEqual([]);
    await set(true);
    // on again five minutes after 21:00: within the catch-up window, yet not sent
    expect(await e.run('2030-06-01T21:06:00Z', '2030-06-01T21:14:00Z')).toEqual([]);
    expect(await e.run('2030-06-02T20:55:00Z', '2030-06-02T21:05:00Z')).toEqual([
      { at: '2030-06-02T21:00:00.000Z', card: 'c', items: ['c#r'] },
    ]);
  });
});

describe('changed triggers, restarts and downtime', () => {
  it('a changed trigger clears the last fire and its new slot fires the same day', async () => {
    const e = await env('UTC', [card('c', [{ id: 'r', trigger: daily('08:00') }])]);
    await e.run('2030-06-01T00:00:00Z', '2030-06-01T00:00:00Z');
    expect(await e.run('2030-06-01T08:00:00Z', '2030-06-01T08:00:00Z')).toHaveLength(1);
    const before = (await e.s.api('/api/notifications')).body.notifications[0];
    expect(before.last_fired).toBe('2030-06-01T08:00:00.000Z');
    // the change happens (as the chat tool or a PATCH would make it) at 08:30 on the test clock
    const meta = (await e.s.api('/api/manifests/c')).body.meta;
    meta.notifications.items[0].trigger = daily('09:00');
    await e.s.api('/api/manifests/c', {
      method: 'PATCH',
      json: { meta: { notifications: meta.notifications } },
    });
    e.s.inst.push.armCard('c', new Date('2030-06-01T08:30:00Z'));
    const after = (await e.s.api('/api/notifications')).body.notifications[0];
    expect(after.last_fired).toBeNull();
    const fired = await e.run('2030-06-01T08:30:00Z', '2030-06-01T09:30:00Z');
    expect(fired).toEqual([{ at: '2030-06-01T09:00:00.000Z', card: 'c', items: ['c#r'] }]);
  });

  it('a restart in the due minute after the fire does not fire again', async () => {
    const e = await env('UTC', [card('c', [{ id: 'r', trigger: daily('21:00') }])]);
    await e.run('2030-06-01T12:00:00Z', '2030-06-01T12:00:00Z');
    expect(await e.run('2030-06-01T21:00:10Z', '2030-06-01T21:00:10Z')).toHaveLength(1);
    await e.s.close({ keepHome: true });
    open.pop();
    const e2 = await env('UTC', [], e.s.home);
    expect(await e2.run('2030-06-01T21:00:40Z', '2030-06-01T21:30:00Z')).toEqual([]);
    expect(await e2.run('2030-06-02T21:00:00Z', '2030-06-02T21:00:00Z')).toHaveLength(1);
  });

  it('down at the due minute: back within the grace window fires once; later it is recorded as missed', async () => {
    const e = await env('UTC', [card('c', [{ id: 'r', trigger: daily('21:00') }])]);
    await e.run('2030-06-01T20:59:00Z', '2030-06-01T20:59:00Z');
    await e.s.close({ keepHome: true });
    open.pop();
    const e2 = await env('UTC', [], e.s.home);
    // the start-up tick at 21:07, then the minutes after: one fire, no repeat
    expect(await e2.run('2030-06-01T21:07:30Z', '2030-06-01T21:20:30Z')).toEqual([
      { at: '2030-06-01T21:07:30.000Z', card: 'c', items: ['c#r'] },
    ]);
    await e2.s.close({ keepHome: true });
    open.pop();
    // down for three days: back at 22:00, well past the window: nothing is sent, no burst
    const e3 = await env('UTC', [], e.s.home);
    expect(await e3.run('2030-06-04T22:00:00Z', '2030-06-04T22:10:00Z')).toEqual([]);
    const n = (await e3.s.api('/api/notifications')).body.notifications[0];
    expect(n.last_fire_status).toBe('missed');
    expect(await e3.run('2030-06-05T21:00:00Z', '2030-06-05T21:00:00Z')).toHaveLength(1);
  });
});

describe('schedule_due reminders', () => {
  it('name the items due at that time of day and not yet taken, and the ones missed earlier', async () => {
    const meds = {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'meds', label: 'Meds', view: { enabled: true, component: 'schedule-card' } },
      data: {
        items: [
          { name: 'Vitamin D', schedule: { type: 'daily', time_of_day: 'evening' }, doses: [] },
          { name: 'Iron', schedule: { type: 'daily', time_of_day: 'morning' }, doses: [] },
          {
            name: 'Zinc',
            schedule: { type: 'daily', time_of_day: 'evening' },
            doses: [{ scheduledDate: '2030-06-01', takenAt: '2030-06-01T18:00:00Z' }],
          },
        ],
      },
    };
    const e = await env('UTC', [
      meds,
      card('nudge', [
        {
          id: 'evening',
          title: 'Evening doses',
          body: 'Take {schedule_due}{missed_earlier}',
          trigger: { type: 'schedule_due', time: '19:00', card: 'meds', time_of_day: 'evening' },
        },
      ]),
    ]);
    await e.run('2030-06-01T00:00:00Z', '2030-06-01T00:00:00Z');
    expect(await e.run('2030-06-01T19:00:00Z', '2030-06-01T19:00:00Z')).toHaveLength(1);
    const m = push.messagesFor(e.sub.id).at(-1);
    expect(m?.payload.items[0]).toMatchObject({
      body: 'Take Vitamin D. Also missed earlier: Iron',
      reminders: { due_now: ['Vitamin D'], missed_earlier: ['Iron'] },
    });
  });

  it('a tap opens the schedule card on the day the doses were due, also when it comes after midnight', async () => {
    const meds = {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'meds', label: 'Meds', view: { enabled: true, component: 'schedule-card' } },
      data: { items: [{ name: 'Vitamin D', schedule: { type: 'daily', time_of_day: 'night' }, doses: [] }] },
    };
    const e = await env('Europe/Berlin', [
      meds,
      card('nudge', [
        {
          id: 'night',
          body: 'Take {schedule_due}',
          trigger: { type: 'schedule_due', time: '23:50', card: 'meds', time_of_day: 'night' },
        },
      ]),
      card('walk', [{ id: 'evening', trigger: daily('23:50') }]),
    ]);
    await e.run('2030-06-01T12:00:00Z', '2030-06-01T12:00:00Z');
    // 23:50 on 1 June in Berlin; the phone shows it, and the person taps it at 00:20 on 2 June
    expect(await e.run('2030-06-01T21:50:00Z', '2030-06-01T21:50:00Z')).toHaveLength(2);
    const urls = push
      .messagesFor(e.sub.id)
      .slice(-2)
      .map((m) => m.payload.items[0].url)
      .sort();
    // the dose reminder names its schedule card (not the card holding the reminder) and its day;
    // a reminder to log something opens today, when the value is measured
    expect(urls).toEqual(['/?card=walk', '/day/2030-06-01?card=meds']);
  });

  it('a check-off an agent wrote in UTC counts on the person’s day (Los Angeles evening)', async () => {
    const meds = {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'meds', label: 'Meds', view: { enabled: true, component: 'schedule-card' } },
      data: {
        items: [
          // taken at 19:00 on 1 June in Los Angeles, which is 2 June in UTC
          {
            name: 'Vitamin D',
            schedule: { type: 'daily', time_of_day: 'evening' },
            doses: [{ takenAt: '2030-06-02T02:00:00Z' }],
          },
          { name: 'Zinc', schedule: { type: 'daily', time_of_day: 'evening' }, doses: [] },
        ],
      },
    };
    const e = await env('America/Los_Angeles', [
      meds,
      card('nudge', [
        {
          id: 'evening',
          title: 'Evening doses',
          body: 'Take {schedule_due}',
          trigger: { type: 'schedule_due', time: '20:00', card: 'meds', time_of_day: 'evening' },
        },
      ]),
    ]);
    await e.run('2030-06-01T07:00:00Z', '2030-06-01T07:00:00Z');
    // 20:00 on 1 June in Los Angeles
    expect(await e.run('2030-06-02T03:00:00Z', '2030-06-02T03:00:00Z')).toHaveLength(1);
    expect(push.messagesFor(e.sub.id).at(-1)?.payload.items[0]).toMatchObject({
      body: 'Take Zinc',
      reminders: { due_now: ['Zinc'], missed_earlier: [] },
    });
  });
});
