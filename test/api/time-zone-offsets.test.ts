/**
 * A time zone sent as a fixed offset (`+05:30`: newer browsers may report one, and Node 20's Intl
 * refuses the name) is read as the zone that keeps that offset all year, in `POST /api/user/tz` and
 * in the per-request zone header of entry writes. An offset no zone keeps all year (Newfoundland's
 * −03:30 changes in summer) is refused 400 naming the field, and nothing changes.
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

const setZone = (tz: unknown) => s.api('/api/user/tz', { json: { tz } });

describe('offsets as time zones', () => {
  it('POST /api/user/tz maps an offset to its zone', async () => {
    const cases: [string, string][] = [
      ['+05:30', 'Asia/Kolkata'],
      ['+05:45', 'Asia/Kathmandu'],
      ['+0530', 'Asia/Kolkata'],
      ['-08:00', 'Etc/GMT+8'],
      ['+14:00', 'Etc/GMT-14'],
      ['UTC+5', 'Etc/GMT-5'],
      ['-09:30', 'Pacific/Marquesas'],
      ['+00:00', 'UTC'],
    ];
    for (const [sent, zone] of cases) {
      const r = await setZone(sent);
      expect(r.status, `${sent}: ${r.text}`).toBe(200);
      expect(r.body.tz, sent).toBe(zone);
      expect(s.inst.user.timeZone()).toBe(zone);
    }
  });

  it('refuses an offset no zone keeps all year, or none at all, naming tz; the zone stays', async () => {
    expect((await setZone('+05:30')).status).toBe(200);
    for (const sent of ['-03:30', '+25:00', '+05:75', '+5:30:00']) {
      const r = await setZone(sent);
      expect(r.status, sent).toBe(400);
      expect(r.body.code).toBe('BAD_REQUEST');
      expect(r.body.details[0].path, sent).toBe('body.tz');
    }
    expect(s.inst.user.timeZone()).toBe('Asia/Kolkata');
  });

  it('an entry write carrying an offset zone header is taken, "today" in that zone', async () => {
    expect((await setZone('Pacific/Pago_Pago')).status).toBe(200);
    const card = {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'today-only', label: 'Today only', writeable: { fromWebapp: true } },
      data: [],
    };
    expect((await s.api('/api/manifests', { json: card })).status).toBe(201);
    const r = await s.api('/api/manifests/today-only/entries', {
      // Kiritimati's today, always Pago Pago's tomorrow: taken only in the header's zone
      json: { entry: { date: todayIn('Pacific/Kiritimati'), n: 1 } },
      headers: { 'x-klebb-time-zone': '+14:00' },
    });
    expect(r.status, r.text).toBe(201);
    expect((await s.api('/api/manifests/today-only/data')).body.data).toEqual([
      { date: todayIn('Pacific/Kiritimati'), n: 1 },
    ]);
    const bad = await s.api('/api/manifests/today-only/entries', {
      json: { entry: { date: todayIn('Pacific/Kiritimati'), n: 2 } },
      headers: { 'x-klebb-time-zone': '-03:30' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('headers.x-klebb-time-zone');
  });
});
