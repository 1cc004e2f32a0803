/**
 * `paused_until` is read as ISO 8601 in the person's time zone, through the real server: an
 * instant with Z or an offset is that instant; a date and time without one is that wall-clock
 * time where the person lives; a date alone is the start of that day there. Anything else (a
 * number, which `Date.parse` took for a day in 2001, a day not in the calendar, a time no clock
 * shows, words) is 400 naming the field, and the pause and quiet hours stay as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;

beforeAll(async () => {
  s = await startServer({ env: { TZ: 'UTC' } });
  expect((await s.api('/api/user/tz', { json: { tz: 'America/Los_Angeles' } })).status).toBe(200);
});
afterAll(async () => {
  await s.close();
});

const pause = (paused_until: unknown, extra: Record<string, unknown> = {}) =>
  s.api('/api/notifications/global-state', { json: { paused_until, ...extra } });

describe('paused_until', () => {
  it('reads a date, a wall-clock time and an instant as the person in Los Angeles means them', async () => {
    const cases: [string, string][] = [
      ['2030-05-01', '2030-05-01T07:00:00.000Z'], // midnight PDT
      ['2030-05-01T08:00', '2030-05-01T15:00:00.000Z'],
      ['2030-01-15 08:00:30', '2030-01-15T16:00:30.000Z'], // PST in winter
      ['2030-05-01T08:00:00+02:00', '2030-05-01T06:00:00.000Z'],
      ['2030-05-01T08:00:00.250Z', '2030-05-01T08:00:00.250Z'],
      ['2030-05-01T08:00:00-0330', '2030-05-01T11:30:00.000Z'],
      // the offsets at the ends of the world's clocks are taken
      ['2030-05-01T14:00:00+14:00', '2030-05-01T00:00:00.000Z'],
      ['2030-05-01T00:00:00-14:00', '2030-05-01T14:00:00.000Z'],
    ];
    for (const [sent, stored] of cases) {
      const r = await pause(sent);
      expect(r.status, `${sent}: ${r.text}`).toBe(200);
      expect(r.body.paused_until, sent).toBe(stored);
    }
  });

  it('refuses what is not an ISO date-time (400 naming the field) and changes nothing', async () => {
    expect(
      (await pause('2030-06-01T00:00:00Z', { quiet_hours: { start: '22:00', end: '07:00' } })).status,
    ).toBe(200);
    for (const junk of [
      '1.5',
      '12',
      '-1',
      '2030',
      'May 1',
      'tomorrow',
      '2030-02-30',
      '2030-02-30T08:00:00Z',
      '2030-13-01',
      '2030-05-01T24:00',
      '2030-05-01T08:60',
      '2030-05-01T08:00+15:00',
      '2030-05-01T08:00+14:01',
      '2030-05-01T08:00-14:01',
      '2030-05-01T08:00+14:30',
      '2030-05-01T08:00-1459',
      '2030-05-01T08:00:00Zjunk',
      'Wed, 01 May 2030 08:00:00 GMT',
    ]) {
      const r = await pause(junk, { quiet_hours: null });
      expect(r.status, junk).toBe(400);
      expect(r.body.details[0].path, junk).toBe('body.paused_until');
    }
    const now = await s.api('/api/notifications');
    expect(now.body.paused_until).toBe('2030-06-01T00:00:00.000Z');
    expect(now.body.quiet_hours).toEqual({ start: '22:00', end: '07:00' });
  });
});
