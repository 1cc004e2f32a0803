/**
 * "Today" for the date allowance is the person's calendar day in the time zone their browser
 * reported, not the server's: a card that takes only today's entries takes Auckland's
 * today once the zone is Pacific/Auckland, and Los Angeles' today once it is America/Los_Angeles.
 *
 * Auckland and Los Angeles are 19 to 21 hours apart, so for a few hours a day they share a date;
 * the pair Pacific/Kiritimati (UTC+14) and Pacific/Pago_Pago (UTC−11), 25 hours apart, never does,
 * so the refusal is checked on every run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;

beforeAll(async () => {
  // the server's own zone is neither of the person's zones
  s = await startServer({ env: { TZ: 'UTC' } });
});

/** A fresh card that takes today's entries only (a day that has a row may always be updated). */
async function freshCard() {
  await s.api('/api/manifests/today-only', { method: 'DELETE' });
  const r = await s.api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'today-only', label: 'Today only', writeable: { fromWebapp: true } },
      data: [],
    },
  });
  expect(r.status).toBe(201);
}
afterAll(async () => {
  await s?.close();
});

async function setZone(tz: string) {
  expect((await s.api('/api/user/tz', { json: { tz } })).status).toBe(200);
  expect(s.inst.user.timeZone()).toBe(tz);
}

const add = (date: string) => s.api('/api/manifests/today-only/entries', { json: { entry: { date, n: 1 } } });

/** Takes the zone's today; refuses the other zone's today when it differs, as past or future. */
async function checkPair(zone: string, other: string) {
  await freshCard();
  await setZone(zone);
  const mine = todayIn(zone);
  const theirs = todayIn(other);
  const ok = await add(mine);
  expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  if (theirs === mine) return false;
  const refused = await add(theirs);
  expect(refused.status).toBe(422);
  expect(refused.body.code).toBe('DATE_NOT_ALLOWED');
  expect(refused.body.error).toBe(
    theirs < mine
      ? "This card doesn't take entries for past days."
      : "This card doesn't take entries for future days.",
  );
  return true;
}

describe('today is the person’s day', () => {
  it('Pacific/Auckland, then America/Los_Angeles', async () => {
    await checkPair('Pacific/Auckland', 'America/Los_Angeles');
    expect((await s.api('/api/manifests/today-only/data')).body.data).toEqual([
      { date: todayIn('Pacific/Auckland'), n: 1 },
    ]);
    await checkPair('America/Los_Angeles', 'Pacific/Auckland');
    expect((await s.api('/api/manifests/today-only/data')).body.data).toEqual([
      { date: todayIn('America/Los_Angeles'), n: 1 },
    ]);
  });

  it('zones 25 hours apart always differ: each refuses the other’s today', async () => {
    expect(await checkPair('Pacific/Kiritimati', 'Pacific/Pago_Pago')).toBe(true);
    expect(await checkPair('Pacific/Pago_Pago', 'Pacific/Kiritimati')).toBe(true);
  });
});

describe('each device sends its own zone (X-Klebb-Time-Zone)', () => {
  const addIn = (date: string, tz: string) =>
    s.api('/api/manifests/today-only/entries', {
      json: { entry: { date, n: 1 } },
      headers: { 'X-Klebb-Time-Zone': tz },
    });

  it('a phone in Kiritimati and a laptop in Pago Pago each get their own today, whatever zone is stored', async () => {
    await freshCard();
    await setZone('Pacific/Pago_Pago'); // the laptop reported last
    const phone = await addIn(todayIn('Pacific/Kiritimati'), 'Pacific/Kiritimati');
    expect(phone.status, JSON.stringify(phone.body)).toBe(201);
    await setZone('Pacific/Kiritimati'); // now the phone reported last
    const laptop = await addIn(todayIn('Pacific/Pago_Pago'), 'Pacific/Pago_Pago');
    expect(laptop.status, JSON.stringify(laptop.body)).toBe(201);
    // without the header the stored zone still decides
    const other = await add(addDaysIso(todayIn('Pacific/Kiritimati'), 1));
    expect(other.status).toBe(422);
  });

  it('an unknown zone is 400 naming the header; nothing is written', async () => {
    await freshCard();
    const r = await addIn(todayIn('UTC'), 'Mars/Olympus_Mons');
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('headers.x-klebb-time-zone');
    expect((await s.api('/api/manifests/today-only/data')).body.data).toEqual([]);
  });

  it('POST /api/user/tz names what is wrong with tz: missing, not a string, unknown', async () => {
    const before = s.inst.user.timeZone();
    for (const [body, message] of [
      [{}, 'is required'],
      [{ tz: 5 }, 'must be a string'],
      [{ tz: 'Mars/Olympus_Mons' }, 'unknown time zone'],
    ] as const) {
      const r = await s.api('/api/user/tz', { json: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.details, JSON.stringify(body)).toEqual([{ path: 'body.tz', message }]);
    }
    expect(s.inst.user.timeZone()).toBe(before);
  });
});

function addDaysIso(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
