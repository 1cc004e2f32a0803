/**
 * A date written with `Z` or an offset is an instant, filed under the person's day in their
 * zone; a date or a wall-clock time without offset is filed under the day written. The server's own
 * zone (UTC here) is neither person's zone.
 *
 * - a Los Angeles evening sent in UTC (`…T03:30Z`, the next UTC day) is the same day as that
 *   day's morning reading, so a one-a-day card keeps one row;
 * - an Auckland morning sent in UTC the day before is Auckland's day (the quick append for "a
 *   day later than every row" must not take the written day for the filed day);
 * - "now" written with +14:00 is tomorrow written, but today for someone in UTC−11 (and now
 *   written in −11:00 is today in +14): a card that takes today's entries only takes both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;

beforeAll(async () => {
  s = await startServer({ env: { TZ: 'UTC' } });
});
afterAll(async () => {
  await s?.close();
});

async function setZone(tz: string) {
  expect((await s.api('/api/user/tz', { json: { tz } })).status).toBe(200);
}

/** A fresh one-a-day card `id`; `writeable` extends the web app's permission. */
async function freshCard(id: string, writeable: Record<string, unknown> = { pastAllowed: true }) {
  await s.api(`/api/manifests/${id}`, { method: 'DELETE' });
  const r = await s.api('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id, label: id, writeable: { fromWebapp: true, ...writeable } },
      data: [],
    },
  });
  expect(r.status).toBe(201);
}

const add = (id: string, entry: Record<string, unknown>, headers?: Record<string, string>) =>
  s.api(`/api/manifests/${id}/entries`, { json: { entry }, headers });
const rows = async (id: string) => (await s.api(`/api/manifests/${id}/data`)).body.data;

/** "now" written as the wall clock of a fixed offset (`+14:00`), seconds precision. */
function nowWithOffset(offsetMinutes: number): string {
  const wall = new Date(Date.now() + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const a = Math.abs(offsetMinutes);
  return `${wall}${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

describe('an instant is filed under the person’s day', () => {
  it('a Los Angeles evening sent in UTC replaces that day’s row, not the next day’s', async () => {
    await setZone('America/Los_Angeles');
    await freshCard('weight-la');
    expect((await add('weight-la', { date: '2026-04-20', kg: 80 })).status).toBe(201);
    const r = await add('weight-la', { date: '2026-04-21T03:30:00Z', kg: 81 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.replaced).toBe(true);
    expect(await rows('weight-la')).toEqual([{ date: '2026-04-21T03:30:00Z', kg: 81 }]);
    // a wall-clock time is the day written, whatever the zone
    expect((await add('weight-la', { date: '2026-04-21T03:30', kg: 82 })).body.replaced).toBe(false);
    expect((await rows('weight-la')).length).toBe(2);
  });

  it('an Auckland morning sent in UTC the day before is Auckland’s day, also on the quick append', async () => {
    await setZone('Pacific/Auckland');
    await freshCard('weight-nz');
    // 20:00 UTC on the 19th is 08:00 on the 20th in Auckland
    expect((await add('weight-nz', { date: '2026-04-19T20:00:00Z', kg: 70 })).status).toBe(201);
    const r = await add('weight-nz', { date: '2026-04-20', kg: 71 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.replaced).toBe(true);
    expect(await rows('weight-nz')).toEqual([{ date: '2026-04-20', kg: 71 }]);
  });

  it('Kolkata (+05:30) and Kathmandu (+05:45): minutes past UTC midnight decide', async () => {
    await setZone('Asia/Kathmandu');
    await freshCard('mood-ktm', { pastAllowed: true });
    expect((await add('mood-ktm', { date: '2026-04-20', n: 1 })).status).toBe(201);
    // 18:14 UTC is 23:59 in Kathmandu: still the 19th there, a new day's row before the 20th
    const r = await add('mood-ktm', { date: '2026-04-19T18:14:00Z', n: 2 });
    expect(r.body.replaced).toBe(false);
    expect(r.body.index).toBe(0);
    // 18:15 UTC is midnight in Kathmandu: the 20th
    expect((await add('mood-ktm', { date: '2026-04-19T18:15:00Z', n: 3 })).body.replaced).toBe(true);
    await setZone('Asia/Kolkata');
    await freshCard('mood-ccu', { pastAllowed: true });
    expect((await add('mood-ccu', { date: '2026-04-20', n: 1 })).status).toBe(201);
    // 18:30 UTC is midnight in Kolkata, 18:29:59 the last second of the 19th
    expect((await add('mood-ccu', { date: '2026-04-19T18:30:00Z', n: 2 })).body.replaced).toBe(true);
    const k = await add('mood-ccu', { date: '2026-04-19T18:29:59Z', n: 3 });
    expect(k.body).toMatchObject({ replaced: false, index: 0 });
  });

  it('today-only card: now written in +14:00 is today for someone in UTC−11', async () => {
    await setZone('Pacific/Pago_Pago');
    await freshCard('today-pago', {});
    const stamp = nowWithOffset(14 * 60);
    // the written day is always the day after Pago Pago's today (the zones are 25 hours apart)
    expect(stamp.slice(0, 10) > todayIn('Pacific/Pago_Pago')).toBe(true);
    const r = await add('today-pago', { date: stamp, n: 1 });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    // and now written in −11:00, the written day before Kiritimati's today, is today there
    await setZone('Pacific/Kiritimati');
    await freshCard('today-kiri', {});
    const back = await add('today-kiri', { date: nowWithOffset(-11 * 60), n: 1 });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    // an instant a day and a half ago is a past day in any zone: refused
    const old = new Date(Date.now() - 36 * 3600_000).toISOString();
    const refused = await add('today-kiri', { date: old, n: 2 });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('DATE_NOT_ALLOWED');
    expect(refused.body.error).toBe("This card doesn't take entries for past days.");
  });

  it('the device’s zone header decides over the stored zone', async () => {
    await setZone('Pacific/Kiritimati');
    await freshCard('today-header', {});
    const r = await add(
      'today-header',
      { date: nowWithOffset(14 * 60), n: 1 },
      { 'x-klebb-time-zone': 'Pacific/Pago_Pago' },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });
});
