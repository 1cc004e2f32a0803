/**
 * Reminder settings refused for what is wrong with them, naming the field:
 * - `paused_until` on a day that does not exist (2024-02-30) was read by Date.parse as the next
 *   real one and stored (2024-03-01); every instant the API takes is now read by the date rules;
 * - a nullable object (`quiet_hours`: null or {start, end}) sent as an object with a bad or
 *   missing part was refused as "body.quiet_hours must be null or a object": the refusal now
 *   names the part (`body.quiet_hours.start`) and says what is wrong with it. The same holds for
 *   every union whose value fits one branch by its type (a report's re-read options).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
const globalState = (json: unknown) => s.api('/api/notifications/global-state', { json });
const stored = async () => {
  const r = await s.api('/api/notifications');
  return { quiet_hours: r.body.quiet_hours, paused_until: r.body.paused_until };
};

beforeAll(async () => {
  s = await startServer();
  expect(
    (
      await globalState({
        quiet_hours: { start: '22:00', end: '07:00' },
        paused_until: '2030-01-01T08:00:00Z',
      })
    ).status,
  ).toBe(200);
});
afterAll(async () => {
  await s?.close();
});

describe('paused_until', () => {
  it('a day or a time that does not exist is 400 naming body.paused_until, and nothing is stored', async () => {
    const before = await stored();
    for (const when of [
      '2024-02-30T10:00:00Z',
      '2023-02-29T10:00:00Z',
      '2026-04-31T10:00:00Z',
      '2026-13-01T10:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:60:00Z',
      '2026-01-01T10:00:00+15:00',
      '+010000-01-01T00:00:00Z',
      '2026-01-01T10:00:00Z trailing',
    ]) {
      const r = await globalState({ paused_until: when });
      expect(r.status, when).toBe(400);
      expect(
        r.body.details.map((d: { path: string }) => d.path),
        when,
      ).toEqual(['body.paused_until']);
    }
    expect(await stored()).toEqual(before);
  });

  it('a real instant is stored as its UTC stamp', async () => {
    expect((await globalState({ paused_until: '2024-02-29T10:00:00Z' })).body.paused_until).toBe(
      '2024-02-29T10:00:00.000Z',
    );
    expect((await globalState({ paused_until: '2030-01-01T08:00:00+01:00' })).body.paused_until).toBe(
      '2030-01-01T07:00:00.000Z',
    );
    expect((await globalState({ paused_until: null })).body.paused_until).toBeNull();
  });

  it('a date or time of a year before 100 is read on that day, not moved to the 1900s', async () => {
    // the person's clock reads it: UTC, then a zone three hours east of it all year round
    const cases: [string, string, string][] = [
      ['UTC', '0099-01-01', '0099-01-01T00:00:00.000Z'],
      ['UTC', '0000-02-29T10:00', '0000-02-29T10:00:00.000Z'],
      ['UTC', '0100-01-01', '0100-01-01T00:00:00.000Z'],
      ['Etc/GMT-3', '0050-06-01T08:00', '0050-06-01T05:00:00.000Z'],
      ['Etc/GMT-3', '0001-01-01', '0000-12-31T21:00:00.000Z'],
    ];
    for (const [tz, when, utc] of cases) {
      expect((await s.api('/api/user/tz', { json: { tz } })).status).toBe(200);
      const r = await globalState({ paused_until: when });
      expect(r.status, `${when}: ${r.text}`).toBe(200);
      expect(r.body.paused_until, `${when} in ${tz}`).toBe(utc);
      expect((await stored()).paused_until, when).toBe(utc);
    }
  });
});

describe('a nullable object names the part that is wrong', () => {
  it('quiet_hours with an hour past 23 names body.quiet_hours.start and says how to write it', async () => {
    const r = await globalState({ quiet_hours: { start: '25:00', end: '07:00' } });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { path: 'body.quiet_hours.start', message: 'must be a 24-hour time written HH:MM (00:00 to 23:59)' },
    ]);
    expect(r.body.error).toContain('body.quiet_hours.start');
  });

  it('quiet_hours without its end names body.quiet_hours.end', async () => {
    const r = await globalState({ quiet_hours: { start: '22:00' } });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ path: 'body.quiet_hours.end', message: 'is required' }]);
  });

  it('quiet_hours of another type still says what it may be', async () => {
    const r = await globalState({ quiet_hours: '22:00-07:00' });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ path: 'body.quiet_hours', message: 'must be null or an object' }]);
  });

  it('a report re-read with a wrong option names that option', async () => {
    const r = await s.api('/api/reports/some-report/reprocess', { json: { psm: 99 } });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ path: 'body.psm', message: 'must be at most 13' }]);
  });

  it('nothing was stored by the refusals', async () => {
    expect((await stored()).quiet_hours).toEqual({ start: '22:00', end: '07:00' });
  });
});

describe('the global reminder settings take only what they know', () => {
  it('an unknown key (a misspelt paused_until, a third part of quiet_hours) is 400 naming it, nothing stored', async () => {
    const before = await stored();
    const cases: [unknown, string][] = [
      [{ pause_until: '2031-01-01T00:00:00Z' }, 'body.pause_until'],
      [{ quiet_hours: null, pausedUntil: null }, 'body.pausedUntil'],
      [{ quiet_hours: { start: '23:00', end: '06:00', days: ['sat'] } }, 'body.quiet_hours.days'],
    ];
    for (const [body, at] of cases) {
      const r = await globalState(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.details.map((d: { path: string }) => d.path)).toContain(at);
      expect(r.body.error).toContain(at.slice(5));
    }
    expect(await stored()).toEqual(before);
  });

  it('quiet hours that start and end at the same minute (22:00 to 22:00) are 400 naming body.quiet_hours.end', async () => {
    const before = await stored();
    for (const t of ['22:00', '00:00', '07:30']) {
      const r = await globalState({ quiet_hours: { start: t, end: t } });
      expect(r.status, t).toBe(400);
      expect(r.body.details).toEqual([
        { path: 'body.quiet_hours.end', message: expect.stringMatching(/must differ from start/) },
      ]);
    }
    expect(await stored()).toEqual(before);
    // a window of one minute is a window
    expect((await globalState({ quiet_hours: { start: '22:00', end: '22:01' } })).status).toBe(200);
    expect((await globalState({ quiet_hours: before.quiet_hours })).status).toBe(200);
  });
});
